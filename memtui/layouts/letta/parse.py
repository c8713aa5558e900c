"""Reading a Letta Code memory repository: every `.md` file of its working tree (hidden
paths aside: `.git/`, memtui's `.history/`), each with its front matter; and, through
git, what the agent is given: the committed HEAD's files, compiled as letta-code does
(compile.py), and which files differ from HEAD (`git status`). Entry ids name a file
by its path in the repository: `letta:system/human.md`."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING

from memtui.engine.rawfile import never_shown, not_regular
from memtui.layouts.letta import git
from memtui.layouts.letta.compile import Piece, block, projection
from memtui.layouts.letta.place import has_repo
from memtui.layouts.letta.rules import (
    ARCHIVE,
    PERSONA,
    SKILLS,
    SYSTEM,
    description,
    limit_of,
    parse_frontmatter,
)

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.reader import StoreReader
    from memtui.engine.textfile import TextFile

KIND = "letta"
# memtui's own files in the repository, which git is told to ignore (ops.exclude).
OWN = (".history/", ".memory.lock")


def is_memory(rel: str) -> bool:
    """A file of the repository memtui reads as memory: a `.md` path, no part hidden."""
    return rel.endswith(".md") and not any(p.startswith(".") for p in rel.split("/"))


@dataclass(frozen=True, slots=True)
class MemFile:
    rel: str
    tf: TextFile | None  # None: unreadable (the reader said why)
    front: dict[str, str | list[str]] = field(default_factory=dict)
    body: str = ""

    @property
    def description(self) -> str:
        return description(self.front)

    @property
    def limit(self) -> int | None:
        return limit_of(self.front)

    @property
    def read_only(self) -> bool:
        return self.front.get("read_only") == "true"

    @property
    def part(self) -> str:
        """Where it is in the prompt: self, memory (a block), skill, archived, external."""
        if self.rel == PERSONA:
            return "self"
        if self.rel.startswith(SYSTEM):
            return "memory"
        if self.rel.startswith(SKILLS):
            return "skill"
        return "archived" if self.rel.startswith(ARCHIVE) else "external"


@dataclass(frozen=True, slots=True)
class LettaData:
    files: tuple[MemFile, ...]  # the working tree's, persona first, then by path
    head: str | None  # the committed HEAD, None: no commit (or git failed)
    pieces: tuple[Piece, ...]  # what the agent is given, from HEAD
    committed: dict[str, str]  # HEAD's text of each .md file the agent reads
    changed: dict[str, str]  # path -> `git status` code, for what differs from HEAD
    unloaded: tuple[str, ...]  # committed .md files whose name git quotes
    git_error: str | None = None
    repo: bool = True  # the root is a git repository of its own (detect.has_repo)

    def file(self, rel: str) -> MemFile | None:
        return next((f for f in self.files if f.rel == rel), None)


def parse(reader: StoreReader, top: Listing) -> LettaData:
    found = sorted({r for r in chain(top.files, top.others, reader.escaped) if is_memory(r)})
    found.sort(key=lambda r: (r != PERSONA, not r.startswith(SYSTEM), r))
    files = []
    for rel in found:
        tf = reader.read(rel)
        if tf is None:
            files.append(MemFile(rel, None))
            continue
        front, body = parse_frontmatter(tf.text)
        files.append(MemFile(rel, tf, front, body))
    _folders_named_md(reader)
    if not has_repo(reader.root):
        return _without_git(tuple(files))
    return _with_git(reader.root, tuple(files))


def _without_git(files: tuple[MemFile, ...]) -> LettaData:
    """No repository of its own: the files as the agent would compile them once they
    are its committed memory."""
    texts = {f.rel: f.tf.text for f in files if f.tf is not None}
    pieces = projection([block(rel, text) for rel, text in texts.items()])
    return LettaData(files, None, tuple(pieces), texts, {}, (), repo=False)


def _with_git(root: str, files: tuple[MemFile, ...]) -> LettaData:
    try:
        head = git.head(root)
        changed = {p: c for p, c in git.changed(root).items() if not p.startswith(OWN)}
        if head is None:
            return LettaData(files, None, (), {}, changed, ())
        paths = git.agent_paths(root)
        raw = git.blobs(root, paths)
        committed = {p: b.decode("utf-8", "replace") for p, b in raw.items()}
        pieces = projection([block(p, committed[p]) for p in paths if p in committed])
        quoted = [p for p in git.tracked(root) if p.endswith(".md") and p not in raw]
    except git.GitError as exc:
        return LettaData(files, None, (), {}, {}, (), str(exc))
    return LettaData(files, head, tuple(pieces), committed, changed, tuple(quoted))


def _folders_named_md(reader: StoreReader) -> None:
    """A folder named like a memory file (`notes.md/`) is said unreadable: the listing
    walks into it, and an empty one leaves no other trace."""
    for parent, names in _walk(reader.root):
        for name in names:
            rel = f"{parent}/{name}" if parent else name
            if rel in reader.unreadable:
                continue
            reader.unreadable[rel] = why = not_regular(stat.S_IFDIR)
            reader.findings.add("unreadable", rel, None, never_shown(rel, why))


def _walk(root: str) -> Iterator[tuple[str, list[str]]]:
    todo = [""]
    while todo:
        parent = todo.pop()
        try:
            with os.scandir(os.path.join(root, parent)) as entries:
                below = sorted(
                    e.name for e in entries if e.name[0] != "." and e.is_dir(follow_symlinks=False)
                )
        except OSError:
            continue
        todo += [f"{parent}/{n}" if parent else n for n in below if not n.endswith(".md")]
        yield parent, [n for n in below if n.endswith(".md")]
