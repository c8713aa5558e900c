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

from memtui.engine.layouts.dsh import META
from memtui.engine.ops.common import current_text, eol_of, update_json
from memtui.engine.ops.dsh_books import Tokens, meta_entries
from memtui.engine.ops.dsh_json_dump import dumps_indented
from memtui.engine.textfile import BOM
from memtui.engine.write.transaction import Transaction


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
    """Apply `change(entries)` to memory-meta.json's "entries"; it may add or change only
    the entries named in `keys`, and may be given only those (the others unparsed).
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

    A file met for the first time is not parsed whole before the change: the entries
    named are parsed from their own text, changed, and spliced in; the result is then
    parsed whole once and must hold exactly the entries the file held, in its order
    (then every entry not named is its own unchanged text) with each named one as
    changed. A 2 MB file's second parse and comparison were a twentieth of an accept."""
    last = carried.pop(META, None) if carried is not None else None
    ours = isinstance(last, _Written) and last.text == text  # as the last chunk wrote it
    if ours:
        data = last.data  # what that text parses to: checked when it was written
        entries = data["entries"]
        spans = last.spans
    else:
        found = _entry_spans(text)
        if found is None or len(found.keys) < 2 or len(set(found.keys)) != len(found.keys):
            return None
        spans, entries = found, {}
    gap = spans.gap()
    if gap is None:
        return None
    before: dict[str, tuple[int, int]] = {}
    old: dict[str, Any] = {}  # a named entry as it was (to leave an unchanged one be)
    for key in keys:
        i = spans.index.get(_key(key))
        if i is None:
            if ours and key in entries:
                return None  # spelt otherwise in the file (escaped): not found by its name
            continue  # new (or spelt otherwise: the whole parse below finds it twice)
        span = spans.value(i)
        if span is None:
            return None
        before[key] = span
        if not ours:
            try:
                old[key] = json.loads(text[span[0] : span[1]])
                entries[key] = json.loads(text[span[0] : span[1]])
            except (ValueError, RecursionError):
                return None
            if not isinstance(entries[key], dict):
                return None
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

    pieces, at, edits, written = [], 0, [], []
    for key, (value_start, value_end) in sorted(before.items(), key=lambda kv: kv[1]):
        was = old[key] if not ours else json.loads(text[value_start:value_end])
        if was == entries[key]:
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
        data = _checked(out, spans.keys, new_keys, entries)
        if data is None:
            return None
    if carried is not None and carry_on:
        moved = spans.moved(out, edits)
        moved.extend(tail[1] + sum(n - (e - s) for s, e, n in edits), added)
        carried[META] = _Written(out, data, moved, keys, bom=False)
    return out


def _checked(
    out: str, quoted: list[str], new_keys: list[str], named: dict[str, Any]
) -> dict[str, Any] | None:
    """What `out` parses to, if it is the usual file (a "version", "entries" an object
    of objects) holding the entries `quoted` (JSON-quoted, in order) then `new_keys`,
    each entry in `named` as it is there; else None."""
    try:
        data = json.loads(out)
    except (ValueError, RecursionError):
        return None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, dict) or "version" not in data:
        return None
    if len(entries) != len(quoted) + len(new_keys):
        return None
    if [_key(k) for k in entries] != [*quoted, *(_key(k) for k in new_keys)]:
        # a key the file spells otherwise (`\u00e9` for `é`) is the same key
        spelt = [json.loads(q) for q in quoted]
        if list(entries) != [*spelt, *new_keys]:
            return None
    if not all(type(v) is dict for v in entries.values()):
        return None
    if any(entries.get(key) != value for key, value in named.items()):
        return None
    return data


_COLON = re.compile(r"[ \t]*:[ \t]*")
_KEY = r'("(?:[^"\\\n]|\\.)*")'


# A key as json.dumps(key, ensure_ascii=False) quotes it, by the C escaper that call
# uses (without json.dumps's encoder object: the whole file's keys are checked).
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


def _entry_spans(text: str, count: int | None = None) -> _Spans | None:
    """The entries' positions (every `"key":` line at the entries' indentation); None
    when they are not laid out so, or (`count` given) there are not `count` of them."""
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
    if count is not None and len(matches) != count:
        return None
    starts = [m.start(1) for m in matches]
    keys = [m.group(1) for m in matches]
    return _Spans(text, unit, starts, keys, close + 1)
