"""How an OpenClaw workspace (SPEC §3b) is recognised, without its parser: listing
and searching a store import only this (layouts.detectors())."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import LOCK_NAME
from memtui.i18n import N_, msg
from memtui.layouts.openclaw import AUDIT_QUEUE

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memtui.engine.layouts.listing import Listing

AGENTS = "AGENTS.md"
MEMORY = "MEMORY.md"
# Names only an OpenClaw workspace keeps at its root (exact case: workspace.ts), of this
# release or an older one (TOOLS.md, HEARTBEAT.md: retired, still in many workspaces).
OWN = frozenset({"SOUL.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md", "BOOTSTRAP.md"})
SHARED = frozenset({"USER.md", MEMORY})  # Claude's, Hermes' and others' names too
LEGACY = "memory.md"  # root-memory-files.ts LEGACY_ROOT_MEMORY_FILENAME


def detect(top: Listing) -> bool:
    """AGENTS.md with memory/ or one more of the workspace's root files (SPEC §3b); or, without
    AGENTS.md, two of the workspace's root files, one of them a name only OpenClaw
    keeps (SOUL.md with TOOLS.md or MEMORY.md, ...): a Hermes home's lone SOUL.md, a
    Claude or companion MEMORY.md, or lower-case soul.md/user.md are not one. A file
    that is no regular file (a FIFO, a folder) still counts: reported unreadable."""
    root = set(top.root_files) | {o for o in top.others if "/" not in o}
    if AGENTS in root:
        return bool(root & (OWN | SHARED | {LEGACY})) or "memory" in top.dirs
    return bool(root & OWN) and len(root & (OWN | SHARED)) >= 2


class OpenClawDetection(Detection):
    name = "openclaw"
    looks_for = N_(
        "AGENTS.md with memory/, memory.md or one of SOUL.md, IDENTITY.md, TOOLS.md, "
        "HEARTBEAT.md, BOOTSTRAP.md, USER.md, MEMORY.md; or two of these, one not "
        "USER.md/MEMORY.md (openclaw)"
    )
    title = msg("an OpenClaw workspace")
    full = "memtui.layouts.openclaw.layout:OpenClaw"
    order = 60
    keeps_queue = True
    looked_in = "~/.openclaw/workspace"

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        """resolveDefaultAgentWorkspaceDir (workspace-default.ts): OPENCLAW_WORKSPACE_DIR,
        else <OPENCLAW_STATE_DIR>/workspace, else ~/.openclaw[-<profile>]/workspace;
        the default folder is always looked in too."""
        places = []
        workspace = env.get("OPENCLAW_WORKSPACE_DIR", "").strip()
        state = env.get("OPENCLAW_STATE_DIR", "").strip()
        profile = env.get("OPENCLAW_PROFILE", "").strip()
        if workspace:
            places.append(os.path.abspath(os.path.expanduser(workspace)))
        elif state:
            places.append(os.path.join(os.path.expanduser(state), "workspace"))
        elif profile and profile.lower() != "default":
            places.append(os.path.join(home, f".openclaw-{profile}", "workspace"))
        default = os.path.join(home, ".openclaw", "workspace")
        return [*places, default] if default not in places else places

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
