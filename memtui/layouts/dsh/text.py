"""Pure text edits for the dsh layout (no I/O): facts.md sections, the index's
automatic segment, a candidate's front matter.

Each function returns the new text of a file in which every character outside
the lines it means to change is the old one (line endings, blank lines, a
missing final newline, unknown lines), so a splice stays lossless (SPEC §0).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from memtui.engine import frontmatter
from memtui.engine.markdown import ITEM_MARKS, sections
from memtui.engine.model import Span, item_text
from memtui.engine.ops.common import eol_of
from memtui.engine.textfile import TextFile
from memtui.i18n import msg
from memtui.layouts.dsh.parse import AUTO_BEGIN, AUTO_END, fact_key

_NOT_WORD = re.compile(r"[\W_]+")
_NUMBER = re.compile(r"\d+")


def loose_key(text: str) -> str:
    """A fact's identity for near duplicates: case, punctuation, symbols and blanks ignored."""
    return _NOT_WORD.sub("", text.casefold())


def shape_key(loose: str) -> str:
    """A loose key with every number made 0: facts that differ only in numbers (a port, a
    version, a host's index) share a shape; they are different facts, not duplicates."""
    return _NUMBER.sub("0", loose)


def _is_item(line: str) -> bool:
    return line[:1] in ITEM_MARKS and line[1:2] in (" ", "\t")


def body_facts(body: str) -> list[str]:
    """The facts a candidate body (or a hand-written text) holds: the text of each
    `- ` line; a body without any item line gives one fact per non-blank line."""
    lines = [line.rstrip("\r") for line in body.split("\n")]
    if any(_is_item(line) for line in lines):
        facts = [item_text(line) for line in lines if _is_item(line)]
    else:
        facts = [line.strip() for line in lines]
    return [fact for fact in facts if fact]


# --- facts.md ------------------------------------------------------------------


@dataclass
class FactsEdit:
    """The outcome of `add_facts`."""

    text: str
    added: dict[str, int] = field(default_factory=dict)  # section -> lines added
    created: list[str] = field(default_factory=list)  # sections created at the end
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (section, fact) already there
    names: list[str] = field(default_factory=list)  # every section after the edit, in order
    count: int = 0  # fact lines after the edit
    inserted: list[tuple[int, str]] = field(default_factory=list)  # (old offset, text put there)
    tail_at: int | None = None  # where the created sections begin in `text`


Sections = list[tuple[str, Span, tuple[int, ...]]]


def fact_sections(text: str) -> list[tuple[str, Span, tuple[int, ...]]]:
    """(name, span, 1-based fact line numbers) of every `## SECTION` of facts.md."""
    tf = TextFile("facts.md", text, False, 0)
    return [(s.name.strip(), s.span, s.item_lines) for s in sections(tf, 2, False)]


def section_names(found: Iterable[tuple[str, Span, tuple[int, ...]]]) -> list[str]:
    """Distinct section names in file order (a name written twice is listed once)."""
    return list(dict.fromkeys(name for name, _, _ in found))


def add_facts(
    text: str,
    additions: Mapping[str, list[str]],
    found: list[tuple[str, Span, tuple[int, ...]]] | None = None,
) -> FactsEdit:
    """`additions` (section -> fact texts) appended as `- ` lines after the last line of
    their section that is not blank; a section that does not exist is created at the end.
    A fact already in its section (same text, blanks aside) is skipped. `found`: the
    text's fact_sections, when the caller has them already."""
    found = fact_sections(text) if found is None else found
    eol = eol_of(text)
    first: dict[str, tuple[Span, tuple[int, ...]]] = {}
    for name, span, numbers in found:
        first.setdefault(name, (span, numbers))
    edit = FactsEdit(text, names=section_names(found))
    edit.count = sum(len(numbers) for _, _, numbers in found)
    inserts: dict[int, list[str]] = {}
    tail: list[list[str]] = []
    for name, facts in additions.items():
        where = first.get(name)
        known = _Known(text, *where) if where else None
        added: set[str] = set()
        new = []
        for fact in facts:
            key = fact_key(fact)
            if key in added or (known is not None and known.has(key)):
                edit.skipped.append((name, fact))
                continue
            added.add(key)
            new.append(f"- {fact}")
        if where:
            if new:
                inserts.setdefault(_after_content(text, where[0]), []).extend(new)
        else:
            tail.append([f"## {name}", *new])
            edit.created.append(name)
            edit.names.append(name)
        if new:
            edit.added[name] = len(new)
            edit.count += len(new)
    pieces, last = [], 0
    for offset in sorted(inserts):
        inserted = _lines_at(text, offset, inserts[offset], eol)
        pieces += [text[last:offset], inserted]
        edit.inserted.append((offset, inserted))
        last = offset
    pieces.append(text[last:])
    out = "".join(pieces)
    if tail:
        edit.tail_at = len(out)
        lines: list[str] = []
        for block in tail:
            if lines or (out and not _last_line_blank(out)):
                lines.append("")
            lines += block
        out += _lines_at(out, len(out), lines, eol)
    edit.text = out
    return edit


class _Known:
    """The facts of one section, asked one key at a time. A key with a word that is not in
    the section's text at all cannot be there (each word of a fact's key is a run of its
    line's characters), so the section's keys are worked out only for a key that might:
    a bulk accept adds a few facts to each of hundreds of sections of thousands."""

    def __init__(self, text: str, span: Span, numbers: tuple[int, ...]) -> None:
        self.text, self.span, self.numbers = text, span, numbers
        self.section = text[span.char_start : span.char_stop]
        self._keys: set[str] | None = None

    def has(self, key: str) -> bool:
        if not might_hold(self.section, key):
            return False
        if self._keys is None:
            self._keys = _section_keys(self.text, self.span, self.numbers)
        return key in self._keys


def might_hold(section: str, key: str) -> bool:
    """False only when no fact of `section` can have this key."""
    return all(word in section for word in key.split(" "))


def sections_after(found: Sections, old: str, edit: FactsEdit) -> Sections | None:
    """fact_sections(edit.text), worked out from the old text's sections and what add_facts
    put where, instead of parsing 50,000 lines again for each chunk of a bulk accept.
    None when the text has a code fence (where a heading may be code): parse it then."""
    new = edit.text
    if "```" in new or "~~~" in new:
        return None
    out: Sections = []
    pending = edit.inserted  # sorted by offset
    done = lines_before = chars_before = 0  # what was inserted at or before a section
    for name, span, numbers in found:
        while done < len(pending) and pending[done][0] <= span.char_start:
            lines_before += pending[done][1].count("\n")
            chars_before += len(pending[done][1])
            done += 1
        new_numbers = [n + lines_before for n in numbers]
        own_lines = own_chars = 0
        for offset, text in pending[done:]:
            if offset > span.char_stop:
                break
            at = span.start + old.count("\n", span.char_start, offset)  # the line there
            if offset == len(old) and not old.endswith("\n"):
                at += 1  # after a last line without a newline: the text starts with one
            first = at + lines_before + own_lines
            added = text.count("\n")
            new_numbers.extend(range(first + 1, first + added + 1))
            own_lines += added
            own_chars += len(text)
        moved = Span(
            span.file,
            span.start + lines_before,
            span.stop + lines_before + own_lines,
            span.char_start + chars_before,
            span.char_stop + chars_before + own_chars,
        )
        out.append((name, moved, tuple(new_numbers)))
    if edit.tail_at is not None:
        out = _with_tail(out, new, edit.tail_at)
    return out


def _with_tail(out: Sections, new: str, tail_at: int) -> Sections:
    """The sections created at the end, parsed alone; a last old section that ran to the
    end now runs to the first of them."""
    at_line = (
        tail_at if new[:tail_at].endswith("\n") or not tail_at else new.index("\n", tail_at) + 1
    )
    line = new.count("\n", 0, at_line)
    tail = [
        (
            name,
            Span(
                span.file,
                span.start + line,
                span.stop + line,
                span.char_start + at_line,
                span.char_stop + at_line,
            ),
            tuple(n + line for n in numbers),
        )
        for name, span, numbers in fact_sections(new[at_line:])
    ]
    if out and tail and out[-1][1].char_stop == tail_at:
        name, span, numbers = out[-1]
        head = tail[0][1]
        out[-1] = (name, span._replace(stop=head.start, char_stop=head.char_start), numbers)
    return out + tail


def _section_keys(text: str, span: Span, numbers: tuple[int, ...]) -> set[str]:
    lines = text[span.char_start : span.char_stop].split("\n")
    return {fact_key(item_text(lines[n - 1 - span.start])) for n in numbers}


def _after_content(text: str, span: Span) -> int:
    """Char offset just after the last non-blank line of the span (after its newline)."""
    pos = span.char_start
    best = pos
    for line in text[span.char_start : span.char_stop].split("\n"):
        end = pos + len(line)
        if line.strip():
            best = end
        pos = end + 1
    return best + 1 if best < len(text) else best


def _lines_at(text: str, offset: int, lines: list[str], eol: str) -> str:
    """The text to insert at `offset` for `lines`; at the end of a file whose last line has
    no newline, the newline goes before the lines and the file still ends without one."""
    if offset == len(text) and text and not text.endswith("\n"):
        return eol + eol.join(lines)
    return "".join(line + eol for line in lines)


def _last_line_blank(text: str) -> bool:
    body = text[:-1] if text.endswith("\n") else text
    return not body[body.rfind("\n") + 1 :].strip()


def remove_lines(text: str, numbers: Iterable[int]) -> str:
    """The text without the given lines (1-based), each taken with its own newline."""
    drop = set(numbers)
    if not drop:
        return text
    parts = text.split("\n")
    kept = [part for index, part in enumerate(parts, 1) if index not in drop]
    out = "\n".join(kept)
    if text.endswith("\n") and not out.endswith("\n") and out:
        out += "\n"  # the file's last line was dropped: keep its final newline
    return out


def cut_span(text: str, span: Span) -> tuple[str, str]:
    """(text without the span's lines, the lines cut)."""
    return text[: span.char_start] + text[span.char_stop :], text[span.char_start : span.char_stop]


def append_block(text: str, block: str) -> str:
    """`block` (whole lines) added at the end of `text` after a blank line, in the file's
    line ending; trailing blank lines of the block are dropped."""
    eol = eol_of(text) if text else eol_of(block)
    lines = [line.rstrip("\r") for line in block.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if text and not _last_line_blank(text):
        lines.insert(0, "")
    if text and not text.endswith("\n"):
        return text + eol + eol.join(lines) + eol
    return text + "".join(line + eol for line in lines)


# --- index.txt -----------------------------------------------------------------


class MarkerError(ValueError):
    pass


def index_with_auto(text: str, auto: list[str]) -> str:
    """index.txt with the lines between `# --- auto ---` and `# --- end auto ---` replaced
    by `auto` (the markers and every other line kept); without markers the segment is
    appended at the end. MarkerError when the begin marker has no end marker after it."""
    eol = eol_of(text)
    begin, end = _auto_bounds(text)
    if begin is None:
        lines = [AUTO_BEGIN, *auto, AUTO_END]
        if text and not text.endswith("\n"):
            return text + eol + "".join(line + eol for line in lines)
        return text + "".join(line + eol for line in lines)
    if end is None:
        raise MarkerError(
            msg(
                "index.txt has a `{AUTO_BEGIN}` line but no `{AUTO_END}` after "
                "it; fix the markers by hand (memtui only rewrites a closed "
                "segment)",
                AUTO_BEGIN=AUTO_BEGIN,
                AUTO_END=AUTO_END,
            )
        )
    prefix = text[:begin] if text[:begin].endswith("\n") else text[:begin] + eol
    return prefix + "".join(line + eol for line in auto) + text[end:]


def auto_lines(text: str) -> list[str] | None:
    """The lines of index.txt's closed automatic segment (None: there is none)."""
    begin, end = _auto_bounds(text)
    if begin is None or end is None:
        return None
    return [line.removesuffix("\r") for line in text[begin:end].split("\n")[:-1]]


def _auto_bounds(text: str) -> tuple[int | None, int | None]:
    """Where the segment's lines begin (after the begin marker's line) and end (at the
    end marker's line), in characters; None for a marker not found."""
    begin = end = None
    offset = 0
    for raw in text.split("\n"):
        stripped = raw.strip()
        stop = offset + len(raw) + 1
        if begin is None and stripped == AUTO_BEGIN:
            begin = min(stop, len(text))
        elif begin is not None and stripped == AUTO_END:
            end = offset
            break
        offset = stop
    return begin, end


# --- candidate front matter ----------------------------------------------------

_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def yaml_quoted(value: str) -> str:
    """A YAML double-quoted scalar for any string (JSON escapes are YAML escapes; what
    YAML would read as a break or refuses as non-printable is escaped too)."""
    out = json.dumps(value, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def add_front_matter(text: str, pairs: list[tuple[str, str]]) -> str:
    """The candidate with `key: value` lines (values already YAML) added just before the
    closing `---` of its front matter (a key that is there already has its line replaced);
    a text without a closed front matter gets a new block in front of it."""
    first_nl = text.find("\n")
    eol = "\r\n" if first_nl > 0 and text[first_nl - 1] == "\r" else eol_of(text) or "\n"
    try:
        split = frontmatter.split(text)
    except frontmatter.FrontMatterError:
        split = None
    if split is None or split.yaml_text is None:
        head = "".join(f"{key}: {value}{eol}" for key, value in pairs)
        return f"---{eol}{head}---{eol}{text}"
    start = first_nl + 1
    yaml_text = split.yaml_text
    extra = []
    for key, value in pairs:
        line = re.compile(rf"^{re.escape(key)}:[^\r\n]*", re.M)
        found = line.search(yaml_text)
        if found:
            yaml_text = yaml_text[: found.start()] + f"{key}: {value}" + yaml_text[found.end() :]
        else:
            extra.append(f"{key}: {value}{eol}")
    close = start + len(split.yaml_text)
    return text[:start] + yaml_text + "".join(extra) + text[close:]
