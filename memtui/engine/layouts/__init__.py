"""One plugin per memory layout (SPEC §1-§3b), and the registry of them.

A layout is one `Layout` object (layouts.base): it detects itself (its light
`*_detect` module, all that listing or searching a store imports), parses
through a `StoreReader`, names its entries, outlines them, says what its agent
loads, and archives or restores its own entries. Adding a layout is its modules
here and one line in `registry()` and in `detectors()`.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memtui.engine.layouts.base import Detection, Layout


# Their names, in detection order, for what needs no parser (the CLI's --layout choices).
NAMES = ("workspace", "companion", "dsh", "claude", "hermes", "openclaw")


# Where each layout's class is: imported only when that layout is asked for.
_CLASSES = {
    "workspace": ("memtui.engine.layouts.seeds", "Workspace"),
    "companion": ("memtui.engine.layouts.seeds", "Companion"),
    "dsh": ("memtui.engine.layouts.seeds", "Dsh"),
    "claude": ("memtui.engine.layouts.claude", "Claude"),
    "hermes": ("memtui.engine.layouts.hermes", "Hermes"),
    "openclaw": ("memtui.engine.layouts.openclaw", "OpenClaw"),
}


@cache
def layout(name: str) -> Layout:
    """One layout, importing its own modules only: a store's open parses the layouts
    its detectors() find, and the others' parsers (a third of open's imports) wait."""
    module, cls = _CLASSES[name]
    made: Layout = getattr(import_module(module), cls)()
    return made


@cache
def registry() -> dict[str, Layout]:
    """Every layout by name, in detection order (imported when first asked for, so the
    parser modules can be imported on their own); the very objects layout() gives."""
    found = [layout(name) for name in NAMES]
    assert tuple(lay.name for lay in found) == NAMES == tuple(_CLASSES)
    # a layout detects exactly as its detection alone does (what listing uses)
    assert all(isinstance(lay, type(detectors()[lay.name])) for lay in found)
    return {layout.name: layout for layout in found}


@cache
def detectors() -> dict[str, Detection]:
    """Every layout's detection alone, by name, in detection order: what listing and
    searching a store need, without a parser's import. Each Layout object is its
    detection's subclass, so both detect alike."""
    from memtui.engine.layouts.claude_detect import ClaudeDetection
    from memtui.engine.layouts.hermes_detect import HermesDetection
    from memtui.engine.layouts.openclaw_detect import OpenClawDetection
    from memtui.engine.layouts.seeds_detect import (
        CompanionDetection,
        DshDetection,
        WorkspaceDetection,
    )

    found: list[Detection] = [
        WorkspaceDetection(),
        CompanionDetection(),
        DshDetection(),
        ClaudeDetection(),
        HermesDetection(),
        OpenClawDetection(),
    ]
    return {d.name: d for d in found}


def for_kind(kind: str) -> Layout | None:
    """The layout that owns entry ids of `kind` (`topic`, `event`, `claude`, ...)."""
    return next((lay for lay in registry().values() if kind in lay.kinds), None)


def bare_kind(ref: str) -> str:
    """The kind an id without one means (SPEC §6): a Claude memory by its file name
    (`feedback_testing.md`), else a dsh candidate by its id."""
    return "claude" if ref.partition("@")[0].strip().endswith(".md") else "pending"
