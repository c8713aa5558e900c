"""Reading Gemini CLI's memory: the context files in the order the agent loads them, each
one's `## ` sections, the `- ` memories of its `## Gemini Added Memories` section, the
files they import, and what memtui archived.

Ids: `gemini:GEMINI.md` a file, `gemini:GEMINI.md#Coding Style` a section (a heading
that several sections of one file share carries its place and fingerprint:
`…#Notes#2@3fa2c1d9e0b7`), `gemini-memory:GEMINI.md#3` the third memory of the file's
Added Memories section (its fingerprint guards it: an action hits the memory shown or
none, SPEC §6). Paths are from the store root (`tmp/<project-id>/memory/MEMORY.md`).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memtui.engine import archive_records as records
from memtui.engine.markdown import ITEM_STARTS, Headed, numbered, sections
from memtui.engine.model import Span
from memtui.engine.rawfile import not_regular
from memtui.i18n import msg
from memtui.layouts.gemini import rules
from memtui.layouts.gemini.detect import (
    BOOK,
    INDEX,
    OWNER,
    PROJECT_SETTINGS,
    SETTINGS,
    is_folder,
    is_home,
    markers_in,
    names_in,
    private_dirs,
    settings_of,
)
from memtui.layouts.gemini.imports import Importer

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.reader import StoreReader
    from memtui.engine.textfile import TextFile

KIND = "gemini"
MEMORY_KIND = "gemini-memory"
SECTION = ".md#"  # between a file and a section's heading, in an id
RECORD = ("id", "file", "text")  # what an archive record holds (ops.archive), at least

# Where a file stands in what the agent loads (memoryContextManager.ts): the global
# context files and a project's private memory index go in the system instruction; a
# project's own context files in the first message; a subfolder's when a tool touches
# its folder; a private memory folder's other notes when the model opens them.
GLOBAL, PRIVATE, PROJECT = "global", "private", "project"
SUBFOLDER, NOTE, IMPORTED = "subfolder", "note", "imported"
AT_START = (GLOBAL, PRIVATE, PROJECT)


GSection = Headed  # a section as ids name it (heading, span, nth, count)


@dataclass(frozen=True, slots=True)
class Memory:
    """One `- ` line (and its indented continuation) of the Added Memories section."""

    n: int  # 1-based, in its section
    span: Span


@dataclass(frozen=True, slots=True)
class GFile:
    rel: str
    tier: str  # GLOBAL | PRIVATE | PROJECT | SUBFOLDER | NOTE | IMPORTED
    tf: TextFile | None  # None: unreadable (the reader said why)
    sections: tuple[GSection, ...] = ()
    memories: tuple[Memory, ...] = ()
    project: str = ""  # a private memory's project (its .project_root), if known
    inlined: str | None = None  # its text with its imports inlined (loaded files only)

    @property
    def loaded(self) -> bool:
        return self.tier in AT_START


@dataclass(frozen=True, slots=True)
class Archived:
    id: str
    text: str
    line: int  # 1-based, in BOOK


@dataclass(frozen=True, slots=True)
class GeminiData:
    home: bool
    names: tuple[str, ...]
    markers: tuple[str, ...]  # what marks a project root (settings), `.git` by default
    files: tuple[GFile, ...]
    archived: tuple[Archived, ...]


def file_part(name: str) -> str:
    """The file an id's name (`GEMINI.md#Coding Style`) is in."""
    head, sep, _ = name.partition(SECTION)
    return f"{head}.md" if sep else name


def section_id(f: GFile, s: GSection) -> str:
    """Its id: by its heading, and by its place and fingerprint where that is shared."""
    place = f"#{s.nth}" if s.nth > 1 else ""
    if s.count > 1 and f.tf is not None:
        from memtui.engine.identity import fingerprint  # only where a heading is shared

        place += "@" + fingerprint(f.tf.text[s.span.char_start : s.span.char_stop])
    return f"{KIND}:{f.rel}#{s.heading}{place}"


def memory_id(f: GFile, m: Memory) -> str:
    return f"{MEMORY_KIND}:{f.rel}#{m.n}"


def parse(reader: StoreReader, top: Listing) -> GeminiData:
    home = is_home(top.root)
    settings = settings_of(top.root, home)
    if isinstance(settings, str):
        where = SETTINGS if home else PROJECT_SETTINGS
        reader.findings.add(
            "settings-invalid", where, None,
            msg("{file} is {reason}: Gemini CLI stops at it; memtui reads the context file "
                "names as GEMINI.md alone", file=where, reason=settings),
        )  # fmt: skip
    names, markers = names_in(settings), markers_in(settings)
    found = [(rel, tier, "") for rel, tier in _loaded_files(reader, home, names)]
    if home:
        found += _private(reader, names)
    found += _subfolders(reader, top, names, {rel for rel, _, _ in found}) if not home else []
    limit = reader.thresholds.max_file_bytes
    importer = Importer(reader.root, limit, lookup=_lookup(reader), markers=markers)
    files = [_file(reader, importer, rel, tier, project) for rel, tier, project in found]
    for p in importer.problems:
        reader.findings.add(p.code, p.file, p.line, p.message)
    known = {f.rel for f in files}
    files += [
        _file(reader, None, rel, IMPORTED, "")
        for rel in sorted(importer.read_files - known)
        if rel in reader.files
    ]
    _duplicates(reader, files)
    archived = _archived(reader) if BOOK in top.files else ()
    return GeminiData(home, names, markers, tuple(files), archived)


def _loaded_files(reader: StoreReader, home: bool, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """The root's context files, in the names' order (getGlobalMemoryPaths,
    findUpwardGeminiFiles): what Gemini CLI finds there."""
    return [(n, GLOBAL if home else PROJECT) for n in names if _there(reader, n)]


def _private(reader: StoreReader, names: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Each project's private memory: MEMORY.md, else the legacy context files there
    (getUserProjectMemoryPaths); the folder's other notes, read on demand."""
    out = []
    for folder in private_dirs(reader.root):
        project = _owner(reader.root, os.path.dirname(folder))
        index = f"{folder}/{INDEX}"
        present = [index] if _there(reader, index) else []
        present = present or [f"{folder}/{n}" for n in names if _there(reader, f"{folder}/{n}")]
        out += [(rel, PRIVATE, project) for rel in present]
        notes = sorted(r for r in reader.files if r.startswith(folder + "/") and r.endswith(".md"))
        notes += [r for r in _folders_named_md(reader.root, folder) if _there(reader, r)]
        out += [(rel, NOTE, project) for rel in notes if rel not in present]
    return out


def _there(reader: StoreReader, rel: str) -> bool:
    """Something is there by that name: a file, or what stands in its place (a folder
    named GEMINI.md, which Gemini CLI finds and then skips: reported unreadable)."""
    if reader.exists(rel) or rel in reader.escaped:
        return True
    path = os.path.join(reader.root, rel)
    if rel in reader.unreadable or not os.path.isdir(path) or os.path.islink(path):
        return rel in reader.unreadable
    reader.unreadable[rel] = why = not_regular(stat.S_IFDIR)
    reader.findings.add(
        "unreadable", rel, None,
        msg("{file} is {reason}: Gemini CLI finds it and skips it, loading nothing in its "
            "place", file=rel, reason=why),
    )  # fmt: skip
    return True


def _folders_named_md(root: str, top: str) -> list[str]:
    """Folders named like a note (`notes.md/`) in a private memory folder, where the
    model looks for a file; hidden ones and links aside. The folder is a handful."""
    found, todo = [], [top]
    while todo:
        parent = todo.pop()
        try:
            with os.scandir(os.path.join(root, parent)) as entries:
                below = sorted(e.name for e in entries if e.name[0] != "." and is_folder(e))
        except OSError:
            continue
        todo += [f"{parent}/{n}" for n in below]
        found += [f"{parent}/{n}" for n in below if n.endswith(".md")]
    return found


def _owner(root: str, folder: str) -> str:
    """The project a `tmp/<project-id>` folder belongs to (its .project_root), or ""."""
    from memtui.engine.rawfile import read_bytes

    got = read_bytes(os.path.join(root, folder, OWNER), 4096)
    if isinstance(got, str):
        return ""
    return got.decode("utf-8", "replace").strip()


def _subfolders(
    reader: StoreReader, top: Listing, names: tuple[str, ...], taken: set[str]
) -> list[tuple[str, str, str]]:
    """A project's subfolders' context files: loaded when a tool touches their folder."""
    plain = set(names)
    rels = sorted(
        r for r in (*top.files, *top.others) if "/" in r and r.rpartition("/")[2] in plain
    )
    return [(r, SUBFOLDER, "") for r in rels if r not in taken]


def _lookup(reader: StoreReader) -> Any:
    def lookup(rel: str) -> TextFile | str | None:
        if not (reader.exists(rel) or rel in reader.escaped):
            return None  # not listed (a folder among others): read, and said, by the importer
        tf = reader.read(rel)
        return tf if tf is not None else reader.unreadable.get(rel, "not readable")

    return lookup


def _file(
    reader: StoreReader, importer: Importer | None, rel: str, tier: str, project: str
) -> GFile:
    tf = reader.read(rel)
    if tf is None:
        return GFile(rel, tier, None, project=project)
    found = sections(tf, 2, False, fenced=reader.fences(tf))
    out, memories = [], ()
    for s in numbered(found):
        out.append(s)
        if s.heading == rules.ADDED and s.nth == 1:
            memories = _memories(tf, s.span)
    inlined = None
    if importer is not None and tier in AT_START:
        text = ("\ufeff" if tf.bom else "") + tf.text  # as Node's readFile gives it
        inlined = importer.inline(text, os.path.join(reader.root, rel))
    return GFile(rel, tier, tf, tuple(out), memories, project, inlined)


def _memories(tf: TextFile, span: Span) -> tuple[Memory, ...]:
    """The `- ` lines of the section (below its heading), each with the indented lines
    that continue it."""
    from memtui.engine.ops.places import content, rows

    lines = rows(tf.text[span.char_start : span.char_stop])
    runs: list[list[int]] = []  # [first, last] line of each, from the heading
    for i, row in enumerate(lines):
        bare = content(row)
        if i and bare.startswith(ITEM_STARTS):
            runs.append([i, i])
        elif runs and runs[-1][1] == i - 1 and bare[:1] in " \t" and bare.strip():
            runs[-1][1] = i
    starts = [span.char_start]
    for row in lines:
        starts.append(starts[-1] + len(row))
    return tuple(
        Memory(n, Span(tf.path, span.start + a, span.start + b + 1, starts[a], starts[b + 1]))
        for n, (a, b) in enumerate(runs, 1)
    )


def _duplicates(reader: StoreReader, files: list[GFile]) -> None:
    for f in files:
        for s in f.sections:
            if s.nth == 2:
                reader.findings.add(
                    "gemini-heading-duplicate", f.rel, s.span.lineno,
                    msg("{file}: {count} sections are headed {heading!r}; each is named by "
                        "its place and fingerprint (`memtui list`)", file=f.rel,
                        count=s.count, heading=s.heading),
                )  # fmt: skip


def _archived(reader: StoreReader) -> tuple[Archived, ...]:
    """The book's records; a line that is none is said, and left alone."""

    def said(n: int) -> str:
        return msg(
            "{file} line {n} is not a record memtui wrote: left as it is, restores nothing",
            file=BOOK,
            n=n,
        )

    found = records.book_records(reader, BOOK, record_of, said)
    return tuple(Archived(record["id"], record["text"], n) for n, record in found)


def record_of(raw: str) -> dict[str, Any] | None:
    """An archive record, or None when the line is not one."""
    return records.record_of(raw, RECORD)
