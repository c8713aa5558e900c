"""Reading an archive book: the hidden JSONL file a layout archives entries into, one
JSON record a line (written by engine.ops.archive_book). Light: parsing a store reads
it, so it imports json only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from memtui.i18n import msg

Said = Callable[[int], str]  # the finding's words for a book line that is no record


def record_of(raw: str, fields: tuple[str, ...]) -> dict[str, Any] | None:
    """An archive record, or None when the line is not one (not JSON, or a field of
    `fields` missing or not text)."""
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not all(isinstance(record.get(k), str) for k in fields):
        return None
    return record


def book_records(
    reader: Any, book: str, parse: Callable[[str], dict[str, Any] | None], said: str | Said
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) of each record of the book `book` (a path from the root)
    as `reader` (a StoreReader) reads it; a line that is no record is a `json-invalid`
    finding, left as it is: `said` words it (given what a record is: "line n is not
    <said>; it is left as it is, ..."). Blank lines are skipped."""
    words = _saying(book, said) if isinstance(said, str) else said
    tf = reader.read_archive(book)
    if tf is None:
        return
    for n, raw in enumerate(tf.text.split("\n"), 1):
        if not raw.strip():
            continue
        record = parse(raw)
        if record is None:
            reader.findings.add("json-invalid", book, n, words(n))
            continue
        yield n, record


SECTION = ("id", "file", "heading", "text")  # a section's record (archive_book.archive_section)


def section_record(raw: str) -> dict[str, Any] | None:
    """A section's archive record, or None when the line is not one."""
    return record_of(raw, SECTION)


def _saying(book: str, what: str) -> Said:
    return lambda n: msg(
        "{file} line {n} is not {what}; it is left as it is, and restores nothing",
        file=book,
        n=n,
        what=what,
    )


@dataclass(frozen=True, slots=True)
class ArchivedSection:
    id: str  # the id it had, which restores it
    heading: str
    text: str
    line: int  # 1-based, in the book


def archived_sections(reader: Any, book: str, said: str | Said) -> list[ArchivedSection]:
    """Each section archived in the book."""
    found = book_records(reader, book, section_record, said)
    return [ArchivedSection(r["id"], r["heading"], r["text"], n) for n, r in found]
