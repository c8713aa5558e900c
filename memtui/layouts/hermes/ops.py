"""Changes to a Hermes home's MEMORY.md / USER.md (SPEC §3b hermes), each one
transaction that also holds Hermes' own per-file lock (`memories/MEMORY.md.lock`).

A change touches only its entry's characters (and the § separator beside it), and
every file it writes is checked against Hermes' own parse and join: it must give
exactly the entries meant, and not drift (hermes_rules.drift), or nothing is
written. Archiving takes the entry out and keeps it, with its place, in
`memories/archived.jsonl`, which Hermes never reads; a restore puts it back there.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

from memtui.engine.identity import check_shown, split_expect
from memtui.engine.ops.common import Refused, eol_of, thresholds
from memtui.engine.ops.lines import check_root, encode, load
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict, Receipt, Transaction, WriteError
from memtui.i18n import msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.data import ARCHIVE, configured_limits

_REF = re.compile(r"(memory|user)#([1-9]\d{0,5})")


def parse_ref(name: str) -> tuple[str, int]:
    """`memory#3` -> ("memory", 3); Refused if it names no entry of either file."""
    match = _REF.fullmatch(name.strip())
    if match is None:
        raise Refused(
            msg(
                "hermes:{name} is not a Hermes entry id (hermes:memory#N or hermes:user#N)",
                name=name,
            )
        )
    return match.group(1), int(match.group(2))


def hold(tx: Transaction, rel: str) -> None:
    """Hermes' own lock for `rel` too (layout.locks), before the file is read."""
    from memtui.engine.layouts import registry
    from memtui.engine.paths import LOCK_NAME

    for name in registry()["hermes"].locks(rel):
        if name != LOCK_NAME:  # the transaction holds that one already
            tx.lock(name)


def limit_of(tx: Transaction, target: str) -> int:
    """The target's limit as Hermes reads config.yaml now (its defaults if unusable)."""
    limit = rules.DEFAULT_LIMITS[target]
    try:
        raw = tx.read(rules.CONFIG)
    except WriteError:  # a config memtui cannot read: Hermes falls back the same way
        return limit
    if raw is None:
        return limit
    return configured_limits(raw.decode("utf-8-sig", "replace"))[0][target]


def open_file(
    tx: Transaction, target: str, *, drifting: bool = False
) -> tuple[str, TextFile | None, int]:
    """(file, its text now under both locks, its limit). Refused if Hermes would refuse
    to rewrite it (drift), unless `drifting` (a replay checks that as Hermes does)."""
    rel = rules.FILES[target]
    hold(tx, rel)
    tf = load(tx, rel, thresholds(tx.root), must_exist=False)
    limit = limit_of(tx, target)
    why = rules.drift(tf.text, limit) if tf is not None and not drifting else None
    if why:
        raise Refused(
            msg(
                "{rel}: Hermes would refuse to rewrite this file, {why}; fix "
                "it in an editor first (memtui check shows the line); nothing "
                "was changed",
                rel=rel,
                why=why,
            )
        )
    return rel, tf, limit


def checked(rel: str, new: str, expected: list[str], limit: int) -> None:
    """Refused unless Hermes would read `new` as exactly `expected` and not drift."""
    got = rules.split_entries(new)
    if got != expected:
        raise Refused(
            msg(
                "{rel}: Hermes would read {count:,} entries where {count2:,} "
                "are meant (an entry may not hold a line that is only §); "
                "nothing was changed",
                rel=rel,
                count=len(got),
                count2=len(expected),
            )
        )
    why = rules.drift(new, limit)
    if why:
        raise Refused(
            msg(
                "{rel}: Hermes would refuse to write the result, {why}; nothing was changed",
                rel=rel,
                why=why,
            )
        )


def _piece(tf: TextFile | None, rel: str, target: str, n: int) -> rules.Piece:
    found = rules.pieces(tf.text) if tf else []
    if n > len(found):
        raise Refused(
            msg(
                "no entry hermes:{target}#{n} ({rel} has {count:,} entries)",
                target=target,
                n=n,
                rel=rel,
                count=len(found),
            )
        )
    return found[n - 1]


def _in_eol(text: str, whole: str) -> str:
    return text.replace("\n", "\r\n") if eol_of(whole) == "\r\n" else text


def edit_entry(
    root: str,
    entry_id: str,
    new_text: str,
    *,
    seen_text: str | None = None,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """Replace one entry's text (stripped, as Hermes stores it); nothing else moves."""
    name, expect = split_expect(entry_id.strip().removeprefix("hermes:"), expect)
    target, n = parse_ref(name)
    new = new_text.strip() if isinstance(new_text, str) else ""
    if not new:
        raise Refused(
            msg(
                "{entry_id}: the new text is empty; archive the entry to take it out",
                entry_id=entry_id,
            )
        )
    check_root(root)
    with Transaction(root, "edit", details={"entry": f"hermes:{name}"}, dry_run=dry_run) as tx:
        rel, tf, limit = open_file(tx, target)
        try:
            piece = _piece(tf, rel, target, n)
        except Refused:
            if seen_text is None:
                raise
            raise Conflict(
                msg(
                    "hermes:{name} is no longer in {rel} (the agent removed "
                    "entries since you read it?); nothing was changed — reload and "
                    "try again",
                    name=name,
                    rel=rel,
                )
            ) from None
        assert tf is not None
        old = tf.text[piece.start : piece.stop]
        if seen_text is not None and old.strip() != seen_text.strip():
            raise Conflict(
                msg(
                    "hermes:{name} changed since you read it (the agent wrote "
                    "{rel}); nothing was changed — reload and try again",
                    name=name,
                    rel=rel,
                )
            )
        check_shown(f"hermes:{name}", old, expect, rel)
        text = tf.text[: piece.start] + _in_eol(new, tf.text) + tf.text[piece.stop :]
        expected = [p.text for p in rules.pieces(tf.text)]
        expected[n - 1] = rules.hermes_view(new)
        checked(rel, text, expected, limit)
        tx.details["file"] = rel
        if text != tf.text:
            tx.write(rel, tf.encode(text))
        return tx.commit()


def add_entry(root: str, target: str, text: str, *, dry_run: bool = False) -> Receipt:
    """Append an entry as Hermes' add does: refused if it exists or is over the limit."""
    if target not in rules.FILES:
        raise Refused(msg("{target!r}: a Hermes entry goes to memory or user", target=target))
    new = text.strip() if isinstance(text, str) else ""
    if not new:
        raise Refused(msg("the entry is empty; nothing was added"))
    check_root(root)
    with Transaction(root, "add-entry", details={"target": target}, dry_run=dry_run) as tx:
        rel, tf, limit = open_file(tx, target)
        old = tf.text if tf else ""
        entries = rules.split_entries(old)
        if rules.hermes_view(new) in entries:
            raise Refused(msg("{rel} already holds this entry; Hermes adds no duplicate", rel=rel))
        expected = [*entries, rules.hermes_view(new)]
        total = rules.char_count(rules.dedupe(expected))
        if total > limit:
            raise Refused(
                msg(
                    "{rel} would hold {total:,} of its {limit:,} characters; "
                    "Hermes refuses an add over the limit (archive or shorten an "
                    "entry first); nothing was changed",
                    rel=rel,
                    total=total,
                    limit=limit,
                )
            )
        body = old.rstrip()
        sep = _in_eol(rules.DELIMITER, old) if body else ""
        new_text = body + sep + _in_eol(new, old)
        checked(rel, new_text, expected, limit)
        tx.details.update(file=rel, entry=f"hermes:{target}#{len(expected)}")
        tx.write(rel, encode(tf, new_text))
        return tx.commit()


def _without(text: str, found: list[rules.Piece], i: int) -> str:
    """`text` with entry i and one separator beside it taken out."""
    piece = found[i]
    if i > 0:
        return text[: found[i - 1].stop] + text[piece.stop :]
    if len(found) > 1:
        return text[: piece.start] + text[found[1].start :]
    return text[: piece.start] + text[piece.stop :]


def remove_entry(
    root: str, entry_id: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """Take one entry out for good (its old file stays in .history/)."""
    return _take_out(root, entry_id, expect, dry_run, keep=False)


def archive_entry(
    root: str, name: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """Take one entry out, keeping it and its place in memories/archived.jsonl."""
    return _take_out(root, name, expect, dry_run, keep=True)


def _take_out(root: str, ref: str, expect: str | None, dry_run: bool, keep: bool) -> Receipt:
    name, expect = split_expect(ref.strip().removeprefix("hermes:"), expect)
    target, n = parse_ref(name)
    check_root(root)
    op = "archive-entry" if keep else "remove-entry"
    with Transaction(root, op, details={"entry": f"hermes:{name}"}, dry_run=dry_run) as tx:
        rel, tf, limit = open_file(tx, target)
        piece = _piece(tf, rel, target, n)
        assert tf is not None
        old = tf.text[piece.start : piece.stop]
        check_shown(f"hermes:{name}", old, expect, rel)
        found = rules.pieces(tf.text)
        text = _without(tf.text, found, n - 1)
        checked(rel, text, [p.text for j, p in enumerate(found) if j != n - 1], limit)
        tx.write(rel, tf.encode(text))
        tx.details["file"] = rel
        if keep:
            when = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
            rid = hashlib.sha256(f"{target}\n{when}\n{old}".encode()).hexdigest()[:8]
            record = {"id": rid, "target": target, "index": n, "text": old, "archived_at": when}
            book = load(tx, ARCHIVE, thresholds(tx.root), must_exist=False)
            before = book.text if book else ""
            if before and not before.endswith("\n"):
                before += "\n"
            line = json.dumps(record, ensure_ascii=False) + "\n"
            tx.write(ARCHIVE, encode(book, before + line))
            tx.details.update(archived=f"hermes-archived:{rid}", to=ARCHIVE)
        return tx.commit()


def restore_entry(
    root: str, rid: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """Put an archived entry back at its old place (past the end: appended)."""
    rid, expect = split_expect(rid.strip(), expect)
    check_root(root)
    details = {"entry": f"hermes-archived:{rid}"}
    with Transaction(root, "restore-entry", details=details, dry_run=dry_run) as tx:
        book = load(tx, ARCHIVE, thresholds(tx.root), must_exist=False)
        lines = (book.text if book else "").split("\n")
        at = next((i for i, ln in enumerate(lines) if _record_id(ln) == rid), None)
        if at is None or book is None:
            raise Refused(
                msg(
                    "no archived entry hermes-archived:{rid} in {ARCHIVE}", rid=rid, ARCHIVE=ARCHIVE
                )
            )
        record = json.loads(lines[at])
        check_shown(f"hermes-archived:{rid}", lines[at], expect, ARCHIVE)
        target, entry, index = record["target"], str(record["text"]), int(record["index"])
        if target not in rules.FILES:
            raise Refused(
                msg(
                    "hermes-archived:{rid} names no Hermes file ({target!r})",
                    rid=rid,
                    target=target,
                )
            )
        rel, tf, limit = open_file(tx, target)
        old = tf.text if tf else ""
        found = rules.pieces(old)
        entries = [p.text for p in found]
        if rules.hermes_view(entry) in entries:
            raise Refused(
                msg(
                    "{rel} holds this entry again; the archived copy stays in {ARCHIVE}",
                    rel=rel,
                    ARCHIVE=ARCHIVE,
                )
            )
        place = min(max(index, 1), len(found) + 1) - 1
        expected = [*entries[:place], rules.hermes_view(entry), *entries[place:]]
        total = rules.char_count(rules.dedupe(expected))
        if total > limit:
            raise Refused(
                msg(
                    "{rel} would hold {total:,} of its {limit:,} characters, over "
                    "Hermes' limit; make room first; nothing was changed",
                    rel=rel,
                    total=total,
                    limit=limit,
                )
            )
        sep = _in_eol(rules.DELIMITER, old)
        if place < len(found):
            start = found[place].start
            text = old[:start] + _in_eol(entry, old) + sep + old[start:]
        else:  # after the last entry, before what ends the file (its final newline)
            body = old.rstrip()
            text = body + (sep if body else "") + _in_eol(entry, old) + old[len(body) :]
        checked(rel, text, expected, limit)
        tx.write(rel, encode(tf, text))
        rest = "\n".join(ln for i, ln in enumerate(lines) if i != at)
        if rest.strip():
            tx.write(ARCHIVE, book.encode(rest))
        else:  # the last archived entry is back: no bookkeeping file is left behind
            tx.remove(ARCHIVE)
        tx.details.update(file=rel, entry=f"hermes:{target}#{place + 1}")
        return tx.commit()


def _record_id(line: str) -> str | None:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return str(record.get("id")) if isinstance(record, dict) else None
