"""The cache keeps each file's parse by runs (engine/cache.py _packed): a run of records
of one class, or a list of them, as a column a field, unpickled by one call. What comes
back is what was kept: the same keys, texts, parses and findings, in the same order,
records of the same class, lists still lists, one text one object."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from memtui.engine import cache
from memtui.engine.model import Event, Finding, Span
from memtui.engine.textfile import TextFile

TEXTS = [
    TextFile(f"memory/{n}.md", f"### [E00{n}] 2026-12-0{n} · 约定\n", False, 30, n)
    for n in range(3)
]
words = st.text(max_size=6)
findings = st.builds(Finding, words, st.sampled_from(["error", "warn"]), words, st.none(), words)
events = st.builds(
    Event,
    st.one_of(st.none(), st.integers(0, 999)),
    words,
    words,
    words,
    st.none(),
    st.one_of(st.none(), words),
    st.none(),
    st.builds(Span, st.just("memory/events.md"), st.integers(0, 9), st.integers(0, 9)),
    st.sampled_from(TEXTS),
)
parses = st.one_of(
    st.none(),
    findings,
    events,
    st.lists(events, max_size=4),
    st.lists(st.one_of(events, findings), max_size=3),
    st.tuples(events, events),
    st.dictionaries(words, st.integers(), max_size=2),
)


@given(st.lists(st.tuples(st.sampled_from(["scan", "events", "candidate"]), parses)))
def test_a_kept_memo_comes_back_as_it_was(rows: list) -> None:  # type: ignore[type-arg]
    memo = {
        (kind, f"f{n}.md"): (
            TEXTS[n % 3],
            parse,
            (Finding("c", "warn", None, None, "m"),) * (n % 2),
        )
        for n, (kind, parse) in enumerate(rows)
    }
    buf = io.BytesIO()
    cache._Pickler(buf, protocol=5).dump(cache._packed(memo))
    again = cache._unpacked(*cache._Unpickler(io.BytesIO(buf.getvalue())).load())
    assert list(again) == list(memo)
    assert [_shape(v) for v in again.values()] == [_shape(v) for v in memo.values()]
    texts = {id(v[0]) for v in again.values()}
    assert len(texts) == len({id(v[0]) for v in memo.values()})  # one text, one object


def _shape(value: object) -> object:
    """A value with each record's class and each container's type made plain."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_shape(v) for v in value])
    if isinstance(value, (Event, Finding)):
        return (type(value).__name__, value, getattr(value, "source", None))
    return value
