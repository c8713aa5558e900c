"""memory-meta.json changed entry by entry.

The file can hold thousands of entries; re-serialising all of them for every accept
costs time under the lock and rewrites entries nobody touched (an agent that writes
`"sourceSeqs": [12, 13]` on one line would see every entry reformatted). Here only
the entries an operation names are rewritten, in the file's own indentation; every
other byte stays. Anything unusual (no "version" or "entries", an empty or compact
object, duplicate keys, odd indentation) falls back to `update_json`, which
re-serialises the whole file; the result is always checked to parse to exactly the
data meant.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from memtui.engine.layouts.dsh import META
from memtui.engine.ops.common import current_text, eol_of, update_json
from memtui.engine.ops.dsh_books import meta_entries
from memtui.engine.ops.dsh_json_dump import dumps_indented
from memtui.engine.write.transaction import Transaction


def update_meta(
    tx: Transaction,
    keys: Iterable[str],
    change: Callable[[dict[str, Any]], None],
    carried: dict[str, Any] | None = None,
) -> None:
    """Apply `change(entries)` to memory-meta.json's "entries"; it may add or change only
    the entries named in `keys`. `carried`: kept from one chunk of a bulk action to the
    next, so a file that is still exactly the text the last chunk wrote is not parsed again."""
    keys = list(dict.fromkeys(keys))
    tf = current_text(tx, META, must_exist=False)
    spliced = _splice(tf.text, keys, change, carried) if tf is not None else None
    if spliced is None:
        update_json(tx, META, lambda data: change(meta_entries(data)))
        return
    assert tf is not None
    tx.write(META, tf.encode(spliced))


def _splice(
    text: str,
    keys: list[str],
    change: Callable[[dict[str, Any]], None],
    carried: dict[str, Any] | None = None,
) -> str | None:
    """The new text, or None when the file is not laid out the usual way."""
    last = carried.pop(META, None) if carried is not None else None
    if last is not None and last[0] == text:
        data = last[1]  # what that text parses to: checked when it was written
    else:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return None  # update_json refuses it with the reason
    entries = data.get("entries") if isinstance(data, dict) else None
    if (
        not isinstance(entries, dict)
        or "version" not in data
        or len(entries) < 2
        or not all(isinstance(v, dict) for v in entries.values())
    ):
        return None
    spans = _entry_spans(text, len(entries))
    gap = spans.gap() if spans else None
    if spans is None or gap is None:
        return None
    before: dict[str, tuple[int, int]] = {}
    for key in keys:
        if key in entries:
            i = spans.index.get(_key(key))
            span = None if i is None else spans.value(i)
            if span is None:
                return None
            before[key] = span
    tail = spans.value(len(spans.starts) - 1)
    if tail is None:
        return None
    count = len(entries)
    change(entries)
    new_keys = [k for k in keys if k not in before and k in entries]
    if len(entries) != count + len(new_keys):
        return None  # change() added an entry it did not name
    eol, indent = eol_of(text), spans.indent

    def dump(value: Any) -> str:
        return dumps_indented(value, spans.unit).replace("\n", eol + indent)

    pieces, last = [], 0
    for key, (value_start, value_end) in sorted(before.items(), key=lambda kv: kv[1]):
        if json.loads(text[value_start:value_end]) == entries[key]:
            continue  # unchanged: its bytes stay, whatever their layout
        pieces += [text[last:value_start], dump(entries[key])]
        last = value_end
    added = "".join(f",{gap}{_key(k)}: {dump(entries[k])}" for k in new_keys)
    pieces += [text[last : tail[1]], added, text[tail[1] :]]
    out = "".join(pieces)
    try:
        if json.loads(out) != data:
            return None
    except ValueError:
        return None
    if carried is not None:
        carried[META] = (out, data)
    return out


_COLON = re.compile(r"[ \t]*:[ \t]*")
_KEY = r'("(?:[^"\\\n]|\\.)*")'


def _key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


class _Spans:
    """Where the entries are in a file laid out as json.dumps(indent=n) or
    JSON.stringify(…, null, n) lays it out; positions are worked out only for the
    entries asked about."""

    def __init__(self, text: str, unit: str, starts: list[int], keys: list[str], close: int):
        self.text, self.unit, self.indent = text, unit, unit * 2
        self.starts, self.close = starts, close
        self.index = {key: i for i, key in enumerate(keys)}

    def value(self, i: int) -> tuple[int, int] | None:
        """(start, end) of entry i's value; None if the text around it is unusual."""
        text = self.text
        colon = _COLON.match(text, text.index('"', self.starts[i] + 1) + 1)
        last = i == len(self.starts) - 1
        end = self.close if last else self.starts[i + 1]
        if colon is None:
            return None
        stop = len(text[colon.end() : end].rstrip(" \t\r\n")) + colon.end()
        if not last:
            if text[stop - 1] != ",":
                return None
            stop = len(text[colon.end() : stop - 1].rstrip(" \t\r\n")) + colon.end()
        return colon.end(), stop

    def gap(self) -> str | None:
        """The text between the first entry's comma and the second key."""
        first = self.value(0)
        if first is None:
            return None
        gap = self.text[self.text.index(",", first[1]) + 1 : self.starts[1]]
        return None if gap.strip() else gap


def _entry_spans(text: str, count: int) -> _Spans | None:
    first = re.search(r'\{[ \t]*\r?\n([ \t]+)"', text)
    if first is None:
        return None
    unit = first.group(1)
    opening = re.compile(rf'\n{re.escape(unit)}"entries"[ \t]*:[ \t]*\{{[ \t]*\r?\n')
    found = opening.search(text)
    close = text.find(f"\n{unit}}}", found.end() - 1) if found else -1
    if found is None or close < 0:
        return None
    # a literal prefix ("\n" and the indentation) lets the regex engine skip ahead fast
    key_line = re.compile(rf"\n{re.escape(unit * 2)}{_KEY}")
    matches = list(key_line.finditer(text, found.end() - 1, close + 1))
    if len(matches) != count:
        return None
    starts = [m.start(1) for m in matches]
    keys = [m.group(1) for m in matches]
    return _Spans(text, unit, starts, keys, close + 1)
