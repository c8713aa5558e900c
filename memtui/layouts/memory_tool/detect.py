"""How a store of Anthropic's memory tool (`memory_20250818`, SPEC §3b "More agents") is
recognised, without its parser: listing and searching a store import only this.

The tool gives the model one directory, `/memories`; the application maps it to disk.
The Python SDK's own backend (anthropic-sdk-python
`src/anthropic/lib/tools/_beta_builtin_memory_tool.py`, BetaLocalFilesystemMemoryTool)
maps it to `<base_path>/memories` with `base_path="./memory"` by default. So a store is
either:
- the `/memories` folder itself (a folder named `memories`): ids name paths from it;
- the SDK's base folder holding `memories/` and nothing else (`./memory`): the same
  files below it (a project holding a `memories/` folder among others is not one).
Either way the folder must hold something the model can see (a non-hidden name) and
must not be another agent's folder of that name, told apart BY CONTENT:
- Hermes keeps `~/.hermes/memories/MEMORY.md` and `USER.md` (entries joined by
  `\\n§\\n`) in a home with `config.yaml`, `SOUL.md`, `pending/`
  (layouts.hermes.detect.hermes_shaped, which Hermes' own detection asks too);
- Codex keeps `~/.codex/memories/` with `memory_summary.md`, `raw_memories.md` and
  `rollout_summaries/` (SPEC §3b codex).
memtui's own files (the lock, `.history/`, the archive book) are hidden names: the
tool's `view` skips every name starting with "." (collect_items), so the model never
sees them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import is_inside
from memtui.i18n import N_, msg
from memtui.layouts.hermes.detect import bare_memories, hermes_home, hermes_shaped

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

NAME = "memory-tool"
MEMORIES = "memories"  # the folder /memories maps to; the SDK's default base holds it
VIRTUAL = "/memories"  # how the model names it
# Archived files, one JSON line each (layouts.memory_tool.ops): hidden, so `view` never
# lists it; at the store's root (inside /memories when the root is that folder).
BOOK = ".memory-tool-archive.jsonl"
# Codex's memories folder (openai/codex codex-rs/core/templates/memories/): not the tool's.
CODEX = frozenset(["memory_summary.md", "raw_memories.md", "rollout_summaries"])


def tool_dir(root: str) -> str | None:
    """Where /memories is from the root: "" (the root is it), "memories" (the root is
    the SDK's base folder), or None (no store of the tool here)."""
    sub = os.path.join(root, MEMORIES)
    if os.path.isdir(sub) and bare_memories(root):
        inside = is_inside(os.path.realpath(root), os.path.realpath(sub))
        if inside and _the_tools(sub, os.path.join(root, BOOK)):
            return MEMORIES
    if os.path.basename(os.path.abspath(root)) == MEMORIES and _the_tools(root, BOOK):
        parent = os.path.dirname(os.path.abspath(root))
        return None if hermes_home(parent) else ""
    return None


def _the_tools(folder: str, book: str) -> bool:
    """A folder the model would see something in (a name `view` lists), or whose files
    memtui archived, all of them (its book is there); neither Hermes' nor Codex's."""
    try:
        names = [n for n in os.listdir(folder) if not n.startswith(".")]
    except OSError:
        return False
    if not CODEX.isdisjoint(names) or (names and hermes_shaped(folder, names)):
        return False
    return bool(names) or os.path.isfile(os.path.join(folder, book))


def in_tool(top: str, rel: str) -> str | None:
    """`rel` (from the root) as a path from /memories when it is a file the model can
    reach there (hidden paths aside, as `view` leaves them), else None."""
    if top:
        if not rel.startswith(top + "/"):
            return None
        rel = rel[len(top) + 1 :]
    if not rel or any(part.startswith(".") for part in rel.split("/")):
        return None
    return rel


class MemoryToolDetection(Detection):
    name = NAME
    looks_for = N_("memories/ of the memory_20250818 tool, not Hermes' or Codex's (memory-tool)")
    title = msg("the /memories folder of Anthropic's memory tool")
    full = "memtui.layouts.memory_tool.layout:MemoryTool"
    order = 95
    dotfiles = (BOOK,)  # the archive book at the root: no other root dotfile is shown

    def detect(self, top: Listing) -> bool:
        return tool_dir(top.root) is not None

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """/memories, walked whole (its hidden folders aside, as the listing does)."""
        at = tool_dir(top.root)
        if at is None:
            return []
        return [(at, True)] if at else _below(top.root)


def _below(root: str) -> list[tuple[str, bool]]:
    """The root is /memories: each folder in it, walked whole (a shared layout folder
    listed again lists the same files: the listing keeps each once)."""
    try:
        with os.scandir(root) as entries:
            names = sorted(e.name for e in entries if e.name[0] != "." and _folder(e))
    except OSError:
        return []
    return [(name, True) for name in names]


def _folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False
