"""dsh memory written by hand: add, update (supersede), and the index rebuild (archive
and restore: dsh_archive). Each is one transaction."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from memtui.engine.ops.common import Refused, now_iso
from memtui.engine.textfile import BOM, line_count
from memtui.engine.words import clauses
from memtui.engine.write.files import sha256
from memtui.engine.write.transaction import Conflict, Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.dsh.books import (
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
from memtui.layouts.dsh.meta_json import update_meta
from memtui.layouts.dsh.parse import FACTS, META
from memtui.layouts.dsh.store import SOPS, begin, refuse_path, section_problem, sop_name_problem
from memtui.layouts.dsh.text import add_facts, body_facts

MANUAL = "manual"


def _manual(evidence: Any) -> dict[str, Any]:
    if not isinstance(evidence, str) or not evidence.strip():
        raise Refused(msg("memory needs evidence: how was it verified? (No Execution, No Memory)"))
    return {
        "evidence": evidence.strip(),
        "sourceSession": None,
        "sourceSeqs": [],
        "createdAt": None,
        "acceptedFrom": MANUAL,
    }


def check_evidence(evidence: Any) -> None:
    """Refused unless it says how the memory was verified (No Execution, No Memory)."""
    _manual(evidence)


def _body_bytes(body: str | bytes, old: bytes | None) -> bytes:
    data = body if isinstance(body, bytes) else body.encode("utf-8")
    return BOM + data if old and old.startswith(BOM) and not data.startswith(BOM) else data


def _meta(tx: Transaction, key: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change one memory-meta.json entry (`change` gets the entries object)."""
    update_meta(tx, [key], change)


def _index_summary(said: str, index: dict[str, Any] | None) -> str:
    """`said`, and that the index was rebuilt if it was."""
    return clauses([said, msg("index rebuilt")]) if index else said


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
        summary=msg(
            "index.txt automatic segment rebuilt: {sections:,} fact section(s), {sops:,} "
            "sop(s); {before:,} → {after:,} lines",
            sections=len(state.names),
            sops=len(sops),
            before=index["index_lines_before"],
            after=after,
        ),
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
        raise Refused(msg("fact section: {replace}", replace=problem.replace("target ", "")))
    section = section.strip()
    facts = body_facts(text or "")
    if not facts:
        raise Refused(msg("no fact given"))
    tx = begin(root, "add-fact", dry_run)
    with tx:
        tf, _, found = read_facts(tx)
        old = tf.text if tf else ""
        edit = add_facts(old, {section: facts}, found)
        if not edit.added:
            raise Refused(
                msg(
                    "{section} already holds {value}",
                    section=section,
                    value="these facts" if len(facts) > 1 else "it",
                )
            )
        tx.write(FACTS, tf.encode(edit.text) if tf else edit.text.encode("utf-8"))
        state = FactsState(edit.names, edit.count)
        index = _record_added(tx, ("fact", section), prov, state, sop_names(tx.root))
        n = edit.added[section]
        said = (
            msg("{n} fact line(s) added to new section {section}", n=n, section=section)
            if edit.created
            else msg("{n} fact line(s) added to {section}", n=n, section=section)
        )
        tx.details.update(
            summary=_index_summary(said, index),
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
        raise Refused(msg("sop name: {replace}", replace=problem.replace("target ", "")))
    if not body.strip():
        raise Refused(msg("the sop text is empty"))
    tx = begin(root, "add-sop", dry_run)
    with tx:
        rel = refuse_path(f"{SOPS}/{name}.md", tx.root)
        if tx.read(rel) is not None:
            raise Refused(
                msg(
                    "sop:{name} exists already; update it instead (old text to .history/)",
                    name=name,
                )
            )
        tx.write(rel, _body_bytes(body, None), mode=tx.LIKE_SIBLINGS)  # the user's own text
        _, state, _ = read_facts(tx)
        index = _record_added(tx, ("sop", name), prov, state, sop_names(tx.root, add={name}))
        said = _index_summary(msg("sop {name} written", name=name), index)
        tx.details.update(summary=said, sop=name)
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
        raise Refused(msg("sop name: {replace}", replace=problem.replace("target ", "")))
    tx = begin(root, "update-sop", dry_run)
    with tx:
        rel = refuse_path(f"{SOPS}/{name}.md", tx.root)
        old = tx.read(rel)
        if old is None:
            raise Refused(
                msg("sop:{name} does not exist (add it, or accept a candidate)", name=name)
            )
        if expected is not None and sha256(old) != expected:
            raise Conflict(
                msg(
                    "{rel} changed since you opened it (by the agent?); nothing "
                    "was changed — reload and edit again",
                    rel=rel,
                )
            )
        new = _body_bytes(body, old)
        if new == old:
            said = msg("sop {name} unchanged", name=name)
            tx.details.update(summary=said, sop=name, unchanged=True)
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
            summary=msg("sop {name} updated (the old text is kept in .history/)", name=name),
            sop=name,
            lines_before=line_count(old.decode("utf-8", "replace")),
            lines_after=line_count(new.decode("utf-8", "replace")),
        )
        return tx.commit()
