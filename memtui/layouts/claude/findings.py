"""The claude layout's findings (SPEC §3b, §5), each at the line it is about."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Listing
from memtui.engine.textfile import iter_lines
from memtui.i18n import Msg, msg
from memtui.layouts.claude import rules
from memtui.layouts.claude.rules import INDEX, Cut, target_of

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
    first = cut.first_unloaded_line
    if first is not None:
        add("index-truncated", INDEX, first, _truncated(cut, first))
    elif cut.line_count >= rules.WARN_LINES or cut.unit_count >= rules.WARN_UNITS:
        add("index-size", INDEX, None, _size(cut))
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
                msg(
                    "MEMORY.md line {n} has {chars:,} characters (keep index lines under "
                    "{limit}: a pointer and a one-line hook)",
                    n=i + 1,
                    chars=len(raw),
                    limit=rules.LONG_LINE,
                ),
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
            msg(
                "MEMORY.md line {n} is not a pointer to a memory: Claude's index holds "
                "one `- [Title](file.md) — hook` line a memory; this content belongs in a memory "
                "file (the agent loads the index every session, and its cut drops what is long)",
                n=i + 1,
            ),
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
                msg(
                    "MEMORY.md line {n} points to {file} again (first on line {first})",
                    n=n,
                    file=line.target,
                    first=first[line.target],
                ),
            )
            continue
        first[line.target] = n
        if not reader.exists(line.target):  # a FIFO there is unreadable, not missing
            add(
                "pointer-missing",
                INDEX,
                n,
                msg(
                    "MEMORY.md line {n} points to {file}, which does not exist",
                    n=n,
                    file=line.target,
                ),
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
        msg(
            "MEMORY.md line {n} links to {ref}, outside the memory folder; not followed",
            n=n,
            ref=ref,
        ),
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
                msg(
                    "{file} is a memory no MEMORY.md line points "
                    "to: the agent sees it only if recall happens to pick it",
                    file=m.file,
                ),
            )
        if m.type not in rules.TYPES:
            add("memory-type", m.file, 1, _typed(m.file, m.type))
        if not (m.description or "").strip():
            add(
                "memory-description",
                m.file,
                1,
                msg(
                    "{file} has no description: recall picks memories by their description",
                    file=m.file,
                ),
            )
    if len(data.memories) > rules.RECALL_FILES:
        past = [m.file for m in data.memories[rules.RECALL_FILES :]]
        add("recall-cutoff", past[0], None, _cutoff(len(data.memories), past))


def _truncated(cut: Cut, first: int) -> Msg:
    # one whole sentence a case, for the translators: by lines or by units, stripped or not
    v = {"first": first, "lines": cut.line_count, "units": cut.unit_count}
    v |= {"max_lines": rules.MAX_LINES, "max_units": rules.MAX_UNITS}
    if cut.by_lines and cut.stripped:
        return msg(
            "MEMORY.md is {lines:,} lines (Claude loads {max_lines:,}) (front matter and "
            "HTML comments, which Claude takes off, not counted): line {first} and every "
            "line after it are never loaded; move detail into memory files and shorten "
            "the index",
            **v,
        )
    if cut.by_lines:
        return msg(
            "MEMORY.md is {lines:,} lines (Claude loads {max_lines:,}): line {first} and "
            "every line after it are never loaded; move detail into memory files and "
            "shorten the index",
            **v,
        )
    if cut.stripped:
        return msg(
            "MEMORY.md is {units:,} UTF-16 units (Claude loads {max_units:,}) (front matter "
            "and HTML comments, which Claude takes off, not counted): line {first} and every "
            "line after it are never loaded; move detail into memory files and shorten "
            "the index",
            **v,
        )
    return msg(
        "MEMORY.md is {units:,} UTF-16 units (Claude loads {max_units:,}): line {first} and "
        "every line after it are never loaded; move detail into memory files and shorten "
        "the index",
        **v,
    )


def _size(cut: Cut) -> Msg:
    v = {"lines": cut.line_count, "units": cut.unit_count}
    v |= {"max_lines": rules.MAX_LINES, "max_units": rules.MAX_UNITS}
    if cut.stripped:
        return msg(
            "MEMORY.md has {lines:,} lines and {units:,} UTF-16 units (front matter and HTML "
            "comments, which Claude takes off, not counted): Claude stops loading it at "
            "{max_lines} lines or {max_units:,} units",
            **v,
        )
    return msg(
        "MEMORY.md has {lines:,} lines and {units:,} UTF-16 units: Claude stops loading it "
        "at {max_lines} lines or {max_units:,} units",
        **v,
    )


def _typed(file: str, kind: str | None) -> Msg:
    v = {"file": file, "lines": rules.RECALL_LINES, "types": ", ".join(rules.TYPES)}
    if kind is None:
        return msg(
            "{file} has no type in front matter recall can read (the first {lines} lines); "
            "use one of {types}",
            **v,
        )
    return msg(
        "{file} has type {type!r} in front matter recall can read (the first {lines} "
        "lines); use one of {types}",
        type=kind,
        **v,
    )


def _cutoff(count: int, past: list[str]) -> Msg:
    v = {"count": count, "newest": rules.RECALL_FILES, "files": ", ".join(past[:5])}
    if len(past) > 5:
        return msg(
            "{count:,} memory files: recall reads only the {newest} newest, so {files} and "
            "{more} more can no longer be recalled",
            more=len(past) - 5,
            **v,
        )
    return msg(
        "{count:,} memory files: recall reads only the {newest} newest, so {files} can no "
        "longer be recalled",
        **v,
    )
