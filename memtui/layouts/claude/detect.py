"""How a Claude Code memory folder (SPEC §3b) is recognised, without its parser:
listing and searching a store import only this (layouts.detectors()). The front
matter reader is imported only when a memory's front matter must be read."""

from __future__ import annotations

import os
import re
import stat
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import LAYOUT_DIRS, LOCK_NAME
from memtui.i18n import N_, msg
from memtui.layouts.companion.detect import EVENTS as COMPANION_EVENTS
from memtui.layouts.companion.detect import MOOD, PERSONA
from memtui.layouts.openclaw.detect import detect as openclaw_workspace

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memtui.engine.layouts.listing import Listing

INDEX = "MEMORY.md"
ARCHIVE = ".archive"  # hidden, and every name in it ends .archived: recall skips it
ARCHIVE_LINES = "index-lines.jsonl"  # the MEMORY.md lines of archived memories
RECALL_LINES = 30  # FRONTMATTER_MAX_LINES: what recall reads of each memory
TYPES = ("user", "feedback", "project", "reference")
# `- [Title](file.md) — hook`: a Markdown link to a .md file, anywhere on the line.
# A Codex memories folder ($CODEX_HOME/memories) has its own MEMORY.md beside these.
CODEX_FILES = ("memory_summary.md", "raw_memories.md")
CODEX_DIR = "rollout_summaries"
LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)<>\s]+?\.md)>?(?:\s+\"[^\"]*\")?\s*\)")


class ClaudeDetection(Detection):
    name = "claude"
    looks_for = N_("MEMORY.md linking to .md memories, or .md memories with a type: (claude)")
    title = msg("a Claude Code memory folder")
    full = "memtui.layouts.claude.layout:Claude"
    commands_at = "memtui.layouts.claude.commands:COMMANDS"
    order = 40
    looked_in = "~/.claude/projects/*/memory, autoMemoryDirectory, CLAUDE_MEMORY_STORES"
    log_ids = {"memory": "claude:"}  # its verbs' audit key for the memory acted on

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        """Each project's folder, the one `autoMemoryDirectory` moves it to, and the
        team memory stores (places.py reads the settings as Claude does)."""
        from memtui.layouts.claude.places import memory_places

        return memory_places(home, env)

    def bare_kind(self, ref: str) -> str | None:
        """A memory by its file name (`feedback_testing.md`)."""
        return "claude" if ref.partition("@")[0].strip().endswith(".md") else None

    def detect(self, top: Listing) -> bool:
        if COMPANION_EVENTS in top.files or openclaw_workspace(top):
            return False  # that MEMORY.md is the companion's (beside its events), or OpenClaw's
        if any(f in top.root_files for f in CODEX_FILES) or _is_dir(top.root, CODEX_DIR):
            return False  # that MEMORY.md is Codex's (SPEC §3b "More agents": codex)
        if INDEX in top.root_files:
            head = _head(top.root, INDEX, 64 * 1024)
            if _pointers(head) or (_alone(top) and _index_shaped(head)):
                return True
        typed = (f for f in top.root_files if f.endswith(".md") and f != INDEX)
        return any(_typed(_head(top.root, f, 4096)) for f in list(typed)[:50]) or _kept(top)

    def locks(self, rel: str) -> list[str]:
        return [LOCK_NAME]  # Claude takes none; memtui's own keeps memtui's changes apart

    def held(self, root: str, rel: str) -> str | None:
        """Auto-dream's lock (services/autoDream/consolidationLock.ts, 2.1.332): while
        `.consolidate-lock` was touched less than an hour ago and names a live pid,
        Claude Code is rewriting this folder. A stale one (older, or its pid gone) is
        no obstacle, and memtui never deletes it: its mtime is Claude's last run."""
        pid = dream_holder(root)
        if pid is None:
            return None
        return (
            f"Claude Code's auto-dream is consolidating this folder (pid {pid}, "
            f"{DREAM_LOCK}); try again when it ends"
        )

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """Recall reads every subfolder: so does memtui (its own hidden ones aside)."""
        shared = {name for name, _ in LAYOUT_DIRS}
        try:
            names = sorted(os.listdir(top.root))
        except OSError:
            return []
        found = [(n, True) for n in names if n not in shared and not n.startswith(".")]
        found = [(n, r) for n, r in found if os.path.isdir(os.path.join(top.root, n))]
        if os.path.isdir(os.path.join(top.root, ARCHIVE)):
            found.append((ARCHIVE, True))
        return found


DREAM_LOCK = ".consolidate-lock"
DREAM_STALE_SECONDS = 3600  # HOLDER_STALE_MS: an older lock is stale, its pid alive or not


def dream_holder(root: str) -> int | None:
    """The live pid holding auto-dream's lock in `root`, or None. As Claude decides:
    the first line's number (parseInt), a pid over 1 that `kill(pid, 0)` reaches."""
    path = os.path.join(root, DREAM_LOCK)
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or time.time() - st.st_mtime >= DREAM_STALE_SECONDS:
        return None
    head = _head(root, DREAM_LOCK, 64)
    digits = re.match(r"[+-]?\d+", head.strip(" \t\r\n"))
    pid = int(digits.group()) if digits else 0
    if pid <= 1:
        return None
    try:
        os.kill(pid, 0)
    except (OSError, OverflowError):
        return None  # Claude's isProcessRunning: any error, EPERM included, is not running
    return pid


def _kept(top: Listing) -> bool:
    """A folder memtui archived memories from, or wrote its MEMORY.md in, stays Claude's
    once no memory is left (archiving the last one must not strand its restore, the log
    or undo): .archive/ holding what the archive writes, or .history/ holding a snapshot
    of the root's MEMORY.md (the other layouts that write one, the companion and
    OpenClaw, are told apart by their own files). A listing and a stat, no file read."""
    try:
        with os.scandir(os.path.join(top.root, ARCHIVE)) as found:
            if any(e.name.endswith(".md.archived") or e.name == ARCHIVE_LINES for e in found):
                return True
    except OSError:
        pass
    if INDEX not in top.root_files or any(m in top.files for m in (PERSONA, MOOD)):
        return False
    return os.path.isdir(os.path.join(top.root, ".history", INDEX))


# Files and folders of the other agents whose folders hold a MEMORY.md (or beside
# which one may lie): a MEMORY.md among them is theirs, not a Claude index.
FOREIGN_FILES = frozenset(
    ("AGENTS.md", "SOUL.md", "USER.md", "TOOLS.md", "IDENTITY.md", "HEARTBEAT.md",
     "BOOTSTRAP.md", "DREAMS.md", "GEMINI.md", "CLAUDE.md", "memory.md", "index.txt",
     "facts.md", *CODEX_FILES)
)  # fmt: skip
FOREIGN_DIRS = frozenset(
    ("memory", "memories", "memory-bank", "system", "sops", "pending", "rollout_summaries",
     "skills", ".git", ".dreams")
)  # fmt: skip
HEADING_OR_ITEM = re.compile(r"#{1,6}[ \t]+\S|[-*+][ \t]+\S")


def _is_dir(root: str, name: str) -> bool:
    return os.path.isdir(os.path.join(root, name))


def _alone(top: Listing) -> bool:
    """A folder of Markdown alone, with nothing of another agent's beside its MEMORY.md:
    Claude's memory folder holds `*.md` files and their subfolders only."""
    try:
        names = set(os.listdir(top.root))  # the listing names only the layout folders
    except OSError:
        return False
    if FOREIGN_FILES & names or FOREIGN_DIRS & names:
        return False
    return all(f.endswith(".md") for f in top.root_files if not f.startswith("."))


def _index_shaped(head: str) -> bool:
    """A MEMORY.md that holds content, not links (2 of 22 published Claude folders):
    its first line past any front matter is a heading or a list item, and it has no
    Hermes `§` separator line."""
    body = FRONT_MATTER.sub("", head.lstrip("\ufeff"), count=1)
    lines = [line.strip() for line in body.split("\n")]
    first = next((line for line in lines if line), "")
    return bool(HEADING_OR_ITEM.match(first)) and "§" not in lines


FRONT_MATTER = re.compile(r"---[ \t]*\r?\n[\s\S]*?\n---[ \t]*(?:\r?\n|$)")


def _pointers(text: str) -> bool:
    return any(m.group(2) for m in LINK.finditer(text))


def _head(root: str, rel: str, limit: int) -> str:
    """The first `limit` bytes of a root file, for detection (no link is followed)."""
    try:
        fd = os.open(os.path.join(root, rel), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        return os.read(fd, limit).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def _typed(head: str) -> bool:
    """Front matter in the first 30 lines with one of Claude's four types."""
    meta = recall_meta("\n".join(head.split("\n")[: RECALL_LINES + 1]))
    flat = meta.get("type") if meta is not None else None
    return meta is not None and (field(meta, "type") in TYPES or flat in TYPES)


NESTED = "metadata"  # current Claude Code writes `metadata: {node_type, type, ...}`


def field(meta: dict[str, Any], key: str) -> Any:
    """A memory's field as Claude Code 2.1.332's memory scan reads it (frontmatter
    normalizing: `metadata = {...top-level keys, ...metadata:}`, then a non-empty
    string or nothing): `name` and `description` from the top level only; any other
    key (`type`, `modified`) from under `metadata:` when it is set there, even to
    something unusable, else from the top level."""
    nested = meta.get(NESTED)
    if key not in ("name", "description") and isinstance(nested, dict) and key in nested:
        value = nested[key]
    else:
        value = meta.get(key)
    if isinstance(value, datetime):  # YAML read a timestamp: Claude keeps the text
        return value.isoformat()
    return value if isinstance(value, str) and value else None


def recall_meta(text: str) -> dict[str, Any] | None:
    """Front matter as recall sees it: it must close within the first 30 lines."""
    from memtui.engine import frontmatter

    try:
        split = frontmatter.split(text)
    except frontmatter.FrontMatterError:
        return None
    if split.yaml_text is None or split.body_line > RECALL_LINES:
        return None
    try:
        return frontmatter.load(split.yaml_text)
    except (frontmatter.FrontMatterError, ValueError, RecursionError):
        return _lenient(split.yaml_text)


FIELD = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*\r?")
CHILD = re.compile(r"[ \t]+([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*\r?")


def _lenient(yaml_text: str) -> dict[str, Any]:
    """Claude Code's own parser quotes what YAML would choke on (`description: a: b`
    is the text `a: b`): each `key: value` line as text, quotes taken off; the indented
    lines under an empty `key:`, and a one-line `{k: v, ...}`, as a mapping of such."""
    out: dict[str, Any] = {}
    parent = None  # an empty `key:` whose indented lines follow
    for line in yaml_text.split("\n"):
        top = FIELD.fullmatch(line)
        child = None if top or parent is None else CHILD.fullmatch(line)
        if top:
            key, value = top.groups()
            parent = key if not value and key not in out else None
            out.setdefault(key, _flow(value) or _unquoted(value))
        elif child and parent:
            inner = out[parent] if isinstance(out[parent], dict) else {}
            out[parent] = inner
            inner.setdefault(child.group(1), _unquoted(child.group(2)))
    return out


def _flow(value: str) -> dict[str, str] | None:
    if not (value.startswith("{") and value.endswith("}")):
        return None
    pairs = (pair.partition(":") for pair in value[1:-1].split(","))
    return {k.strip(): _unquoted(v.strip()) for k, sep, v in pairs if sep and k.strip()}


def _unquoted(value: str) -> str:
    quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""
    return value[1:-1] if quoted else value
