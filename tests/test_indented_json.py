"""The fast indented JSON writer used for memory-meta.json entries: the same text as
json.dumps(value, ensure_ascii=False, indent=unit) for every value, its fallback included."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.layouts.dsh.meta_dump import dumps_indented

UNITS = st.sampled_from(["  ", " ", "    ", "\t", ""])

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(value=values, unit=UNITS)
def test_it_writes_exactly_what_json_dumps_writes(value, unit):
    assert dumps_indented(value, unit) == json.dumps(value, ensure_ascii=False, indent=unit)


@settings(max_examples=100, deadline=None)
@given(
    value=st.recursive(
        scalars | st.tuples(st.integers()),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.integers() | st.booleans() | st.text(), inner, max_size=3)
        ),
        max_leaves=10,
    ),
    unit=UNITS,
)
def test_tuples_and_non_string_keys_fall_back_to_json_dumps(value, unit):
    assert dumps_indented(value, unit) == json.dumps(value, ensure_ascii=False, indent=unit)


def test_a_meta_entry_with_cjk_quotes_and_controls():
    entry = {
        "type": "sop",
        "evidence": 'uv pip list | grep "torch" → 2.4.0\n\tok\u2028',
        "sourceSeqs": [15, 19],
        "supersedes": [],
        "edited": {},
        "score": 0.1,
        "note": None,
        "active": True,
    }
    assert dumps_indented(entry, "  ") == json.dumps(entry, ensure_ascii=False, indent="  ")
