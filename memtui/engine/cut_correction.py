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
differing, a value as long as what the two share (two remarks under one key), an
ending shared past the value longer than the subject (one template filled twice), a
subject of one word (four CJK characters make two), and a key the file says three
times or more (Website:, 用户状态：, a field each record of the file repeats).

Which is newer: by the dates the statements carry when both carry one (an older
statement past the cut is no correction: the agent already has the newer), else the
later in the file (agents append)."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from memtui.engine.model import WARNING, ContextFile, Finding
from memtui.engine.statements import DATE, Statement
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store

CODE = "cut-correction"
# words (a CJK character is one), and the separators that end a subject (a URL's colon is
# none)
_TOKEN = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W_]+|->|=>|:(?!//)|[：=→]", re.UNICODE
)
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


def findings(store: Store, reader: StoreReader | None = None) -> list[Finding]:
    """The rule's findings over every layout of the store (`reader`: the open's, whose
    memo gives back a file's corrections while its text and its cut are unchanged)."""
    return [
        Finding(CODE, WARNING, c.file, c.newer.line, message(c), c.layout)
        for c in corrections(store, reader=reader)
    ]


def message(c: Correction) -> str:
    return msg(
        "line {newer} is past the cut, not loaded, and says otherwise about '{subject}' than "
        "line {older}, which the agent loads and acts on ({why}); `memtui fix {file}:{newer}` "
        "puts line {newer} in place of line {older}",
        newer=c.newer.line,
        subject=c.subject,
        older=c.older.line,
        why=c.why_newer,
        file=c.file,
    )


def corrections(
    store: Store, file: str | None = None, reader: StoreReader | None = None
) -> list[Correction]:
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
            found = partial(_of_file, store, lay, data, name, cf, tf.text)
            if reader is None:
                out += found()
            else:  # a file's statements are its own: its text and its cut say them all
                kind = f"{CODE} {name} {cf.first_unloaded_line}-{cf.last_unloaded_line}"
                out += reader.parsed(kind, tf, found)
    return out


def _of_file(
    store: Store, lay: Any, data: Any, name: str, cf: ContextFile, text: str
) -> list[Correction]:
    return _in_file(cf, text, lay.statements(store, data, cf.file), name)


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

    def words(st: Statement) -> tuple[str, ...]:
        key = (text[st.start : st.stop], st.when)
        return said_as.get(key) or said_as.setdefault(key, _words(*key))

    # the loaded ones by their words, sorted: those a statement may correct share its
    # first quarter (a subject outweighs its value and any shared ending), found by
    # bisection; each by its place in `loaded` (hashing a Statement costs more)
    heads = sorted((words(st), i) for i, st in enumerate(loaded))
    keys = [w for w, _i in heads]
    news = [words(st) for st in unloaded]
    every = sorted({*keys, *news})  # for how often the file says a key
    judged: dict[tuple[tuple[str, ...], tuple[str, ...]], int | None] = {}
    out: list[Correction] = []
    taken: set[int] = set()  # an older statement is replaced by one newer only
    for new, w in zip(reversed(unloaded), reversed(news), strict=True):  # newest first
        if len(w) < 3:  # no subject, separator and value
            continue
        k = max(2, len(w) // 4)
        found = []
        at = bisect_left(keys, w[:k])
        while at < len(keys) and keys[at][:k] == w[:k]:
            ow, i = heads[at]
            at += 1
            if i in taken:
                continue
            pair = (ow, w)
            key = judged[pair] if pair in judged else judged.setdefault(pair, _corrects(*pair))
            newer = _newer(loaded[i], new) if key is not None else ""
            if key is not None and newer and _said(every, w[:key]) <= 2:
                subject = _shown([x for x in w[: key - 1] if x not in _KEY_END])
                found.append((i, Correction(cf.file, layout, loaded[i], new, subject, newer)))
        if found:
            i, first = min(found, key=lambda f: f[1].older.line)
            taken.add(i)
            out.append(first)
    return sorted(out, key=lambda c: c.newer.line)


def _newer(old: Statement, new: Statement) -> str:
    """Why `new` is the newer of the two, in words; "" when it is not."""
    if old.when and new.when:
        if new.when < old.when:
            return ""
        if new.when > old.when:
            return msg("dated {new}, the other {old}", new=new.when[:10], old=old.when[:10])
    return msg("taken as newer: written later in the file, as agents append")


def _words(text: str, when: str | None) -> tuple[str, ...]:
    """What a statement says, as words: lower case, its date, link targets and Markdown
    marks left out."""
    if when:
        text = DATE.sub(" ", text)
    return tuple(_TOKEN.findall(_LINK_TARGET.sub(" ", text).lower()))


def _said(every: list[tuple[str, ...]], key: tuple[str, ...]) -> int:
    """How many different statements of the file begin with `key` (up to 3)."""
    at, n = bisect_left(every, key), 0
    while at < len(every) and every[at][: len(key)] == key and n < 3:
        at, n = at + 1, n + 1
    return n


def _corrects(a: tuple[str, ...], b: tuple[str, ...]) -> int | None:
    """When `b` gives another value than `a` to the subject both speak of: how many words
    their key is (the subject and its separator); else None."""
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
    if max(len(va), len(vb)) > max(head + tail - 1, _NEAR) or tail > head:
        # the value outweighs what they share (two remarks, not one fact), or what they
        # share after it outweighs their subject (one template filled in twice)
        return None
    ends = [i for i in range(max(head - _NEAR, 0), head) if a[i] in _KEY_END]
    if not ends:
        return None
    subject = [w for w in a[: ends[-1]] if w not in _KEY_END]
    if _weight(subject) < 4:
        return None  # a one-word key (Status:, 状态：) is a field each record repeats
    one, other = " ".join(va), " ".join(vb)
    if min(len(one), len(other)) >= 5:
        from rapidfuzz.distance import Indel  # (9 ms of imports: only when it is asked)

        if Indel.normalized_similarity(one, other) >= _SPELLING:
            return None
    return ends[-1] + 1


def _shown(subject: list[str]) -> str:
    """The subject in words, once: a Markdown link's text and its hook often both begin
    with it ("[Deploy](…) — deploy target is …")."""
    said = next(
        (i for i in range(len(subject) // 2, 0, -1) if subject[:i] == subject[i : 2 * i]), 0
    )
    return " ".join(subject[said:])[:60]


def _weight(words: list[str]) -> int:
    """How much a subject says, in half words: a word two (a number none), a CJK
    character one (a CJK word is two characters or so)."""
    return sum(1 if ord(w[0]) >= 0x3040 and len(w) == 1 else 0 if w.isdigit() else 2 for w in words)
