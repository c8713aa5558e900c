"""`write_demo`: one deterministic sample store: each layout's demo (Layout.demo), the
seed layouts side by side at the root, the others in folders of their own."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from memtui.demo.common import Sink
from memtui.engine.layouts import registry


def write_demo(directory: Path, size: int = 1, today: dt.date | None = None) -> dict[str, int]:
    """Write the demo store into `directory` and return what it holds.

    The same (size, today) always gives the same bytes. Dates are relative to `today`
    (default: the real today), so there are overdue and upcoming promises whenever it runs.
    Refuses (ValueError) a directory that exists and is not empty: it never overwrites.
    On a case-insensitive disk the companion's MEMORY.md cannot sit beside the workspace's
    memory.md, so it is left out there.
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"size must be a whole number >= 1, not {size!r}")
    today = today or dt.date.today()
    directory = Path(directory)
    _check_target(directory)
    directory.mkdir(parents=True, exist_ok=True)

    sink = Sink(directory)
    # Each layout draws from its own generator, so that changing one layout's text leaves
    # the bytes of the others as they were; in detection order (workspace first: its
    # memory.md must exist before the companion decides whether MEMORY.md can sit beside).
    counts: dict[str, int] = {}
    for name, layout in registry().items():
        rng = random.Random(f"memtui-demo/{name}/{size}")
        counts.update(layout.demo(sink, rng, size, today))
    counts.update(files=sink.files, bytes=sink.bytes)
    return counts


def _check_target(directory: Path) -> None:
    if directory.is_symlink() or (directory.exists() and not directory.is_dir()):
        raise ValueError(f"{directory} exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()):
        raise ValueError(f"{directory} is not empty; the demo store needs an empty or new folder")
