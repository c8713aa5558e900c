"""The memory stores on this machine (SPEC §3b "Finding the stores on this machine").

The usual places under HOME (and HERMES_HOME, and the current folder) are looked at
with the layouts' own detection (store.layouts_at: two folder listings, no parsing),
which is quick even for hundreds of projects; each store found is then opened
to count its files and findings, which is the slow part, so the faces can show the
list first and fill the counts in as they come (`measured`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from typing import Any

from memtui.engine.errors import MemtuiError
from memtui.engine.model import ERROR, WARNING

# Opening small stores is mostly Python work (the GIL): a few threads only hide the
# disk's latency; more would not go faster.
WORKERS = 4


@dataclass(frozen=True, slots=True)
class FoundStore:
    """One store found: where, which layouts, and once measured its size and counts."""

    path: str  # as found (a link is not resolved); may hold undecodable bytes
    real: str  # where it leads
    layouts: tuple[str, ...]
    files: int | None = None  # None until measured
    bytes: int | None = None
    errors: int | None = None
    warnings: int | None = None
    problem: str | None = None  # why it could not be read or opened

    @property
    def shown(self) -> str:
        """The path to print: bytes that are not UTF-8 as `\\xff` escapes."""
        return shown(self.path)

    @property
    def measured(self) -> bool:
        return self.files is not None or self.problem is not None

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.shown,
            "real": shown(self.real),
            "layouts": list(self.layouts),
            "files": self.files,
            "bytes": self.bytes,
            "errors": self.errors,
            "warnings": self.warnings,
            "problem": self.problem,
        }


def shown(path: str) -> str:
    """os.listdir hands undecodable bytes over as surrogates: show them as escapes."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def places(cwd: str | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """The folders to look at, in the order they are listed: each layout's usual places
    (Detection.usual_places, in detection order; os.path.expanduser, so HOME decides),
    then the current folder."""
    from memtui.engine.layouts import detectors

    env = os.environ if env is None else env
    home = os.path.expanduser("~")
    out = [p for det in detectors().values() for p in det.usual_places(home, env)]
    here = _here() if cwd is None else cwd
    return out if here is None else [*out, here]


def _here() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the current folder was removed: there is nothing to look at
        return None


def find(
    cwd: str | None = None, env: Mapping[str, str] | None = None, also: Sequence[str] = ()
) -> list[FoundStore]:
    """The stores in the usual places, not yet measured: one entry per real folder
    (a link to a store listed elsewhere is not listed twice). A usual place that is
    a folder but cannot be read is listed with the reason; the current folder only
    if it is a store; then the stores of `also` (the app's open ones) not listed yet."""
    here = _here() if cwd is None else cwd
    found: list[FoundStore] = []
    seen: set[str] = set()
    for path in (*places(here, env), *also):
        real = os.path.realpath(path)
        if real in seen:
            continue
        store = _detect(path, real, quiet=path == here or path in also)
        if store is not None:
            seen.add(real)
            found.append(store)
    return found


def _detect(path: str, real: str, *, quiet: bool) -> FoundStore | None:
    from memtui.engine.store import layouts_at

    if not os.path.isdir(path):  # missing, a file, a FIFO, a link to nothing or a loop
        return None
    try:
        os.listdir(path)  # layouts_at says nothing of a folder it cannot read
        layouts = layouts_at(path)
    except (OSError, ValueError) as exc:
        if quiet:
            return None
        return FoundStore(path, real, (), problem=shown(f"{path}: cannot be read ({_why(exc)})"))
    return FoundStore(path, real, layouts) if layouts else None


def measure(store: FoundStore) -> FoundStore:
    """`store` with its size and findings counted (opening it reads every file).
    A store that cannot be opened comes back with the reason, never an exception."""
    from memtui.engine.store import open_store

    if store.problem is not None:
        return store
    try:
        opened = open_store(store.path)
    except Exception as exc:  # one store a parser trips on must not hide the rest
        return replace(store, problem=shown(f"{store.path}: cannot be opened ({_why(exc)})"))
    return replace(
        store,
        layouts=opened.layouts or store.layouts,
        files=len(opened.files),
        bytes=_size(opened.root, opened.files),
        errors=opened.count(ERROR),
        warnings=opened.count(WARNING),
    )


def _size(root: str, files: tuple[str, ...]) -> int:
    total = 0
    for rel in files:
        try:
            total += os.stat(os.path.join(root, rel)).st_size
        except OSError:
            continue  # gone since it was listed
    return total


def _why(exc: BaseException) -> str:
    if isinstance(exc, MemtuiError):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return f"{type(exc).__name__}: {exc}"


def measured(found: list[FoundStore], workers: int = WORKERS) -> Iterator[tuple[int, FoundStore]]:
    """(index in `found`, measured store) for each, as each is done. Closing it early
    (the list's screen closed) drops the stores not started yet."""
    if not found:
        return
    pool = ThreadPoolExecutor(max_workers=min(workers, len(found)))
    try:
        jobs = {pool.submit(measure, store): i for i, store in enumerate(found)}
        for job in as_completed(jobs):
            yield jobs[job], job.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def stores(cwd: str | None = None, env: Mapping[str, str] | None = None) -> list[FoundStore]:
    """Every store found, measured, in the order of `find`."""
    found = find(cwd, env)
    for i, store in measured(found):
        found[i] = store
    return found


def tilde(path: str) -> str:
    """The path with HOME written `~`, as the usual places are named."""
    home = os.path.expanduser("~").rstrip(os.sep)
    if home and (path == home or path.startswith(home + os.sep)):
        return "~" + path[len(home) :]
    return path


def looked() -> str:
    """Where `memtui stores` looks, in words: each layout's usual places, then here."""
    from memtui.engine.layouts import detectors

    where = [det.looked_in for det in detectors().values() if det.looked_in]
    return ", ".join([*where, "and this folder"]) if where else "this folder"


def __getattr__(name: str) -> str:
    # LOOKED, as the faces knew it: now looked() (the layouts say where they look)
    if name == "LOOKED":
        return looked()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
