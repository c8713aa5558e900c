"""Fault injection for the crash and fault tests; free when nothing is armed.

MEMTUI_CRASH_AT=step[#n]   SIGKILL at a transaction step (its n-th time), e.g.
                           `journaled`, `applied:2#3`.
MEMTUI_FAULT=ERRNO:kind[#n] raise OSError(ERRNO) at the n-th (default: first) I/O
                           call of a kind: `write` (any bytes written: temp,
                           snapshot, journal, audit), `replace` (a file put in
                           place, renamed or removed), `mkdir`, `lock`. E.g.
                           `ENOSPC:write#3`, `EROFS:replace`.
"""

from __future__ import annotations

import errno
import os
import signal
import threading

_crash_at = os.environ.get("MEMTUI_CRASH_AT")
_crash_seen: dict[str, int] = {}
_fault: tuple[int, str, int] | None = None
_fault_seen: dict[str, int] = {}
_counting = threading.Lock()


def crash_point(step: str) -> None:
    if _crash_at is None:
        return
    count = _crash_seen[step] = _crash_seen.get(step, 0) + 1
    if _crash_at in (step, f"{step}#{count}"):
        os.kill(os.getpid(), signal.SIGKILL)


def arm(spec: str | None) -> None:
    """Arm (or with None disarm) a fault: `ENOSPC:write#2`. Counting starts anew."""
    global _fault
    _fault_seen.clear()
    if not spec:
        _fault = None
        return
    code, _, rest = spec.partition(":")
    kind, _, nth = rest.partition("#")
    _fault = (getattr(errno, code), kind, int(nth or 1))


def seen(kind: str) -> int:
    """How many calls of `kind` were made since arm() (arm a far-off fault to count)."""
    return _fault_seen.get(kind, 0)


def fault_point(kind: str, path: str = "") -> None:
    if _fault is None or _fault[1] != kind:
        return
    with _counting:  # writer threads (write.parallel) count too
        count = _fault_seen[kind] = _fault_seen.get(kind, 0) + 1
    if count == _fault[2]:
        raise OSError(_fault[0], os.strerror(_fault[0]), path)


arm(os.environ.get("MEMTUI_FAULT"))
