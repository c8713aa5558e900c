"""Codex's memory rules as memtui keeps them: the finding codes, which files Codex
rebuilds from its own state (and so refuses a change to), where each figure comes
from. Sources, openai/codex (rust-v0.160.0 and main):

- codex-rs/ext/memories/src/lib.rs, prompts.rs, templates/memories/read_path.md: only
  memory_summary.md is injected, cut to 2,500 tokens (layouts.codex.prompt);
- codex-rs/memories/write/src/storage.rs: before every consolidation (Phase 2)
  `rebuild_raw_memories_file_from_memories` rewrites raw_memories.md and
  `sync_rollout_summaries_from_memories` rewrites every rollout summary from the
  state DB's stage-1 outputs, deleting those no longer selected;
- codex-rs/memories/write/src/extensions/persistent.rs, prune.rs: an extension's
  resources/, manifest.json and instructions.md are synced from its source, and
  resources older than 7 days pruned (ad_hoc/instructions.md is seeded once, kept);
- codex-rs/memories/write/src/workspace.rs: phase2_workspace_diff.md is written before
  the consolidation agent runs and removed after; the folder is a git baseline, so
  a change the user makes to MEMORY.md, memory_summary.md or skills/ reaches the
  agent as a diff it must treat as authoritative;
- codex-rs/memories/write/templates/memories/consolidation.md: memory_summary.md "must
  start with the exact line `v1`; if it does not, rewrite the entire file".
"""

from __future__ import annotations

from memtui.engine.model import ERROR, WARNING
from memtui.i18n import N_, msg
from memtui.layouts.codex.detect import DIFF, EXTENSIONS, HANDBOOK, RAW, ROLLOUTS, SKILLS, SUMMARY

CODES: dict[str, tuple[str, str]] = {
    "summary-truncated": (
        ERROR,
        N_("memory_summary.md past the tokens Codex injects: its middle never reaches the model"),
    ),
    "rollout-missing": (WARNING, N_("MEMORY.md names a rollout summary that is not there")),
}
VERSION_LINE = "v1"
AD_HOC = "ad_hoc"  # the extension whose notes the model writes when asked to remember
RETENTION_DAYS = 7  # codex-rs/memories/write/src/lib.rs extension_resources::RETENTION_DAYS

STORAGE = "codex-rs/memories/write/src/storage.rs"


def rebuilt(rel: str) -> str | None:
    """Why Codex overwrites `rel` from its own state, so that a change to it is lost
    (None: Codex keeps a change made to it)."""
    if rel == RAW:
        return msg(
            "Codex rebuilds {file} from its state DB (the stage-1 outputs) at the start of "
            "every memory consolidation ({source}, rebuild_raw_memories_file_from_memories)",
            file=RAW,
            source=STORAGE,
        )
    if rel.startswith(f"{ROLLOUTS}/"):
        return msg(
            "Codex rewrites every file of {folder}/ from its state DB at the start of "
            "every memory consolidation and deletes those no longer selected ({source}, "
            "sync_rollout_summaries_from_memories)",
            folder=ROLLOUTS,
            source=STORAGE,
        )
    parts = rel.split("/")
    if parts[0] == EXTENSIONS and len(parts) >= 3 and _synced(parts[1], parts[2:]):
        return msg(
            "Codex syncs a memory extension's resources/, manifest.json and instructions.md "
            "from the extension's own source at the start of a consolidation, and prunes "
            "resources past {days} days "
            "(codex-rs/memories/write/src/extensions/persistent.rs, prune.rs)",
            days=RETENTION_DAYS,
        )
    if rel == DIFF:
        return msg(
            "Codex writes {file} before each memory consolidation and removes it after "
            "(codex-rs/memories/write/src/workspace.rs)",
            file=DIFF,
        )
    return None


def _synced(extension: str, rest: list[str]) -> bool:
    """A file Codex writes for a persistent extension: its resources and manifest, and
    its instructions.md (the ad-hoc notes' is seeded once and then kept: ad_hoc.rs)."""
    if rest[0] in ("resources", "manifest.json"):
        return True
    return rest == ["instructions.md"] and extension != AD_HOC


def kept_by(rel: str) -> str:
    """What Codex does with a file it keeps, in words (the outline, show --json)."""
    why = rebuilt(rel)
    if why is not None:
        return why + "; memtui does not change it"
    if rel in (SUMMARY, HANDBOOK) or rel.startswith(f"{SKILLS}/"):
        return (
            "written by Codex's memory consolidation (Phase 2), which edits it in place and "
            "reads a change you make as authoritative (the folder's git diff)"
        )
    return "read by Codex on demand; kept as it is"


def not_loaded(rel: str) -> str:
    """Why a file other than memory_summary.md is not in the session-start prompt, and
    when it is read (read_path.md; consolidation.md)."""
    first = "not loaded at session start"
    if rel == HANDBOOK:
        return f"{first}: the read-path prompt has the model search it on demand first"
    if rel.startswith((f"{ROLLOUTS}/", f"{SKILLS}/")):
        return f"{first}: the model opens it on demand, when MEMORY.md points to it"
    if rel == RAW or rel.startswith(f"{EXTENSIONS}/"):
        return f"{first}: an input of Codex's memory consolidation, which reads it"
    return f"{first}: read by Codex's memory consolidation agent only"
