"""One user action is one operation (SPEC §3d), however many transactions it takes.

A bulk accept commits in chunks, each its own transaction; all of them carry the
operation id they ran under, so `memtui undo` puts the whole action back at once.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import uuid
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from memtui.engine.collector import gc_paused

_current: ContextVar[str | None] = ContextVar("memtui_operation", default=None)
# What the operation's transactions learnt of the store's folders, for the next chunk.
_seen: ContextVar[dict[object, dict[Any, Any]] | None] = ContextVar(
    "memtui_operation_seen", default=None
)


def new_id() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


def current() -> str | None:
    return _current.get()


@contextlib.contextmanager
def operation() -> Iterator[str]:
    """Transactions inside share one operation id; a nested call joins the outer one.
    The cyclic collector is paused meanwhile (engine/collector.py): a bulk action plans
    and checks thousands of objects, which reference counting frees."""
    outer = _current.get()
    if outer is not None:
        yield outer
        return
    token, seen = _current.set(new_id()), _seen.set({})
    try:
        with gc_paused():
            yield _current.get() or ""
    finally:
        _seen.reset(seen)
        _current.reset(token)


def seen(key: object) -> dict[Any, Any]:
    """A dict that lives as long as the running operation, one per `key` (a fresh one,
    kept by nobody, outside an operation)."""
    kept = _seen.get()
    return {} if kept is None else kept.setdefault(key, {})


_notes: ContextVar[dict[str, object] | None] = ContextVar("memtui_audit_notes", default=None)


def notes() -> dict[str, object]:
    """What the running action asked every transaction's audit record to say."""
    return dict(_notes.get() or {})


@contextlib.contextmanager
def noted(**details: object) -> Iterator[None]:
    """Transactions inside add `details` to their audit records (an approve allowed
    although its text was flagged), whichever layout's code makes them."""
    token = _notes.set({**notes(), **details})
    try:
        yield
    finally:
        _notes.reset(token)
