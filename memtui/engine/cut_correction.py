"""cut-correction: a statement the agent is not given (past its file's cut, SPEC §3c)
that says otherwise about the same subject than one it is given, so the agent acts on
the stale one (anthropics/claude-code#92998: MEMORY.md is cut at the bottom, where
corrections are appended). One rule over every layout: what its `context` says is
loaded and not, and what its `statements` say.

"Same subject, different value": both say `<subject> <separator> <value>`, where the
separator is a key's colon or equals sign, an arrow, or a copula (is, are, was, 是, 为)
that ends the shared beginning; they share that beginning and any ending, and differ
in one run of words between, no word of it shared ("deploy target is staging" and
"deploy target is prod"). Not this finding: the same value (a duplicate), one saying
more than the other (an addition), a spelling (the differing runs alike), two things
differing, a value longer than what the two share (two remarks under one key), an
ending shared past the value longer than the subject (one template filled twice).

Which is newer: by the dates the statements carry when both carry one (an older
statement past the cut is no correction: the agent already has the newer), else the
later in the file (agents append)."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtui.engine.model import WARNING, ContextFile, Finding
from memtui.engine.statements import DATE, Statement

if TYPE_CHECKING:
    from memtui.engine.store import Store

CODE = "cut-correction"
# words (a CJK character is one), and the separators that end a subject
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+|->|=>|[:：=→]", re.UNICODE)
_KEY_END = frozenset(
    {":", "：", "=", "→", "->", "=>", "is", "are", "was", "were", "是", "为", "為"}
)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")  # a Markdown link's target: its text is what it says
_NEAR = 3  # the separator is among the last words the two share
_SPELLING = 0.75  # differing runs this alike are one value spelled two ways (npm, pnpm:
# shorter values are told apart by a letter)


@dataclass(frozen=True)
class Correction:
    """`newer` (not loaded) says otherwise about `subject` than `older` (loaded)."""

    file: str
    layout: str
    older: Statement
    newer: Statement
    subject: str
    why_newer: str  # how the newer was told: its date, or its place


def findings(store: Store) -> list[Finding]:
    """The rule's findings over every layout of the store."""
    return [
        Finding(CODE, WARNING, c.file, c.newer.line, message(c), c.layout)
        for c in corrections(store)
    ]


def message(c: Correction) -> str:
    return (
        f"line {c.newer.line} is past the cut, not loaded, and says otherwise about "
        f"'{c.subject}' than line {c.older.line}, which the agent loads and acts on "
        f"({c.why_newer}); `memtui fix {c.file}:{c.newer.line}` puts line "
        f"{c.newer.line} in place of line {c.older.line}"
    )


def corrections(store: Store, file: str | None = None) -> list[Correction]:
    """Every correction past a cut in the store (or in `file` alone)."""
    from memtui.engine.layouts import loaded

    out: list[Correction] = []
    for name, data in store.data.items():
        lay = loaded(name)
        if lay is None:
            continue
        for cf in lay.context(store, data):
            if file is not None and cf.file != file:
                continue
            tf = store.texts.get(cf.file)
            if tf is None or not _partly_loaded(cf):
                continue
            said = lay.statements(store, data, cf.file)
            out += _in_file(cf, tf.text, said, name)
    return out


def _partly_loaded(cf: ContextFile) -> bool:
    return cf.first_unloaded_line is not None and cf.lines > 0 and cf.unreadable is None


def _in_file(cf: ContextFile, text: str, said: list[Statement], layout: str) -> list[Correction]:
    first, last = cf.first_unloaded_line or 0, cf.last_unloaded_line
    loaded, unloaded = [], []
    for st in said:
        if st.last_line < first or (last is not None and st.line > last):
            loaded.append(st)
        elif st.line >= first and (last is None or st.last_line <= last):
            unloaded.append(st)  # one astride the cut is neither: partly given
    if not loaded or not unloaded:
        return []
    said_as: dict[tuple[str, str | None], tuple[str, ...]] = {}  # a text said again: once
    words = {}
    for st in (*loaded, *unloaded):
        key = (text[st.start : st.stop], st.when)
        words[st] = said_as.get(key) or said_as.setdefault(key, _words(*key))
    judged: dict[tuple[tuple[str, ...], tuple[str, ...]], str | None] = {}
    # the loaded ones by their words, sorted: those a statement may correct share its
    # first quarter (a subject outweighs its value and any shared ending), found by bisection
    heads = sorted((words[st], st.line, st) for st in loaded)
    keys = [w for w, _line, _st in heads]
    out: list[Correction] = []
    taken: set[Statement] = set()  # an older statement is replaced by one newer only
    for new in reversed(unloaded):  # the last written first: it is the newest
        w = words[new]
        if len(w) < 3:  # no subject, separator and value
            continue
        k = max(2, len(w) // 4)
        found = []
        at = bisect_left(keys, w[:k])
        while at < len(keys) and keys[at][:k] == w[:k]:
            _w, _line, old = heads[at]
            at += 1
            pair = (words[old], w)
            if old in taken:
                continue
            subject = judged[pair] if pair in judged else judged.setdefault(pair, _corrects(*pair))
            newer = _newer(old, new) if subject is not None else ""
            if subject is not None and newer:
                found.append(Correction(cf.file, layout, old, new, subject, newer))
        if found:
            first = min(found, key=lambda c: c.older.line)
            taken.add(first.older)
            out.append(first)
    return sorted(out, key=lambda c: c.newer.line)


def _newer(old: Statement, new: Statement) -> str:
    """Why `new` is the newer of the two, in words; "" when it is not."""
    if old.when and new.when:
        if new.when < old.when:
            return ""
        if new.when > old.when:
            return f"dated {new.when[:10]}, the other {old.when[:10]}"
    return "taken as newer: written later in the file, as agents append"


def _words(text: str, when: str | None) -> tuple[str, ...]:
    """What a statement says, as words: lower case, its date, link targets and Markdown
    marks left out."""
    if when:
        text = DATE.sub(" ", text)
    return tuple(_TOKEN.findall(_LINK_TARGET.sub(" ", text).lower()))


def _corrects(a: tuple[str, ...], b: tuple[str, ...]) -> str | None:
    """The subject both speak of when `b` gives it another value than `a`; else None."""
    from rapidfuzz.distance import Indel

    most = min(len(a), len(b))
    head = 0
    while head < most and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < most - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    va, vb = a[head : len(a) - tail], b[head : len(b) - tail]
    if not va or not vb or set(va) & set(vb):
        return None  # the same value, one saying more, or two things differing
    if max(len(va), len(vb)) > max(head + tail, _NEAR) or tail > head:
        # the value outweighs what they share (two remarks, not one fact), or what they
        # share after it outweighs their subject (one template filled in twice)
        return None
    ends = [i for i in range(max(head - _NEAR, 0), head) if a[i] in _KEY_END]
    if not ends:
        return None
    subject = [w for w in a[: ends[-1]] if w not in _KEY_END]
    if sum(1 for w in subject if not w.isdigit()) < 1 or _weight(subject) < 4:
        return None
    one, other = " ".join(va), " ".join(vb)
    if min(len(one), len(other)) >= 5 and Indel.normalized_similarity(one, other) >= _SPELLING:
        return None
    return " ".join(subject)[:60]


def _weight(words: list[str]) -> int:
    """How much a subject says: its letters, a CJK character counting two."""
    return sum(len(w) * (2 if ord(w[0]) >= 0x3040 else 1) for w in words)
