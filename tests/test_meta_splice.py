"""memory-meta.json changed entry by entry (ops.dsh_json._splice): whatever the
layout, the text written parses to exactly the entries meant, or the splice declines
(None) and the whole-file path takes over; it never writes a duplicate key or loses an
entry. (An entry written on another entry's line is invisible to the positions found:
a splice that trusted them appended a change to it as a second entry of that name.)"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.layouts.dsh.meta_json import _splice

KEYS = ["fact:A", "fact:é", "sop:deploy", "fact:中文", 'sop:x"y', "fact:B"]


def _meta(entries: dict[str, Any], ascii_keys: bool = False) -> str:
    return json.dumps({"version": 1, "entries": entries}, indent=2, ensure_ascii=ascii_keys)


def _change(keys: list[str]):
    def change(entries: dict[str, Any]) -> None:
        for key in keys:
            entries.setdefault(key, {"type": "fact"})["status"] = "changed"

    return change


def _expected(text: str, keys: list[str]) -> dict[str, Any]:
    data = json.loads(text)
    _change(keys)(data["entries"])
    return data


def _entries(n: int) -> dict[str, Any]:
    return {KEYS[i % len(KEYS)] + str(i // len(KEYS)): {"type": "fact", "n": i} for i in range(n)}


def test_the_usual_file_is_spliced_and_keeps_every_other_byte():
    entries = _entries(6)
    entries["fact:A0"] = {"type": "fact", "sourceSeqs": [1, 2]}
    text = _meta(entries).replace(
        '"sourceSeqs": [\n        1,\n        2\n      ]', '"sourceSeqs": [1, 2]'
    )
    assert '"sourceSeqs": [1, 2]' in text
    keys = ["fact:B0", "fact:new"]
    out = _splice(text, keys, _change(keys))
    assert out is not None
    assert json.loads(out) == _expected(text, keys)
    assert '"sourceSeqs": [1, 2]' in out  # an entry not named keeps its own layout


def test_keys_the_file_escapes_are_still_its_keys():
    """json.dump's default (ensure_ascii) writes `"fact:\\u00e9"`: entries not named
    are found by their spelling; the change still splices."""
    text = _meta(_entries(6), ascii_keys=True)
    keys = ["fact:A0"]
    out = _splice(text, keys, _change(keys))
    assert out is not None and json.loads(out) == _expected(text, keys)
    assert "\\u00e9" in out  # the other keys keep their spelling


def test_a_named_key_the_file_escapes_is_never_written_twice():
    text = _meta(_entries(6), ascii_keys=True)
    keys = ["fact:é0"]  # in the file as "fact:\u00e90"
    out = _splice(text, keys, _change(keys))
    assert out is None or json.loads(out) == _expected(text, keys)
    if out is not None:
        assert out.count("fact:") == text.count("fact:")


def test_an_entry_the_layout_hides_makes_it_decline():
    """Two entries on one line: the splice cannot see the second one; it declines."""
    text = _meta(_entries(4)).replace('},\n    "sop:deploy0"', '}, "sop:deploy0"')
    assert json.loads(text)["entries"]["sop:deploy0"]
    keys = ["fact:é0"]
    out = _splice(text, keys, _change(keys))
    assert out is None or json.loads(out) == _expected(text, keys)


def test_a_duplicate_key_makes_it_decline():
    text = _meta(_entries(4)).replace('"fact:é0"', '"fact:A0"')
    assert _splice(text, ["fact:A0"], _change(["fact:A0"])) is None
    assert _splice(text, ["fact:B9"], _change(["fact:B9"])) is None


def test_an_entry_that_is_no_object_makes_it_decline():
    text = _meta({**_entries(4), "fact:odd": [1, 2]})
    assert _splice(text, ["fact:A0"], _change(["fact:A0"])) is None


@settings(max_examples=400, deadline=None)
# an entry hidden on the line of the last one, then changed: never appended a second time
@example(n=4, named=[3], ascii_keys=False, indent=1, squeeze=2, dup=False)
# a hidden duplicate inside a named entry's span: declined, never an exception
@example(n=3, named=[0], ascii_keys=False, indent=1, squeeze=0, dup=True)
@given(
    n=st.integers(2, 14),
    named=st.lists(st.integers(0, 20), min_size=1, max_size=5),
    ascii_keys=st.booleans(),
    indent=st.sampled_from([1, 2, 4, "\t"]),
    squeeze=st.integers(0, 13),
    dup=st.booleans(),
)
def test_whatever_the_layout_it_writes_the_entries_meant_or_declines(
    n, named, ascii_keys, indent, squeeze, dup
):
    entries = _entries(n)
    text = json.dumps({"version": 1, "entries": entries}, indent=indent, ensure_ascii=ascii_keys)
    names = list(entries)
    if squeeze < n - 1:  # put one entry on the line of the one before it
        nxt = json.dumps(names[squeeze + 1], ensure_ascii=ascii_keys)
        text = text.replace(f"}},\n{text.split(nxt)[0].rsplit(chr(10), 1)[1]}{nxt}", f"}}, {nxt}")
    if dup and n > 2:  # the same key twice
        second = json.dumps(names[1], ensure_ascii=ascii_keys)
        text = text.replace(second, json.dumps(names[0], ensure_ascii=ascii_keys), 1)
    keys = list(dict.fromkeys(names[i] if i < n else f"fact:new{i}" for i in named))
    out = _splice(text, keys, _change(keys))
    if out is None:
        return  # declined: the whole-file path decides
    assert json.loads(out) == _expected(text, keys)
    held = json.loads(text)["entries"]  # (a duplicate in the text: one entry)
    raw_pairs = out.count('": {')  # no entry was written twice
    assert raw_pairs == text.count('": {') + sum(1 for k in keys if k not in held)


@given(st.text())
def test_a_key_is_quoted_as_json_dumps_quotes_it(key):
    from memtui.layouts.dsh.meta_json import _key

    assert _key(key) == json.dumps(key, ensure_ascii=False)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 10), which=st.integers(0, 9), indent=st.sampled_from([1, 2, 4, "\t"]))
def test_an_entry_taken_out_leaves_every_other_byte(n, which, indent):
    """A restore takes out the entry its archive added: the text is as before that, and
    any other entry taken out goes with its own lines only (the first one: declined)."""
    entries = {f"fact:中文{i}": {"type": "fact", "n": i} for i in range(n)}
    entries["fact:中文0"]["sourceSeqs"] = [1, 2]
    text = json.dumps({"version": 1, "entries": entries}, indent=indent, ensure_ascii=False)
    text = text.replace("[\n" + text.split("[\n")[1].split("]")[0] + "]", "[1, 2]")  # inline
    added = _splice(text, ["fact:new"], _change(["fact:new"]))
    assert added is not None
    assert _splice(added, ["fact:new"], lambda e: e.pop("fact:new")) == text
    key = list(entries)[which % n]
    out = _splice(text, [key], lambda e: e.pop(key))
    if which % n == 0:
        assert out is None
        return
    assert out is not None and json.loads(out) == {
        "version": 1,
        "entries": {k: v for k, v in entries.items() if k != key},
    }
    head = next(i for i, (a, b) in enumerate(zip(text, out, strict=False)) if a != b)
    assert text.endswith(out[head:]) and "[1, 2]" in out  # one run of text went
