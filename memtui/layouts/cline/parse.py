"""Reading a Cline Memory Bank: every `**/*.md` of the bank (hidden paths aside) in the
order the model reads them, each file's `## ` sections, and the sections memtui
archived. Entry ids name a file from the bank: `cline:activeContext.md` for a file,
`cline:activeContext.md#Next Steps` for a section; a heading that several sections of
one file share is named with its place and fingerprint too (`…#Notes#2@3fa2c1d9e0b7`),
so an action hits the section the user saw or none (SPEC §6)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

from memtui.engine import archive_records as records
from memtui.engine.markdown import Headed, numbered, sections
from memtui.engine.rawfile import never_shown, not_regular
from memtui.i18n import msg
from memtui.layouts.cline import rules
from memtui.layouts.cline.detect import BANK, BOOK, CORE, bank_of, in_bank, is_folder

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing
    from memtui.engine.reader import StoreReader
    from memtui.engine.textfile import TextFile

KIND = "cline"
SECTION = ".md#"  # between a file and a section's heading, in an id


BankSection = Headed  # a section as ids name it (heading, span, nth, count)
Archived = records.ArchivedSection  # a section in BOOK, which restores by its id


@dataclass(frozen=True, slots=True)
class BankFile:
    name: str  # from the bank: what ids say
    rel: str  # from the root
    tf: TextFile | None  # None: unreadable (the reader said why)
    sections: tuple[BankSection, ...]


@dataclass(frozen=True, slots=True)
class ClineData:
    bank: str  # the bank's folder from the root ("": the root is the bank)
    files: tuple[BankFile, ...]  # in the order the model reads them
    missing: tuple[str, ...]  # core files not there
    archived: tuple[Archived, ...]

    @property
    def tokens(self) -> int:
        return sum(rules.tokens(f.tf.size) for f in self.files if f.tf is not None)


def at(bank: str, name: str) -> str:
    """A bank file's path from the root."""
    return f"{bank}/{name}" if bank else name


def file_part(name: str) -> str:
    """The file an id's name (`activeContext.md#Next Steps`) is in, from the bank."""
    cut_at = name.find(SECTION)
    return name if cut_at < 0 else name[: cut_at + 3]


def section_id(f: BankFile, s: BankSection) -> str:
    """The section's id; with its place and fingerprint when its heading is shared."""
    base = f"{KIND}:{f.name}#{s.heading}" + (f"#{s.nth}" if s.nth > 1 else "")
    if s.count == 1 or f.tf is None:
        return base
    from memtui.engine.identity import fingerprint  # listing ids needs it, a parse does not

    return f"{base}@{fingerprint(f.tf.text[s.span.char_start : s.span.char_stop])}"


def parse(reader: StoreReader, top: Listing) -> ClineData:
    bank = bank_of(top.root)
    bank = BANK if bank is None else bank  # gone since detection: read as empty
    # Every name there, readable or not (a FIFO, a link out): each is read or said why.
    found = {
        name: rel
        for rel in chain(top.files, top.others, reader.escaped)
        if (name := in_bank(bank, rel)) is not None
    }
    files = []
    for name in rules.reading_order(list(found)):
        rel = found[name]
        tf = reader.read(rel)
        files.append(BankFile(name, rel, tf, _sections(reader, tf) if tf else ()))
    missing = tuple(n for n in CORE if n not in found)
    _folders_named_md(reader, bank, missing)
    archived = _archived(reader) if BOOK in top.files else ()
    return ClineData(bank, tuple(files), missing, archived)


def _folders_named_md(reader: StoreReader, bank: str, missing: tuple[str, ...]) -> None:
    """A folder named like a bank file (`notes.md/`), where the model looks for a file,
    is unreadable, said so: the listing walks into it, and an empty one leaves no trace
    (a core file's is said by bank-core-missing). A bank is a handful of folders."""
    for parent, names in _walk(reader.root, bank):
        for name in names:
            rel = f"{parent}/{name}" if parent else name
            if rel in reader.unreadable or (parent == bank and name in missing):
                continue
            reader.unreadable[rel] = why = not_regular(stat.S_IFDIR)
            reader.findings.add("unreadable", rel, None, never_shown(rel, why))


def _walk(root: str, top: str) -> Iterator[tuple[str, list[str]]]:
    """(folder, its subfolders named *.md) for each folder of the bank, hidden ones and
    links aside."""
    todo = [top]
    while todo:
        parent = todo.pop()
        try:
            with os.scandir(os.path.join(root, parent)) as entries:
                below = sorted(e.name for e in entries if is_folder(e) and e.name[0] != ".")
        except OSError:
            continue
        todo += [f"{parent}/{n}" if parent else n for n in below]
        yield parent, [n for n in below if n.endswith(".md")]


def _sections(reader: StoreReader, tf: TextFile) -> tuple[BankSection, ...]:
    found = sections(tf, 2, False, fenced=reader.fences(tf))
    return tuple(numbered(found))


def _archived(reader: StoreReader) -> tuple[Archived, ...]:
    return tuple(records.archived_sections(reader, BOOK, msg("an archived section memtui wrote")))


record_of = records.section_record  # an archive record, or None (not JSON, wrong shape)
