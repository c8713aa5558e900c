"""How the three seed layouts (SPEC §1-§3) are recognised, without their parsers:
listing and searching a store import only this (layouts.detectors())."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from memtui.engine.paths import LOCK_NAME

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

# workspace (SPEC §1)
WORKSPACE_INDEX = "memory.md"
COMPANIONS = ("soul.md", "user.md", "agent.md")
TOPIC_LIKE = re.compile(r"memory[_\-].*\.md", re.IGNORECASE)
DSH_L0 = "memory_management_sop.md"  # the dsh layout's meta-rules, not a topic
ARCHIVE = "archive/"  # where the workspace archives a topic file (ops/workspace.py)

# companion (SPEC §2); the mood files are model.Mood.FILE and Mood.AUX
EVENTS = "memory/events.md"
PERSONA = "memory/persona.md"
MOOD = "memory/mood_state.md"
MOOD_AUX = ".mood_state_aux"

# dsh (SPEC §3)
DSH_INDEX = "index.txt"
FACTS = "facts.md"


def topic_files(root_files: list[str] | tuple[str, ...]) -> list[str]:
    skip = {WORKSPACE_INDEX, DSH_L0} if DSH_INDEX in root_files else {WORKSPACE_INDEX}
    return [f for f in root_files if f not in skip and TOPIC_LIKE.fullmatch(f)]


def _there(top: Listing, rel: str) -> bool:
    """A file by that name is there, readable or not: a FIFO for index.txt is still the
    store's index, reported unreadable (the listing's `others`)."""
    return rel in top.files or rel in top.others


class SeedDetection:
    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        return []  # the shared layout folders (paths.LAYOUT_DIRS) are enough

    def locks(self, rel: str) -> list[str]:
        return [LOCK_NAME]  # the agents' own bash takes this one (SPEC §0)


class WorkspaceDetection(SeedDetection):
    name = "workspace"
    looks_for = "memory.md beside soul.md, user.md, agent.md or a memory_<name>.md (workspace)"

    def detect(self, top: Listing) -> bool:
        root_files = top.root_files
        if not _there(top, WORKSPACE_INDEX):
            return False
        if any(f in COMPANIONS for f in root_files) or topic_files(root_files):
            return True
        # its topics all archived (archive/memory_<name>.md): still the store memtui wrote
        return any(_archived_topic(f) for f in top.files if f.startswith(ARCHIVE))


def _archived_topic(rel: str) -> bool:
    return "/" not in rel[len(ARCHIVE) :] and bool(TOPIC_LIKE.fullmatch(rel[len(ARCHIVE) :]))


class CompanionDetection(SeedDetection):
    name = "companion"
    looks_for = "memory/events.md, memory/persona.md or memory/mood_state.md (companion)"
    dotfiles = (MOOD_AUX,)  # the one root dotfile that is memory (engine.home)

    def detect(self, top: Listing) -> bool:
        return any(_there(top, m) for m in (EVENTS, PERSONA, MOOD))


class DshDetection(SeedDetection):
    name = "dsh"
    looks_for = "index.txt beside facts.md, sops/ or pending/ (dsh)"

    def queued(self, root: str, names: list[str]) -> list[tuple[str, str]]:
        """(name, full id) of each of `names` that is a candidate's (engine.queue.full_ids)."""
        found = (n for n in names if os.path.lexists(os.path.join(root, "pending", f"{n}.md")))
        return [(n, f"pending:{n}") for n in found]

    def detect(self, top: Listing) -> bool:
        beside = _there(top, FACTS) or any(d in ("sops", "pending") for d in top.dirs)
        return _there(top, DSH_INDEX) and beside
