"""The registry of layouts: every `memtui.layouts` entry point, read as importlib.metadata
reads them (engine/layouts/entry_points.py).

A layout is one package (memtui/layouts/<name>/ for the built-ins, registered in
pyproject.toml the same way a third party registers its own). Its entry point names
its detection class, in a light module: listing or searching a store imports that
only; the detection's `full` names the whole `Layout`, imported when a store holding
it is parsed. A layout that cannot be loaded is named in `broken()` and skipped: the
others still open.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memtui.engine.layouts.base import Detection, Layout
    from memtui.engine.layouts.entry_points import EntryPoint

GROUP = "memtui.layouts"
BUILTIN = "memtui"  # the distribution whose layout wins a name registered twice

_broken: dict[str, str] = {}  # entry-point name -> why it was skipped


@cache
def _entry_points() -> tuple[EntryPoint, ...]:
    from memtui.engine.layouts.entry_points import entry_points

    found = sorted(entry_points(GROUP), key=lambda ep: (ep.dist != BUILTIN, ep.name))
    seen: set[str] = set()
    unique = []
    for ep in found:  # a name registered twice: memtui's own wins
        if ep.name not in seen:
            seen.add(ep.name)
            unique.append(ep)
    return tuple(unique)


def names() -> tuple[str, ...]:
    """Every layout's name, in detection order (the CLI's --layout)."""
    return tuple(detectors())


def broken() -> dict[str, str]:
    """The layouts skipped so far, by name: why each could not be loaded."""
    return dict(_broken)


def _skip(name: str, what: str, exc: BaseException) -> None:
    _broken[name] = f"layout {name!r} ({what}) could not be loaded: {type(exc).__name__}: {exc}"


@cache
def detectors() -> dict[str, Detection]:
    """Every layout's detection alone, by name, in detection order: what listing and
    searching a store need, without a parser's import."""
    from memtui.engine.layouts.base import Detection

    found: dict[str, Detection] = {}
    for ep in _entry_points():
        try:
            made = ep.load()()
            if not isinstance(made, Detection) or made.name != ep.name or not made.full:
                raise TypeError(f"{ep.value} is no Detection named {ep.name!r} with a full layout")
        except Exception as exc:  # a third party's package: named and skipped
            _skip(ep.name, ep.value, exc)
            continue
        found[ep.name] = made
    return dict(sorted(found.items(), key=lambda kv: kv[1].order))


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
    except Exception as exc:
        _skip(name, detection.full, exc)
        return None
    return made


def layout(name: str) -> Layout:
    """One layout, importing its own modules only: a store's open parses the layouts
    its detection finds, and the others' parsers wait."""
    made = _layout(name)
    if made is None:
        raise KeyError(name)
    return made


def registry() -> dict[str, Layout]:
    """Every layout that loads, by name, in detection order (each imported when first
    asked for); the very objects layout() gives."""
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
