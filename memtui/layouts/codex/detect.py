"""How a Codex memories folder (SPEC §3b "More agents": codex) is recognised, without
its parser: listing and searching a store import only this (layouts.detectors()).

The store's root is the memories folder itself, `$CODEX_HOME/memories` (default
`~/.codex/memories`): what Codex calls the memory root (openai/codex
codex-rs/memories/write/src/lib.rs `memory_root`: `codex_home.join("memories")`) and
the `base_path` its read-path prompt names. Not CODEX_HOME: that holds auth.json,
sessions/ and config.toml beside the memory, and a Hermes home's `memories/MEMORY.md`
looks the same from there. Detected by the files only Codex writes there:
`memory_summary.md` (the consolidation's output, injected at session start),
`raw_memories.md` (rebuilt from Codex's state DB before each consolidation) or the
folder `rollout_summaries/` (codex-rs/memories/write/src/lib.rs `ensure_layout`
creates it first). A folder holding only `MEMORY.md` is no Codex store: that file
alone is Claude's, OpenClaw's or the companion's index as much as Codex's handbook.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection, there
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memtui.engine.layouts.listing import Listing

SUMMARY = "memory_summary.md"  # the one file injected at session start
HANDBOOK = "MEMORY.md"  # the consolidated handbook, searched on demand
RAW = "raw_memories.md"  # rebuilt from the state DB before every consolidation
ROLLOUTS = "rollout_summaries"  # one recap per rollout, rewritten from the state DB
SKILLS = "skills"  # skills/<name>/SKILL.md and its scripts/, templates/, examples/
EXTENSIONS = "extensions"  # extensions/<name>/instructions.md; ad_hoc/notes/*.md
DIFF = "phase2_workspace_diff.md"  # written before a consolidation, removed after
# Sections memtui archived out of MEMORY.md, one JSON line each with where it was
# (layouts.codex.ops): hidden, so Codex's memory tools never list it (local.rs skips
# hidden paths).
BOOK = ".memtui-archive.jsonl"
TOP_FILES = (SUMMARY, HANDBOOK, RAW, DIFF)
FOLDERS = (ROLLOUTS, SKILLS, EXTENSIONS)


def is_codex(root: str, top: Listing) -> bool:
    """Whether `root` is a Codex memories folder: memory_summary.md, raw_memories.md (a
    FIFO or folder in their place still counts: reported unreadable) or rollout_summaries/."""
    if there(top, SUMMARY) or there(top, RAW):
        return True
    return os.path.isdir(os.path.join(root, ROLLOUTS))


def knows(rel: str) -> bool:
    """A file of the memories folder Codex writes or reads (hidden paths aside, as
    Codex's memory tools leave them)."""
    if rel in TOP_FILES or rel == BOOK:
        return True
    folder, _, rest = rel.partition("/")
    if folder not in FOLDERS or not rest:
        return False
    return not any(part.startswith(".") for part in rest.split("/"))


# The budget the summary is cut to: codex-rs/ext/memories/src/lib.rs
# MEMORY_TOOL_DEVELOPER_INSTRUCTIONS_SUMMARY_TOKEN_LIMIT = 2_500 (builds before the
# memories extension, codex-rs/core/src/memories/phase_one: 5_000). No config.toml key
# sets it; memtui.toml can, for an older build.
THRESHOLDS: dict[str, int | float] = {"codex_summary_tokens": 2_500}


class CodexDetection(Detection):
    name = "codex"
    looks_for = N_("memory_summary.md, raw_memories.md or rollout_summaries/ (codex)")
    title = msg("a Codex memories folder")
    full = "memtui.layouts.codex.layout:Codex"
    order = 85
    dotfiles = (BOOK,)
    thresholds = THRESHOLDS
    looked_in = "$CODEX_HOME/memories (default ~/.codex/memories)"

    def detect(self, top: Listing) -> bool:
        return is_codex(top.root, top)

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """rollout_summaries/ is flat (one file a rollout); skills/ and extensions/ are
        walked whole."""
        return [(ROLLOUTS, False), (SKILLS, True), (EXTENSIONS, True)]

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        """$CODEX_HOME/memories, else ~/.codex/memories (codex-rs/utils/home-dir
        find_codex_home: CODEX_HOME when set, else ~/.codex)."""
        codex_home = env.get("CODEX_HOME") or os.path.join(home, ".codex")
        return [os.path.join(os.path.abspath(os.path.expanduser(codex_home)), "memories")]
