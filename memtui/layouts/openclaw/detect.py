"""How an OpenClaw workspace (SPEC §3b) is recognised, without its parser: listing
and searching a store import only this (layouts.detectors())."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection, there
from memtui.engine.paths import LOCK_NAME
from memtui.layouts.openclaw import AUDIT_QUEUE

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memtui.engine.layouts.listing import Listing

AGENTS = "AGENTS.md"
MEMORY = "MEMORY.md"


def detect(top: Listing) -> bool:
    """AGENTS.md with SOUL.md, USER.md, MEMORY.md or memory/ (SPEC §3b). An AGENTS.md
    that is no regular file (a FIFO, a folder) still counts: reported unreadable."""
    root = set(top.root_files)
    found = there(top, AGENTS)
    return found and (bool(root & {"SOUL.md", "USER.md", MEMORY}) or "memory" in top.dirs)


class OpenClawDetection(Detection):
    name = "openclaw"
    looks_for = "AGENTS.md with SOUL.md, USER.md, MEMORY.md or memory/ (openclaw)"
    title = "an OpenClaw workspace"
    full = "memtui.layouts.openclaw.layout:OpenClaw"
    order = 60
    keeps_queue = True
    looked_in = "~/.openclaw/workspace"

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        return [os.path.join(home, ".openclaw", "workspace")]

    def detect(self, top: Listing) -> bool:
        return detect(top)

    def locks(self, rel: str) -> list[str]:
        return [LOCK_NAME]  # OpenClaw takes none; memtui's own keeps memtui's changes apart

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """memory/ is listed flat for every layout; the audit queue lives below it."""
        audit_dir = os.path.dirname(AUDIT_QUEUE)
        return [(audit_dir, False)] if os.path.isdir(os.path.join(top.root, audit_dir)) else []

    def queued(self, root: str, names: list[str]) -> list[tuple[str, str]]:
        """(name, full id) of each of `names` that is a pending suggestion's id (the
        audit log is parsed only when one of them is in it)."""
        from memtui.engine.config import thresholds_at
        from memtui.engine.rawfile import read_bytes

        raw = read_bytes(os.path.join(root, AUDIT_QUEUE), thresholds_at(root).max_file_bytes)
        if isinstance(raw, str) or not any(n.encode("utf-8", "replace") in raw for n in names):
            return []
        from memtui.layouts.openclaw import audit

        found = audit.read(raw.decode("utf-8", "replace"))
        pending = {s.id for s in found if s.status == "pending"}
        return [(n, f"{audit.KIND}:{n}") for n in names if n in pending]
