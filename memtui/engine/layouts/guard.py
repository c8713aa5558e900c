"""A layout that fails is named and skipped, never a traceback: one that cannot be
loaded (the registry), and a third party's whose members raise (guarded). Each is said
once per run by the faces (newly_broken); with MEMTUI_DEBUG set, a third party's
error is raised as it is, for its author."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from typing import Any

from memtui.engine.errors import MemtuiError
from memtui.engine.paths import LOCK_NAME

_broken: dict[str, str] = {}  # layout name -> why it is skipped
_said: set[str] = set()  # the names a face has warned of


class LayoutSkipped(MemtuiError):
    """A layout's parse failed: the store opens without it (engine.store)."""


class LayoutFailed(MemtuiError):
    """A third party's layout failed in an operation: refused, with its error named."""


def broken() -> dict[str, str]:
    """The layouts skipped so far in this process, by name: why each was."""
    return dict(_broken)


def is_broken(name: str) -> bool:
    """Whether the layout is skipped (cheap: asked on every registry lookup)."""
    return name in _broken


def skip(name: str, why: str) -> None:
    """Name a layout as skipped from now on (the first reason is kept)."""
    _broken.setdefault(name, why)


def newly_broken() -> list[str]:
    """Why each layout skipped since the last call was: what a face warns of, once a run."""
    fresh = [name for name in _broken if name not in _said]
    _said.update(fresh)
    return [_broken[name] for name in fresh]


def failed(name: str, where: str, doing: str, exc: BaseException) -> str:
    """The words of a layout's failure: which, where from, doing what, and the error."""
    return f"layout {name!r} ({where}) failed in {doing}(): {type(exc).__name__}: {exc}"


# What a third party's member gives when it raises: its layout is skipped from then on
# (detect answers False), and the store goes on without it. None: the call raises
# LayoutSkipped (parse) or LayoutFailed (an operation) instead.
FALLBACK: dict[str, Callable[[], Any]] = {
    "detect": lambda: False,
    "folders": list,
    "locks": lambda: [LOCK_NAME],
    "is_memory": lambda: False,
    "queued": list,
    "knows": lambda: False,
    "file_of": lambda: None,
    "outline": list,
    "context": list,
    "statements": list,
    "demo": dict,
}
RAISES: dict[str, type[MemtuiError]] = {
    "parse": LayoutSkipped,
    "edit": LayoutFailed,
    "archive": LayoutFailed,
    "restore": LayoutFailed,
}


def guarded(made: Any, where: str) -> Any:
    """`made` (a third party's Detection or Layout) with each member above wrapped: an
    exception it raises names the layout in broken() instead of reaching the user.
    The wrappers are the instance's own attributes: isinstance still holds."""
    if os.environ.get("MEMTUI_DEBUG"):
        return made
    name = made.name
    for member, fallback in FALLBACK.items():
        if hasattr(made, member):  # a Detection has no parse, knows, outline, ...
            setattr(made, member, _answer(name, where, member, getattr(made, member), fallback))
    for member, error in RAISES.items():
        if hasattr(made, member):
            setattr(made, member, _raise(name, where, member, getattr(made, member), error))
    if hasattr(made, "entries"):
        made.entries = _entries(name, where, made.entries)
    return made


def _answer(name: str, where: str, member: str, call: Any, fallback: Callable[[], Any]) -> Any:
    @functools.wraps(call)
    def answer(*args: Any, **kwargs: Any) -> Any:
        if name in _broken:
            return fallback()
        try:
            return call(*args, **kwargs)
        except Exception as exc:
            if not (member == "demo" and isinstance(exc, NotImplementedError)):
                skip(name, failed(name, where, member, exc) + "; skipped")
            return fallback()  # a layout that brings no demo (NotImplementedError): none

    return answer


def _raise(name: str, where: str, member: str, call: Any, error: type[MemtuiError]) -> Any:
    @functools.wraps(call)
    def run(*args: Any, **kwargs: Any) -> Any:
        if name in _broken:
            raise error(_broken[name])
        try:
            return call(*args, **kwargs)
        except MemtuiError:
            raise  # its own refusal, said as it is
        except Exception as exc:
            why = failed(name, where, member, exc)
            if error is LayoutSkipped:
                skip(name, f"{why}; skipped")
                raise error(f"{why}; skipped") from exc
            raise error(f"{why}; `memtui log` lists any change it made") from exc

    return run


def _entries(name: str, where: str, call: Any) -> Any:
    @functools.wraps(call)
    def entries(*args: Any, **kwargs: Any) -> Iterator[Any]:
        if name in _broken:
            return
        try:
            yield from call(*args, **kwargs)
        except Exception as exc:
            skip(name, failed(name, where, "entries", exc) + "; skipped")

    return entries
