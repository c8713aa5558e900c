"""The claude layout's findings (SPEC §3b, §5), each at the line it is about."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Listing
from memtui.engine.textfile import iter_lines
from memtui.layouts.claude import rules
from memtui.layouts.claude.rules import INDEX, target_of

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.layouts.claude.layout import ClaudeData


def check(reader: StoreReader, data: ClaudeData, top: Listing) -> None:
    if data.index is not None and data.loaded is not None:
        _index(reader, data)
    _pointers(reader, data)
    _memories(reader, data)


def _index(reader: StoreReader, data: ClaudeData) -> None:
    cut = data.loaded
    assert cut is not None and data.index is not None
    add = reader.findings.add
    counted = " (front matter and HTML comments, which Claude takes off, not counted)"
    counted = counted if cut.stripped else ""
    if cut.first_unloaded_line is not None:
        why = (
            f"{cut.line_count:,} lines (Claude loads {rules.MAX_LINES:,})"
            if cut.by_lines
            else f"{cut.unit_count:,} UTF-16 units (Claude loads {rules.MAX_UNITS:,})"
        )
        add(
            "index-truncated",
            INDEX,
            cut.first_unloaded_line,
            f"MEMORY.md is {why}{counted}: line {cut.first_unloaded_line} and every line "
            "after it are never loaded; move detail into memory files and shorten the index",
        )
    elif cut.line_count >= rules.WARN_LINES or cut.unit_count >= rules.WARN_UNITS:
        add(
            "index-size",
            INDEX,
            None,
            f"MEMORY.md has {cut.line_count:,} lines and {cut.unit_count:,} UTF-16 units"
            f"{counted}: Claude stops loading it at {rules.MAX_LINES} lines or "
            f"{rules.MAX_UNITS:,} units",
        )
    code = reader.fences(data.index).lines(data.index.text)
    pointer_lines = {line.span.start for line in data.lines}
    for i, _offset, raw in iter_lines(data.index.text):
        if i + 1 in cut.stripped:
            continue  # front matter or an HTML comment: Claude takes it off unread
        if len(raw.rstrip("\r")) > rules.LONG_LINE:
            add(
                "index-line-long",
                INDEX,
                i + 1,
                f"MEMORY.md line {i + 1} has {len(raw):,} characters (keep index lines under "
                f"{rules.LONG_LINE}: a pointer and a one-line hook)",
            )
        content = raw.strip()
        if not content or i in pointer_lines or (content.startswith("#") and i not in code):
            continue
        out = None if i in code else _link_out(reader, raw)
        if out is not None:
            _escape(reader, i + 1, out)
            continue
        add(
            "index-content",
            INDEX,
            i + 1,
            f"MEMORY.md line {i + 1} is not a pointer to a memory: Claude's index holds "
            "one `- [Title](file.md) — hook` line a memory; this content belongs in a memory "
            "file (the agent loads the index every session, and its cut drops what is long)",
        )


def _pointers(reader: StoreReader, data: ClaudeData) -> None:
    add = reader.findings.add
    first: dict[str, int] = {}
    for line in data.lines:
        n = line.span.lineno
        if line.target is None:
            continue
        if reader.escapes("", line.ref) or reader.escapes("", line.target):
            _escape(reader, n, line.ref)
            continue
        if line.target in first:
            add(
                "pointer-duplicate",
                INDEX,
                n,
                f"MEMORY.md line {n} points to {line.target} "
                f"again (first on line {first[line.target]})",
            )
            continue
        first[line.target] = n
        if not reader.exists(line.target):  # a FIFO there is unreadable, not missing
            add(
                "pointer-missing",
                INDEX,
                n,
                f"MEMORY.md line {n} points to {line.target}, which does not exist",
            )


def _link_out(reader: StoreReader, raw: str) -> str | None:
    """The target of a link on this line that leads out of the folder (`../x`, an
    absolute path, a link out), if any: a web link is no path."""
    for match in rules.ANY_LINK.finditer(raw):
        ref = match.group(1)
        if "://" not in ref and (reader.escapes("", ref) or reader.escapes("", target_of(ref))):
            return ref
    return None


def _escape(reader: StoreReader, n: int, ref: str) -> None:
    reader.findings.add(
        "path-escape",
        INDEX,
        n,
        f"MEMORY.md line {n} links to {ref}, outside the memory folder; not followed",
    )


def _memories(reader: StoreReader, data: ClaudeData) -> None:
    add = reader.findings.add
    pointed = {line.target for line in data.lines if line.target}
    has_index = {os.path.dirname(f) for f in reader.files if os.path.basename(f) == INDEX}
    unknown = INDEX in reader.unreadable  # what it points to is unknown, not nothing
    for m in data.memories:
        folder = os.path.dirname(m.file) or ""
        if m.file not in pointed and folder not in has_index - {""} and not unknown:
            add(
                "topic-orphan",
                m.file,
                None,
                f"{m.file} is a memory no MEMORY.md line points "
                "to: the agent sees it only if recall happens to pick it",
            )
        if m.type not in rules.TYPES:
            said = "has no type" if m.type is None else f"has type {m.type!r}"
            add(
                "memory-type",
                m.file,
                1,
                f"{m.file} {said} in front matter recall can read "
                f"(the first {rules.RECALL_LINES} lines); use one of "
                f"{', '.join(rules.TYPES)}",
            )
        if not (m.description or "").strip():
            add(
                "memory-description",
                m.file,
                1,
                f"{m.file} has no description: recall picks memories by their description",
            )
    if len(data.memories) > rules.RECALL_FILES:
        past = [m.file for m in data.memories[rules.RECALL_FILES :]]
        few = ", ".join(past[:5]) + (f" and {len(past) - 5} more" if len(past) > 5 else "")
        add(
            "recall-cutoff",
            past[0],
            None,
            f"{len(data.memories):,} memory files: recall reads "
            f"only the {rules.RECALL_FILES} newest, so {few} can no longer be recalled",
        )
