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
from dataclasses import dataclass, replace
from json.encoder import encode_basestring  # the C escaper where there is one
from typing import Any

from memtui.engine.ops.common import current_text, eol_of, update_json
from memtui.engine.textfile import BOM
from memtui.engine.write.transaction import Transaction
from memtui.layouts.dsh.books import Tokens, meta_entries
from memtui.layouts.dsh.meta_dump import dumps_indented
from memtui.layouts.dsh.parse import META


@dataclass(frozen=True)
class _Written:
    """What a chunk wrote to memory-meta.json: its text, what that parses to (checked
    when it was written) and where its entries are, for the next chunk of a bulk action."""

    text: str
    data: dict[str, Any]
    spans: _Spans
    keys: list[str]  # the entries that chunk changed
    bom: bool


def update_meta(
    tx: Transaction,
    keys: Iterable[str],
    change: Callable[[dict[str, Any]], None],
    carried: dict[str, Any] | None = None,
    carry_on: bool = True,
) -> None:
    """Apply `change(entries)` to memory-meta.json's "entries"; it may add, change or take
    out only the entries named in `keys`.
    `carried`: kept from one chunk of a bulk action to the next, so a file that is still
    exactly the text the last chunk wrote is neither parsed nor searched again;
    `carry_on` False (the last chunk) uses what was carried but carries nothing on."""
    keys = list(dict.fromkeys(keys))
    tf = current_text(tx, META, must_exist=False)
    spliced = _splice(tf.text, keys, change, carried, carry_on) if tf is not None else None
    if spliced is None:
        update_json(tx, META, lambda data: change(meta_entries(data)))
        return
    assert tf is not None
    tx.write(META, tf.encode(spliced))
    if carried is not None and META in carried:
        carried[META] = replace(carried[META], bom=tf.bom)


def carry_snapshot_paths(tx: Transaction, tokens: Tokens, carried: dict[str, Any]) -> None:
    """After dsh_books.fill_snapshot_paths: what is carried to the next chunk becomes the
    text as written, each placeholder replaced by its snapshot's path, in the text, the
    parsed entries and the positions alike (dropped if the bytes written differ)."""
    if not tokens or not isinstance(carried.get(META), _Written):
        return

    def finish(where: Callable[[str], str]) -> None:
        last: _Written = carried.pop(META)
        paths = {token: where(*source) for source, token in tokens.items()}
        found = re.compile(re.escape(f"<memtui-snapshot:{tx.txid}:") + r"\d+>")
        text, edits, pieces, at = last.text, [], [], 0
        for match in found.finditer(text):
            new = json.dumps(paths[match.group()], ensure_ascii=False)[1:-1]
            pieces += [text[at : match.start()], new]
            edits.append((match.start(), match.end(), len(new)))
            at = match.end()
        final = "".join([*pieces, text[at:]])
        body = final.encode("utf-8")
        if (BOM + body if last.bom else body) != tx.planned(META):
            return  # not what is written: the next chunk reads the file afresh
        entries = last.data["entries"]
        for key in last.keys:
            if key in entries:
                entries[key] = _replaced(entries[key], found, paths)
        carried[META] = _Written(final, last.data, last.spans.moved(final, edits), [], last.bom)

    tx.after_snapshots(finish)


def _replaced(value: Any, found: re.Pattern[str], paths: dict[str, str]) -> Any:
    if isinstance(value, str):
        return found.sub(lambda m: paths[m.group()], value)
    if isinstance(value, list):
        return [_replaced(v, found, paths) for v in value]
    if isinstance(value, dict):
        return {k: _replaced(v, found, paths) for k, v in value.items()}
    return value


def _splice(
    text: str,
    keys: list[str],
    change: Callable[[dict[str, Any]], None],
    carried: dict[str, Any] | None = None,
    carry_on: bool = True,
) -> str | None:
    """The new text, or None when the file is not laid out the usual way.

    The file is parsed whole first: an entry the layout hides from the positions found
    (written on another entry's line) must make the splice decline, or a change to it
    would be appended as a second entry of that name (tests/test_meta_splice.py)."""
    last = carried.pop(META, None) if carried is not None else None
    ours = isinstance(last, _Written) and last.text == text  # as the last chunk wrote it
    if ours:
        data = last.data  # what that text parses to: checked when it was written
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
    spans = last.spans if ours else _entry_spans(text)
    if spans is None or len(spans.keys) != len(entries):
        return None
    gap = spans.gap()
    if gap is None:
        return None
    before: dict[str, tuple[int, int]] = {}
    old: dict[str, Any] = {}  # a named entry as it was (to leave an unchanged one be)
    for key in keys:
        if key in entries:
            i = spans.index.get(_key(key))
            span = None if i is None else spans.value(i)
            if span is None:
                return None
            before[key] = span
            try:  # a span holding more than its value: the layout hid an entry
                old[key] = json.loads(text[span[0] : span[1]])
            except (ValueError, RecursionError):
                return None
    tail = spans.value(len(spans.starts) - 1)
    if tail is None:
        return None
    count = len(entries)
    change(entries)
    new_keys = [k for k in keys if k not in before and k in entries]
    gone = [k for k in before if k not in entries]
    if len(entries) != count + len(new_keys) - len(gone):
        return None  # change() added an entry it did not name
    if gone and (new_keys or carried is not None):
        return None  # an entry taken out (a restore's) comes alone
    eol, indent = eol_of(text), spans.indent

    def dump(value: Any) -> str:
        return dumps_indented(value, spans.unit).replace("\n", eol + indent)

    cuts = []  # an entry taken out: from the end of the value before it to its own end
    for key in gone:
        i = spans.index[_key(key)]
        prev = spans.value(i - 1) if i else None
        if prev is None:
            return None
        cuts.append((prev[1], before[key][1], key))
    pieces, at, edits, written = [], 0, [], []
    changed = [(s, e, k) for k, (s, e) in before.items() if k not in gone]
    for value_start, value_end, key in sorted(changed + cuts):
        if key in gone:
            pieces.append(text[at:value_start])
            at = value_end
            continue
        if old[key] == entries[key]:
            continue  # unchanged: its bytes stay, whatever their layout
        new = dump(entries[key])
        pieces += [text[at:value_start], new]
        edits.append((value_start, value_end, len(new)))
        written.append((new, key))
        at = value_end
    added = [(f",{gap}{_key(k)}: ", dump(entries[k]), k) for k in new_keys]
    pieces += [text[at : tail[1]], *(head + body for head, body, _ in added), text[tail[1] :]]
    out = "".join(pieces)
    if ours:
        # Our own text, its entries where we put them: each piece written must parse to
        # its entry (the whole file was checked when the last chunk wrote it)
        if any(json.loads(new) != entries[key] for new, key in written):
            return None
        if any(json.loads(body) != entries[key] for _, body, key in added):
            return None
    else:
        try:
            if json.loads(out) != data:
                return None
        except ValueError:
            return None
    if carried is not None and carry_on:
        moved = spans.moved(out, edits)
        moved.extend(tail[1] + sum(n - (e - s) for s, e, n in edits), added)
        carried[META] = _Written(out, data, moved, keys, bom=False)
    return out


_COLON = re.compile(r"[ \t]*:[ \t]*")
_KEY = r'("(?:[^"\\\n]|\\.)*")'


# A key as json.dumps(key, ensure_ascii=False) quotes it, by the C escaper that call
# uses (without json.dumps's encoder object, for each key a bulk accept names).
_key = encode_basestring


class _Spans:
    """Where the entries are in a file laid out as json.dumps(indent=n) or
    JSON.stringify(…, null, n) lays it out; positions are worked out only for the
    entries asked about."""

    def __init__(self, text: str, unit: str, starts: list[int], keys: list[str], close: int):
        self.text, self.unit, self.indent = text, unit, unit * 2
        self.starts, self.close, self.keys = starts, close, keys
        self.index = {key: i for i, key in enumerate(keys)}

    def moved(self, text: str, edits: list[tuple[int, int, int]]) -> _Spans:
        """The same entries in `text`: this text with each (start, end) span, in order and
        none holding a key, replaced by `length` characters."""
        starts, shift, i = [], 0, 0
        for start in self.starts:
            while i < len(edits) and edits[i][1] <= start:
                shift += edits[i][2] - (edits[i][1] - edits[i][0])
                i += 1
            starts.append(start + shift)
        total = shift + sum(n - (e - s) for s, e, n in edits[i:])
        return _Spans(text, self.unit, starts, list(self.keys), self.close + total)

    def extend(self, at: int, added: list[tuple[str, str, str]]) -> None:
        """Entries appended at `at` after the last one: (text before the key, the value
        text, the key) each; the text they close with moves on by their length."""
        for head, body, key in added:
            quoted = _key(key)
            self.starts.append(at + len(head) - len(quoted) - 2)
            self.index[quoted] = len(self.keys)
            self.keys.append(quoted)
            at += len(head) + len(body)
            self.close += len(head) + len(body)

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


def _entry_spans(text: str) -> _Spans | None:
    """The entries' positions (every `"key":` line at the entries' indentation); None
    when they are not laid out so."""
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
    starts = [m.start(1) for m in matches]
    keys = [m.group(1) for m in matches]
    return _Spans(text, unit, starts, keys, close + 1)
