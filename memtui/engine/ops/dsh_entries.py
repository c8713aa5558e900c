"""dsh memory written or moved by hand: add, update (supersede), archive, restore,
and the index rebuild. Each is one transaction."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from memtui.engine.identity import check_shown, check_shown_bytes, split_expect
from memtui.engine.layouts.dsh import FACTS, META
from memtui.engine.ops.common import Refused, current_text, now_iso
from memtui.engine.ops.dsh_books import (
    FactsState,
    Tokens,
    add_supersedes,
    counts,
    fill_snapshot_paths,
    l1_cap,
    plan_books,
    plan_index,
    read_facts,
    record_provenance,
    snapshot_token,
    sop_names,
)
from memtui.engine.ops.dsh_json import update_meta
from memtui.engine.ops.dsh_store import (
    ARCHIVE_SOPS,
    SOPS,
    archived_section,
    begin,
    check_entry,
    refuse_path,
    section_problem,
    sop_name_problem,
)
from memtui.engine.ops.dsh_text import (
    add_facts,
    append_block,
    body_facts,
    cut_span,
    fact_sections,
    section_names,
)
from memtui.engine.textfile import BOM, line_count
from memtui.engine.write.files import sha256
from memtui.engine.write.transaction import Conflict, Receipt, Transaction

MANUAL = "manual"


def _manual(evidence: Any) -> dict[str, Any]:
    if not isinstance(evidence, str) or not evidence.strip():
        raise Refused("memory needs evidence: how was it verified? (No Execution, No Memory)")
    return {
        "evidence": evidence.strip(),
        "sourceSession": None,
        "sourceSeqs": [],
        "createdAt": None,
        "acceptedFrom": MANUAL,
    }


def _body_bytes(body: str | bytes, old: bytes | None) -> bytes:
    data = body if isinstance(body, bytes) else body.encode("utf-8")
    return BOM + data if old and old.startswith(BOM) and not data.startswith(BOM) else data


def _meta(tx: Transaction, key: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change one memory-meta.json entry (`change` gets the entries object)."""
    update_meta(tx, [key], change)


def _index_summary(index: dict[str, Any] | None) -> str:
    return "; index rebuilt" if index else ""


def _plan_books(
    tx: Transaction, state: FactsState, sops: list[str], **changes: Any
) -> dict[str, Any] | None:
    """memory_stats.json and index.txt follow the planned facts and sops; the index
    details (None: it was current already)."""
    return plan_books(tx, counts(tx, state, sops, **changes), state.names, sops)


def _record_added(
    tx: Transaction,
    entry: tuple[str, str],
    prov: dict[str, Any],
    state: FactsState,
    sops: list[str],
) -> dict[str, Any] | None:
    """An entry added by hand: its provenance in memory-meta.json, then the books."""
    kind, name = entry
    now = now_iso()
    key = f"{kind}:{name}"
    _meta(tx, key, lambda entries: record_provenance(entries, key, kind, prov, now))
    return _plan_books(tx, state, sops)


def _move_sop(
    tx: Transaction, name: str, *, restoring: bool, expect: str | None = None
) -> tuple[str, str, FactsState, list[str]]:
    """sops/NAME.md to archive/sops/ (or back, restoring), never over an existing file;
    (from, to, the facts, the sops after the move) for the books. `expect`: the
    fingerprint of the file moved, as shown."""
    live = refuse_path(f"{SOPS}/{name}.md", tx.root)
    kept = refuse_path(f"{ARCHIVE_SOPS}/{name}.md", tx.root)
    src, dst = (kept, live) if restoring else (live, kept)
    raw = tx.read(src)
    check_shown_bytes(f"sop:{name}", raw, expect, src)
    if raw is None:
        raise Refused(
            f"sop:{name} is not archived ({src} does not exist)"
            if restoring
            else f"sop:{name} does not exist"
        )
    if os.path.lexists(os.path.join(tx.root, dst)):
        raise Refused(
            f"{dst} exists again; restore refused (not overwritten)"
            if restoring
            else f"{dst} exists already (an earlier archive); not overwritten"
        )
    tx.move(src, dst)
    _, state, _ = read_facts(tx)
    sops = sop_names(tx.root, add={name}) if restoring else sop_names(tx.root, drop={name})
    return src, dst, state, sops


def _finish_move(
    tx: Transaction,
    entry: tuple[str, str],
    books: tuple[FactsState, list[str]],
    fields: dict[str, Any],
    summary: str,
    **details: Any,
) -> Receipt:
    """The rest of an archive or a restore: the entry's status `fields` in
    memory-meta.json, the counts (fields["status"] decides archived +1 or -1), the
    index and the details; then the commit."""
    kind, name = entry
    key = f"{kind}:{name}"

    def change(entries: dict[str, Any]) -> None:
        entries.setdefault(key, {"type": kind}).update(fields)

    _meta(tx, key, change)
    archived = 1 if fields["status"] == "archived" else -1
    index = _plan_books(tx, *books, archived=archived)
    tx.details.update(summary=summary + _index_summary(index), entry=key, **details)
    tx.details.update(index or {})
    return tx.commit()


# --- the index -------------------------------------------------------------------


def rebuild_index(root: str | os.PathLike[str], *, dry_run: bool = False) -> Receipt | None:
    """index.txt's automatic segment rebuilt from facts.md and sops/ (None: already
    current). Only the segment changes; [RULES] and every other line stay. It is
    rebuilt even when the result is over the L1 cap: details then say so."""
    tx = begin(root, "index", dry_run)
    with tx:
        return tx.commit() if plan_rebuild_index(tx) else None


def plan_rebuild_index(tx: Transaction) -> bool:
    """rebuild_index planned into `tx` (False: the segment is current already)."""
    _, state, _ = read_facts(tx)
    sops = sop_names(tx.root)
    index = plan_index(tx, state.names, sops)
    if index is None:
        return False
    cap = l1_cap(tx.root)
    after = index["index_lines_after"]
    tx.details.update(
        summary=f"index.txt automatic segment rebuilt: {len(state.names):,} fact "
        f"section(s), {len(sops):,} sop(s); {index['index_lines_before']:,} → {after:,} lines",
        **index,
    )
    if after > cap:
        tx.details["warning"] = (
            f"index.txt has {after:,} lines, over the {cap:,}-line L1 cap: "
            "trim [RULES] or archive entries"
        )
    return True


# --- adding by hand --------------------------------------------------------------


def add_fact(
    root: str | os.PathLike[str],
    section: str,
    text: str,
    evidence: str,
    *,
    dry_run: bool = False,
) -> Receipt:
    """Fact line(s) appended to `## section` of facts.md (created at the end if missing);
    provenance acceptedFrom "manual"; the index and counts follow."""
    prov = _manual(evidence)
    problem = section_problem(section)
    if problem:
        raise Refused(f"fact section: {problem.replace('target ', '')}")
    section = section.strip()
    facts = body_facts(text or "")
    if not facts:
        raise Refused("no fact given")
    tx = begin(root, "add-fact", dry_run)
    with tx:
        tf, _, found = read_facts(tx)
        old = tf.text if tf else ""
        edit = add_facts(old, {section: facts}, found)
        if not edit.added:
            raise Refused(f"{section} already holds {'these facts' if len(facts) > 1 else 'it'}")
        tx.write(FACTS, tf.encode(edit.text) if tf else edit.text.encode("utf-8"))
        state = FactsState(edit.names, edit.count)
        index = _record_added(tx, ("fact", section), prov, state, sop_names(tx.root))
        where = f"new section {section}" if edit.created else section
        tx.details.update(
            summary=f"{edit.added[section]} fact line(s) added to {where}" + _index_summary(index),
            section=section,
            facts_added=edit.added[section],
        )
        if edit.skipped:
            tx.details["duplicates_skipped"] = [f for _, f in edit.skipped]
        tx.details.update(index or {})
        return tx.commit()


def add_sop(
    root: str | os.PathLike[str],
    name: str,
    body: str | bytes,
    evidence: str,
    *,
    dry_run: bool = False,
) -> Receipt:
    """A new sops/<name>.md written as given (Refused if it exists: use update_sop)."""
    prov = _manual(evidence)
    problem = sop_name_problem(name)
    if problem:
        raise Refused(f"sop name: {problem.replace('target ', '')}")
    if not body.strip():
        raise Refused("the sop text is empty")
    tx = begin(root, "add-sop", dry_run)
    with tx:
        rel = refuse_path(f"{SOPS}/{name}.md", tx.root)
        if tx.read(rel) is not None:
            raise Refused(f"sop:{name} exists already; update it instead (old text to .history/)")
        tx.write(rel, _body_bytes(body, None), mode=tx.LIKE_SIBLINGS)  # the user's own text
        _, state, _ = read_facts(tx)
        index = _record_added(tx, ("sop", name), prov, state, sop_names(tx.root, add={name}))
        tx.details.update(summary=f"sop {name} written" + _index_summary(index), sop=name)
        tx.details.update(index or {})
        return tx.commit()


def update_sop(
    root: str | os.PathLike[str],
    name: str,
    body: str | bytes,
    *,
    expected: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """sops/<name>.md replaced (supersede): the old bytes go to .history/ through the
    transaction and memory-meta.json appends that snapshot's path to `supersedes`.
    `expected`: sha256 of the version the user edited (Conflict if it changed since)."""
    problem = sop_name_problem(name)
    if problem:
        raise Refused(f"sop name: {problem.replace('target ', '')}")
    tx = begin(root, "update-sop", dry_run)
    with tx:
        rel = refuse_path(f"{SOPS}/{name}.md", tx.root)
        old = tx.read(rel)
        if old is None:
            raise Refused(f"sop:{name} does not exist (add it, or accept a candidate)")
        if expected is not None and sha256(old) != expected:
            raise Conflict(
                f"{rel} changed since you opened it (by the agent?); nothing was changed — "
                "reload and edit again"
            )
        new = _body_bytes(body, old)
        if new == old:
            tx.details.update(summary=f"sop {name} unchanged", sop=name, unchanged=True)
            return tx.commit()
        tx.write(rel, new)
        now = now_iso()
        tokens: Tokens = {}
        token = snapshot_token(tx, rel, tokens)

        def change(entries: dict[str, Any]) -> None:
            entry = entries.setdefault(f"sop:{name}", {"type": "sop", "status": "active"})
            entry["status"] = "active"
            entry["updatedAt"] = now
            add_supersedes(entry, token)

        _meta(tx, f"sop:{name}", change)
        fill_snapshot_paths(tx, META, tokens)
        tx.details.update(
            summary=f"sop {name} updated (the old text is kept in .history/)",
            sop=name,
            lines_before=line_count(old.decode("utf-8", "replace")),
            lines_after=line_count(new.decode("utf-8", "replace")),
        )
        return tx.commit()


# --- archive and restore ---------------------------------------------------------


def archive(
    root: str | os.PathLike[str],
    entry_id: str,
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """fact:SECTION (its block cut from facts.md to archive/facts/SECTION.md) or sop:name
    (sops/name.md moved to archive/sops/); status archived in memory-meta.json.
    `expect` (or `@FINGERPRINT` after the id): the entry's fingerprint as shown."""
    entry_id, expect = split_expect(entry_id, expect)
    kind, name = check_entry(entry_id)
    tx = begin(root, "archive", dry_run)
    with tx:
        if kind == "fact":
            state, moved = _archive_section(tx, name, expect)
            sops = sop_names(tx.root)
        else:
            _, moved, state, sops = _move_sop(tx, name, restoring=False, expect=expect)
        fields = {"status": "archived", "archivedAt": now_iso(), "archivedTo": moved}
        summary = f"{kind}:{name} archived to {moved}"
        return _finish_move(tx, (kind, name), (state, sops), fields, summary, archived_to=moved)


def _archive_section(tx: Transaction, name: str, expect: str | None) -> tuple[FactsState, str]:
    tf = current_text(tx, FACTS, must_exist=False)
    found = fact_sections(tf.text) if tf else []
    spans = [span for n, span, _ in found if n == name]
    if tf is None or not spans:
        check_shown(f"fact:{name}", None, expect, FACTS)
        raise Refused(f"facts.md has no section {name!r}")
    # fact:NAME is shown as its first section (entries.resolve); all of them move
    check_shown(f"fact:{name}", tf.text[spans[0].char_start : spans[0].char_stop], expect, FACTS)
    dst = refuse_path(archived_section(name), tx.root)
    if os.path.lexists(os.path.join(tx.root, dst)):
        raise Refused(f"{dst} exists already (an earlier archive); restore or rename it first")
    text, pieces = tf.text, list[str]()
    for span in reversed(spans):
        text, piece = cut_span(text, span)
        pieces.insert(0, piece)
    tx.write(FACTS, tf.encode(text))
    tx.write(dst, "".join(pieces).encode("utf-8"), expect=None)
    left = [(n, s, nums) for n, s, nums in found if n != name]
    return FactsState(section_names(left), sum(len(nums) for _, _, nums in left)), dst


def restore(
    root: str | os.PathLike[str],
    entry_id: str,
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """The reverse of archive: the section goes back to the end of facts.md, the sop back
    to sops/; Refused when that section or sop exists again meanwhile. `expect`: the
    fingerprint of the archived file, as shown."""
    entry_id, expect = split_expect(entry_id, expect)
    kind, name = check_entry(entry_id)
    tx = begin(root, "restore", dry_run)
    with tx:
        if kind == "fact":
            src = refuse_path(archived_section(name), tx.root)
            block = current_text(tx, src, must_exist=False)
            check_shown(f"fact:{name}", block.text if block else None, expect, src)
            if block is None:
                raise Refused(f"fact:{name} is not archived ({src} does not exist)")
            tf, state, _ = read_facts(tx)
            if name in state.names:
                raise Refused(f"facts.md has a section {name!r} again; restore refused")
            text = block.text
            if name not in section_names(fact_sections(text)):
                text = f"## {name}\n{text}"
            old = tf.text if tf else ""
            new = append_block(old, text)
            tx.write(FACTS, tf.encode(new) if tf else new.encode("utf-8"))
            tx.remove(src)
            found = fact_sections(new)
            state = FactsState(section_names(found), sum(len(n) for _, _, n in found))
            sops = sop_names(tx.root)
            target = FACTS
        else:
            src, target, state, sops = _move_sop(tx, name, restoring=True, expect=expect)
        fields = {"status": "active", "restoredAt": now_iso()}
        summary = f"{kind}:{name} restored from {src} to {target}"
        return _finish_move(tx, (kind, name), (state, sops), fields, summary, restored_from=src)
