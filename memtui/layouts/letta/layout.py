"""Letta Code's MemFS (SPEC §3b "More agents"): an agent's memory as a git repository
of Markdown files with front matter (`~/.letta/agents/<id>/memory`).

What the agent is given, every turn, is compiled from the committed HEAD, not the
working tree: letta-ai/letta-code `src/backend/local/system-prompt-compilation.ts`
(collectCommittedMemoryFiles, renderMemfsProjection) reads `git ls-tree -r HEAD`'s
`.md` files through `git show`, strips their front matter (`src/utils/frontmatter.ts`),
puts `system/persona.md` in `<self>`, every other `system/**/*.md` in `<memory>` as a
tag tree, and every other file but `skills/` by path only. memtui shows exactly that
(compile.py), each file's lines as its own piece, and says which files have changes
not committed yet, which the agent does not see. Its history is the git log (`show
--json` gives a file's commits). memtui commits what it changes (ops.py); the
pre-commit hook letta-code installs (`src/agent/memory-git-hooks.ts`) is respected.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import OpsModule
from memtui.engine.model import ContextFile, Entry, OutlineItem
from memtui.engine.words import clauses
from memtui.i18n import N_, Msg, msg
from memtui.layouts.letta import rules
from memtui.layouts.letta.detect import LettaDetection
from memtui.layouts.letta.parse import KIND, is_memory

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.layouts.letta.parse import LettaData

PARTS = {
    "self": N_("<self>: the agent's persona, every turn"),
    "memory": N_("a memory block in <memory>, every turn"),
    "external": N_("external memory: only its path, in <external_projection>; read on demand"),
}


class Letta(LettaDetection, OpsModule, Layout):
    ops = "memtui.layouts.letta.ops"
    edit_options = ("expect", "dry_run", "seen_text", "insist")
    kinds = (KIND,)
    codes = rules.CODES
    archived_to = msg("out of system/ to archive/system/ (committed): out of the prompt")
    restored_from = msg("from archive/ back to system/ (committed)")

    def parse(self, reader: StoreReader, top: Listing) -> LettaData:
        from memtui.layouts.letta.findings import check
        from memtui.layouts.letta.parse import parse

        data = parse(reader, top)
        check(reader, data)
        return data

    def knows(self, rel: str) -> bool:
        return is_memory(rel)

    def file_of(self, kind: str, name: str) -> str | None:
        return name.partition("@")[0] or None

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.letta.demo import build_letta

        return build_letta(sink, rng, size, today)

    # --- entries, outline, context ---------------------------------------------

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for f in data.files:
            if f.tf is None:
                continue  # unreadable: a `file:` entry, which says why
            title = f"{f.rel} · {f.description}" if titles and f.description else f.rel
            yield Entry(f"{KIND}:{f.rel}", KIND, self.name, title, f.rel)

    def summary(self, data: Any) -> list[str]:
        blocks = [f for f in data.files if f.part in ("self", "memory")]
        said = [f"{len(blocks):,} block{'s' if len(blocks) != 1 else ''} in system/"]
        said += [f"{len(data.files) - len(blocks):,} other files"]
        said += [f"HEAD {data.head[:7]}" if data.head else "no commit"]
        said += [f"{len(data.changed):,} uncommitted"] if data.changed else []
        return [", ".join(said)]

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.letta.outline import outline

        return outline(store, data)

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        """The agent's memory text from HEAD, one piece a file, in its order (the pieces
        joined by "\\n" are the agent's text); then what it does not load yet."""
        head = f"HEAD {data.head[:7]}" if data.head else ""
        if not data.repo:
            head = msg("the working tree: no git repository of its own")
        out = []
        for p in data.pieces:
            note = msg("{part} (from {head})", part=Msg(PARTS[p.part]), head=head)
            if p.rel in data.changed:
                said = msg("its working copy has uncommitted changes: the agent gets this text")
                note = clauses([note, said])
            lines = p.text.count("\n") + 1
            out.append(
                ContextFile(p.rel, p.text, None, lines, note, unreadable=_working(store, p.rel))
            )
        loaded = {p.rel for p in data.pieces}
        why = data.git_error or (
            msg("no commit yet: the agent loads nothing")
            if not data.head
            else msg("not committed: the agent loads it once it is")
        )
        quoted = msg("git quotes its name in `ls-tree`, so Letta Code's compilation skips it")
        for f in data.files:
            if f.rel in loaded or f.part not in ("self", "memory"):
                continue
            said = quoted if f.rel in data.unloaded else why
            unread = data.git_error or _working(store, f.rel)
            out.append(ContextFile(f.rel, "", None, 0, f"not loaded: {said}", unreadable=unread))
        return out

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """The file's git history (newest first) and whether it is committed."""
        from memtui.layouts.letta import git

        try:
            log = [c.to_json() for c in git.log(store.root, entry.file)]
        except git.GitError as exc:
            return {"git": {"error": str(exc)}}
        state = data.changed.get(entry.file)
        return {"git": {"head": data.head, "uncommitted": state, "log": log}}

    def file_history(self, root: str, rel: str) -> list[dict[str, str]]:
        """The file's git log: what the agent (and memtui) committed of it."""
        from memtui.layouts.letta import git
        from memtui.layouts.letta.place import has_repo

        if not has_repo(root):
            return []
        try:
            found = git.log(root, rel)
        except git.GitError:
            return []
        return [{"version": c.sha[:12], "time": c.when, "who": c.author, "what": c.subject}
                for c in found]  # fmt: skip

    # --- ops ---------------------------------------------------------------------

    def read_only(self, root: str, rel: str) -> str | None:
        from memtui.layouts.letta.ops import read_only

        return read_only(root, rel)


def _working(store: Store, rel: str) -> str | None:
    """Why the working copy cannot be read (then said, though the agent reads HEAD's).
    Of a hidden path (`.letta/notes.md`, committed: the agent lists it) memtui reads no
    working copy, and says nothing."""
    if not is_memory(rel):
        return None
    why = store.unreadable.get(rel)
    if why is not None:
        return msg(
            "the working copy is {why}; the agent still loads the committed version", why=why
        )
    if rel not in store.files:
        return msg("deleted in the working tree, not committed; the agent still loads it")
    return None
