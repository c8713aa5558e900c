"""How the workspace layout (SPEC §1) is recognised, without its parser: listing and
searching a store import only this."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection, there
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

WORKSPACE_INDEX = "memory.md"
COMPANIONS = ("soul.md", "user.md", "agent.md")
TOPIC_LIKE = re.compile(r"memory[_\-].*\.md", re.IGNORECASE)
# beside an index.txt (a dsh store in the same root), this is dsh's L0, not a topic
DSH_L0 = "memory_management_sop.md"
DSH_INDEX = "index.txt"
ARCHIVE = "archive/"  # where the workspace archives a topic file (ops.py)


def topic_files(root_files: list[str] | tuple[str, ...]) -> list[str]:
    skip = {WORKSPACE_INDEX, DSH_L0} if DSH_INDEX in root_files else {WORKSPACE_INDEX}
    return [f for f in root_files if f not in skip and TOPIC_LIKE.fullmatch(f)]


class WorkspaceDetection(Detection):
    name = "workspace"
    looks_for = N_("memory.md beside soul.md, user.md, agent.md or a memory_<name>.md (workspace)")
    title = msg("memory.md and its topic files")
    full = "memtui.layouts.workspace.layout:Workspace"
    commands_at = "memtui.layouts.workspace.commands:COMMANDS"
    order = 10
    peeks = ("archive",)  # archived topics keep a store whose last topic was archived
    thresholds = {  # SPEC §1
        "index_warn_lines": 150,  # memory.md: warning from here
        "index_block_lines": 180,  # memory.md: error (blocked) from here
        "agent_max_bytes": 8192,  # agent.md is injected into every prompt
    }

    def detect(self, top: Listing) -> bool:
        root_files = top.root_files
        if not there(top, WORKSPACE_INDEX):
            return False
        if any(f in COMPANIONS for f in root_files) or topic_files(root_files):
            return True
        # its topics all archived (archive/memory_<name>.md): still the store memtui wrote
        return any(_archived_topic(f) for f in top.files if f.startswith(ARCHIVE))


def _archived_topic(rel: str) -> bool:
    return "/" not in rel[len(ARCHIVE) :] and bool(TOPIC_LIKE.fullmatch(rel[len(ARCHIVE) :]))
