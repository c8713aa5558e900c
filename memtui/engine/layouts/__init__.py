"""The registry of layouts: every `memtui.layouts` entry point, read as importlib.metadata
reads them (engine/layouts/entry_points.py).

A layout is one package (memtui/layouts/<name>/ for the built-ins, registered in
pyproject.toml the same way a third party registers its own). Its entry point names
its detection class, in a light module: listing or searching a store imports that
only; the detection's `full` names the whole `Layout`, imported when a store holding
it is parsed. A layout that cannot be loaded is named in `broken()` and skipped: the
others still open. A third party's members are guarded besides (layouts.guard): one
that raises skips its layout the same way; memtui's own are held to their tests.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.guard import broken, guarded, is_broken, newly_broken, skip

if TYPE_CHECKING:
    from memtui.engine.layouts.base import Detection, Layout
    from memtui.engine.layouts.entry_points import EntryPoint

__all__ = [
    "bare_kind",
    "broken",
    "builtin",
    "detectors",
    "for_kind",
    "layout",
    "loaded",
    "names",
    "newly_broken",
    "registry",
]

GROUP = "memtui.layouts"
BUILTIN = "memtui"  # the distribution whose layout wins a name registered twice


@cache
def _entry_points() -> tuple[EntryPoint, ...]:
    """The group's entry points, read once a process (engine/layouts/entry_points.py:
    a listing of each sys.path folder); importing none of them."""
    from memtui.engine.layouts.entry_points import entry_points

    found = sorted(entry_points(GROUP), key=lambda ep: (ep.dist != BUILTIN, ep.name))
    unique: dict[str, EntryPoint] = {}
    for ep in found:  # a name registered twice: memtui's own wins, the other is named
        if ep.name in unique:
            skip(
                f"{ep.name} ({ep.dist or ep.value})",
                f"layout {ep.name!r} ({ep.value}, from {ep.dist or 'an unnamed package'}) "
                f"is skipped: {unique[ep.name].dist or unique[ep.name].value} registers "
                "a layout of that name",
            )
        else:
            unique[ep.name] = ep
    if not any(ep.dist == BUILTIN for ep in found):
        skip(
            BUILTIN,
            f"memtui's own layouts are not registered (no {GROUP} entry points of the "
            "memtui package): install memtui (`pip install -e .` in a checkout) to use them",
        )
    return tuple(unique.values())


@cache
def builtin(name: str) -> bool:
    """Whether the layout comes with memtui (held to its tests, not guarded at run time)."""
    return any(ep.name == name and ep.dist == BUILTIN for ep in _entry_points())


def names() -> tuple[str, ...]:
    """Every layout's name, in detection order (the CLI's --layout)."""
    return tuple(detectors())


@cache
def detectors() -> dict[str, Detection]:
    """Every layout's detection alone, by name, in detection order: what listing and
    searching a store need, without a parser's import."""
    found: dict[str, Detection] = {}
    for ep in _entry_points():
        try:
            made = _checked_detection(ep.name, ep.load()())
        except Exception as exc:  # a broken package: named and skipped, the others load
            skip(ep.name, f"layout {ep.name!r} ({ep.value}) could not be loaded: {_said(exc)}")
            continue
        found[ep.name] = made if builtin(ep.name) else guarded(made, ep.value)
    return dict(sorted(found.items(), key=lambda kv: kv[1].order))


def _checked_detection(name: str, made: object) -> Detection:
    from memtui.engine.layouts.base import Detection

    if not isinstance(made, Detection) or made.name != name:
        raise TypeError(f"it is no memtui Detection named {name!r}")
    if not isinstance(made.full, str) or ":" not in made.full:
        raise TypeError(f"its full ({made.full!r}) names no 'module:Class' of its Layout")
    if isinstance(made.order, bool) or not isinstance(made.order, (int, float)):
        raise TypeError(f"its order ({made.order!r}) is not a number")
    return made


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}; skipped"


@cache
def _layout(name: str) -> Layout | None:
    from memtui.engine.layouts.base import Layout

    detection = detectors().get(name)
    if detection is None:
        return None
    module, _, cls = detection.full.partition(":")
    try:
        made = getattr(import_module(module), cls)()
        if not isinstance(made, Layout) or not isinstance(made, type(detection)):
            raise TypeError(f"{detection.full} is no Layout subclassing its detection")
        if not all(isinstance(kind, str) and kind for kind in made.kinds):
            raise TypeError(f"its kinds ({made.kinds!r}) are not entry-id prefixes")
    except Exception as exc:
        skip(name, f"layout {name!r} ({detection.full}) could not be loaded: {_said(exc)}")
        return None
    return made if builtin(name) else guarded(made, detection.full)


def loaded(name: str) -> Layout | None:
    """One layout, or None when it could not be loaded or has failed since (broken())."""
    return None if is_broken(name) else _layout(name)


def layout(name: str) -> Layout:
    """One layout, importing its own modules only: a store's open parses the layouts
    its detection finds, and the others' parsers wait. A third party's that failed
    since a snapshot was made is still given (the snapshot holds its data): its
    guarded members answer nothing more. KeyError: it never loaded."""
    made = _layout(name)
    if made is None:
        raise KeyError(name)
    return made


def registry() -> dict[str, Layout]:
    """Every layout that loads, by name, in detection order (each imported when first
    asked for); the very objects layout() gives. One that failed since it loaded is
    still here (a snapshot may hold its data), its guarded members answering nothing."""
    return {name: made for name in detectors() if (made := _layout(name)) is not None}


def for_kind(kind: str) -> Layout | None:
    """The layout that owns entry ids of `kind` (Layout.kinds)."""
    return next((lay for lay in registry().values() if kind in lay.kinds), None)


_merged: dict[str, tuple[object, dict[str, Any]]] = {}


def merged(member: str) -> dict[str, Any]:
    """Every detection's declared table `member` (`thresholds`, `log_ids`) in one, in
    detection order (a key two declare keeps the first); made again only when the
    registry is read again."""
    found = detectors()
    got = _merged.get(member)
    if got is None or got[0] is not found:
        out: dict[str, Any] = {}
        for det in found.values():
            for key, value in getattr(det, member).items():
                out.setdefault(key, value)
        got = _merged[member] = (found, out)
    return got[1]


def bare_kind(ref: str) -> str:
    """The kind an id without one means (SPEC §6): the first layout, in detection order,
    that claims it says (Detection.bare_kind); "" when none does."""
    for det in detectors().values():
        kind = det.bare_kind(ref)
        if kind:
            return kind
    return ""
