"""A layout that is found (`RAISING.md` at the root) and whose parse raises."""

from __future__ import annotations

from typing import Any

from memtui.engine.layouts.base import Detection, Layout, there


class RaisingDetection(Detection):
    name = "raising"
    looks_for = "RAISING.md (raising)"
    full = "memtui_broken.raising:Raising"

    def detect(self, top: Any) -> bool:
        return there(top, "RAISING.md")


class Raising(RaisingDetection, Layout):
    kinds = ("raising",)

    def parse(self, reader: Any, top: Any) -> Any:
        # A finding made before the failure: the store is read as if this layout were absent.
        reader.findings.add("raising-half", "RAISING.md", None, "found, then it failed", "error")
        raise ValueError("this parser always fails")
