"""`memtui demo`: write a realistic sample store (and, later, open it)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli import CallError
from memtui.cli.output import line


def register(verbs: Any) -> None:
    p = verbs.add_parser(
        "demo",
        help="write a sample store holding all six layouts",
        description="Write a deterministic sample store holding all six layouts: the "
        "workspace, companion and dsh layouts side by side, with a Claude Code memory folder "
        "(claude/), a Hermes Agent home (hermes/) and an OpenClaw workspace (openclaw/) "
        "beside them.",
    )
    p.add_argument("--dir", metavar="D", help="where to write it (default: a new temp folder)")
    p.add_argument(
        "--size",
        type=int,
        default=1,
        metavar="N",
        help="scale: N=500 is the benchmark store (20,000 events)",
    )
    p.add_argument("--no-ui", action="store_true", help="only write the store")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import tempfile
    from pathlib import Path

    from memtui.demo import write_demo
    from memtui.engine.config import today

    if args.size < 1:
        raise CallError("--size must be 1 or more")
    target = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-demo-"))
    try:
        counts = write_demo(target, size=args.size, today=today())
    except (ValueError, OSError) as exc:
        raise CallError(f"cannot write the demo store in {target}: {exc}") from None
    line(f"wrote a demo store in {target}")
    line("  " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
    if args.no_ui:
        line(f"open it with: memtui {target}")
        return 0
    from memtui.cli.open_verb import launch

    return launch(str(target))
