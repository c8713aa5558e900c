"""Reading a Codex memories folder: memory_summary.md and its `## ` sections, MEMORY.md
and its `# Task Group:` blocks, raw_memories.md and its `## Thread` sections, each
rollout summary, each file of skills/ and extensions/, and the blocks memtui archived.
The sections are the ones Codex's consolidation prompt writes (openai/codex
codex-rs/memories/write/templates/memories/consolidation.md: "Each memory block MUST
start with: # Task Group: …"; memory_summary.md: `v1`, then `## User Profile`,
`## User preferences`, `## General Tips`, `## What's in Memory`) and the ones
storage.rs writes (raw_memories.md: "## Thread `<id>`").

Ids name a file from the root: `codex:MEMORY.md` for a file, `codex:MEMORY.md#Task
Group: deploys` for a block; a heading several blocks of one file share is named with
its place and fingerprint too (`…#2@3fa2c1d9e0b7`), so an action hits the block the
user saw or none (SPEC §6)."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

from memtui.engine import archive_records as records
from memtui.engine.markdown import Headed, numbered, sections
from memtui.engine.rawfile import never_shown, not_regular
from memtui.i18n import msg
from memtui.layouts.codex.detect import (
    BOOK,
    DIFF,
    EXTENSIONS,
    HANDBOOK,
    RAW,
    ROLLOUTS,
    SKILLS,
    SUMMARY,
    knows,
)

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.reader import StoreReader
    from memtui.engine.textfile import TextFile

KIND = "codex"
SECTION = ".md#"  # between a file and a section's heading, in an id
# The heading level each file's entries start at (0: the file is one entry).
LEVELS = {SUMMARY: 2, HANDBOOK: 1, RAW: 2}
# A rollout summary MEMORY.md names: `rollout_summaries/<file>.md`, as the
# consolidation prompt's `### rollout_summary_files` bullets write it.
ROLLOUT_REF = re.compile(r"(?<![\w.<-])" + ROLLOUTS + r"/([A-Za-z0-9][\w.:+-]*\.md)(?![\w/])")


Block = Headed  # a section as ids name it (heading, span, nth, count)
Archived = records.ArchivedSection  # a section in BOOK, which restores by its id


@dataclass(frozen=True, slots=True)
class CodexFile:
    rel: str
    tf: TextFile | None  # None: unreadable (the reader said why)
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class CodexData:
    files: tuple[CodexFile, ...]  # summary, handbook, raw, rollouts, skills, extensions
    rollout_refs: tuple[tuple[int, str], ...]  # (line in MEMORY.md, file named)
    archived: tuple[Archived, ...]

    def file(self, rel: str) -> CodexFile | None:
        return next((f for f in self.files if f.rel == rel), None)


def file_part(name: str) -> str:
    """The file an id's name (`MEMORY.md#Task Group: x`) is in."""
    cut_at = name.find(SECTION)
    return name if cut_at < 0 else name[: cut_at + 3]


def block_id(f: CodexFile, b: Block) -> str:
    """The block's id; with its place and fingerprint when its heading is shared."""
    base = f"{KIND}:{f.rel}#{b.heading}" + (f"#{b.nth}" if b.nth > 1 else "")
    if b.count == 1 or f.tf is None:
        return base
    from memtui.engine.identity import fingerprint  # listing ids needs it, a parse does not

    return f"{base}@{fingerprint(f.tf.text[b.span.char_start : b.span.char_stop])}"


def order(rel: str) -> tuple[int, str]:
    """Where a file comes: the summary, the handbook, the raw memories, then the
    rollout summaries, skills and extensions by path."""
    top = (SUMMARY, HANDBOOK, RAW, DIFF)
    if rel in top:
        return top.index(rel), ""
    folder = rel.partition("/")[0]
    return 4 + (ROLLOUTS, SKILLS, EXTENSIONS).index(folder), rel


def parse(reader: StoreReader, top: Listing) -> CodexData:
    # Every name there, readable or not (a FIFO, a link out): each is read or said why.
    found = sorted(
        {rel for rel in chain(top.files, top.others, reader.escaped) if knows(rel)} - {BOOK},
        key=order,
    )
    files = []
    for rel in found:
        tf = reader.read(rel)
        level = LEVELS.get(rel, 0)
        found_blocks = _blocks(reader, tf, level) if tf is not None and level else ()
        files.append(CodexFile(rel, tf, found_blocks))
    _folders_named_md(reader)
    handbook = next((f.tf for f in files if f.rel == HANDBOOK and f.tf is not None), None)
    refs = _rollout_refs(handbook) if handbook is not None else ()
    archived = _archived(reader) if BOOK in top.files else ()
    return CodexData(tuple(files), refs, archived)


def _folders_named_md(reader: StoreReader) -> None:
    """A folder named like a Markdown file (`SKILL.md/`) in skills/ or extensions/,
    which memtui walks as a folder, is said unreadable: the model looks for a file."""
    for top in (SKILLS, EXTENSIONS):
        for parent, dirs, _files in os.walk(os.path.join(reader.root, top)):
            dirs[:] = [
                d for d in dirs if d[0] != "." and not os.path.islink(os.path.join(parent, d))
            ]
            rel_parent = os.path.relpath(parent, reader.root).replace(os.sep, "/")
            for name in (d for d in dirs if d.endswith(".md")):
                rel = f"{rel_parent}/{name}"
                if rel not in reader.unreadable:
                    reader.unreadable[rel] = why = not_regular(stat.S_IFDIR)
                    reader.findings.add(
                        "unreadable",
                        rel,
                        None,
                        never_shown(rel, why),
                    )


def _blocks(reader: StoreReader, tf: TextFile, level: int) -> tuple[Block, ...]:
    found = sections(tf, level, False, fenced=reader.fences(tf))
    return tuple(numbered(found))


def _rollout_refs(tf: TextFile) -> tuple[tuple[int, str], ...]:
    out = []
    for n, line in enumerate(tf.text.split("\n"), 1):
        out += [(n, m.group(1)) for m in ROLLOUT_REF.finditer(line)]
    return tuple(out)


def _archived(reader: StoreReader) -> tuple[Archived, ...]:
    return tuple(records.archived_sections(reader, BOOK, msg("a block memtui archived")))


record_of = records.section_record  # an archive record, or None (not JSON, wrong shape)
