"""The dsh bookkeeping an operation plans with its change: provenance in
memory-meta.json, counts in memory_stats.json, index.txt's automatic segment, and
facts.md's sections as the counts and the index need them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from memtui.engine.ops.common import Refused, current_text, thresholds, update_json
from memtui.engine.textfile import line_count
from memtui.engine.write.transaction import Transaction
from memtui.i18n import msg
from memtui.layouts.dsh.parse import FACTS, INDEX, META, STATS, expected_auto
from memtui.layouts.dsh.store import (
    ARCHIVE_FACTS,
    ARCHIVE_PENDING,
    ARCHIVE_REJECTED,
    ARCHIVE_SOPS,
    PENDING,
    SOPS,
    count_files,
    md_files,
    stem,
)
from memtui.layouts.dsh.text import MarkerError, fact_sections, index_with_auto, section_names

# --- memory-meta.json ------------------------------------------------------------


def meta_entries(data: dict[str, Any]) -> dict[str, Any]:
    data.setdefault("version", 1)
    entries = data.setdefault("entries", {})
    if not isinstance(entries, dict) or not all(isinstance(v, dict) for v in entries.values()):
        raise Refused(
            msg('{META}: "entries" is not an object of objects; it is never overwritten', META=META)
        )
    return entries


def record_provenance(
    entries: dict[str, Any],
    key: str,
    kind: str,
    prov: dict[str, Any],
    now: str,
    supersedes: str | None = None,
    edited: list[str] | None = None,
) -> None:
    """Provenance of an accept (or a manual write): a new entry in the SPEC §3 shape, or the
    latest fields of an existing one updated and the acceptance added to its `accepted`
    list (the earlier acceptance goes first into that list). Unknown keys are kept."""
    record = {
        "from": prov["acceptedFrom"],
        "evidence": prov["evidence"],
        "sourceSession": prov["sourceSession"],
        "sourceSeqs": prov["sourceSeqs"],
        "at": now,
    }
    if edited:
        record["edited"] = edited
    entry = entries.get(key)
    if entry is None:
        entry = entries[key] = {
            "type": kind,
            "status": "active",
            "evidence": prov["evidence"],
            "sourceSession": prov["sourceSession"],
            "sourceSeqs": prov["sourceSeqs"],
            "createdAt": prov["createdAt"] or now,
            "updatedAt": now,
            "acceptedFrom": prov["acceptedFrom"],
            "supersedes": [],
        }
        if edited:
            entry["editedOnAccept"] = edited
    else:
        history = entry.get("accepted")
        if not isinstance(history, list):
            history = [] if history is None else [history]
            if entry.get("acceptedFrom") or entry.get("evidence"):
                history.append(
                    {
                        "from": entry.get("acceptedFrom"),
                        "evidence": entry.get("evidence"),
                        "sourceSession": entry.get("sourceSession"),
                        "sourceSeqs": entry.get("sourceSeqs"),
                        "at": entry.get("updatedAt") or entry.get("createdAt"),
                    }
                )
        history.append(record)
        entry.setdefault("type", kind)
        entry.update(
            status="active",
            evidence=prov["evidence"],
            sourceSession=prov["sourceSession"],
            sourceSeqs=prov["sourceSeqs"],
            updatedAt=now,
            acceptedFrom=prov["acceptedFrom"],
            accepted=history,
        )
        entry.setdefault("createdAt", prov["createdAt"] or now)
        if edited:
            entry["editedOnAccept"] = edited
        else:
            entry.pop("editedOnAccept", None)
    if supersedes is not None:
        add_supersedes(entry, supersedes)


def add_supersedes(entry: dict[str, Any], path: str) -> None:
    chain = entry.get("supersedes")
    if not isinstance(chain, list):
        chain = [] if chain is None else [chain]
    chain.append(path)
    entry["supersedes"] = chain


Tokens = dict[tuple[str, int], str]  # (rel, version) -> its placeholder


def snapshot_token(tx: Transaction, rel: str, tokens: Tokens, version: int = 0) -> str:
    """A placeholder for the snapshot path of `rel` (see Transaction; `version` k > 0:
    of the k-th version this transaction plans for it, Transaction.write's `versions`),
    kept in `tokens`; plain ASCII, so JSON writes it as it is."""
    key = (rel, version)
    if key not in tokens:
        tokens[key] = f"<memtui-snapshot:{tx.txid}:{len(tokens)}>"
    return tokens[key]


def fill_snapshot_paths(tx: Transaction, rel: str, tokens: Tokens) -> None:
    """Once the snapshots exist, swap each placeholder planned in `rel` for the real
    path of the snapshot (one pass over the bytes, however many there are)."""
    if not tokens:
        return
    sources = dict(enumerate(tokens))  # token number -> the file it stands for
    pattern = re.compile(rb"<memtui-snapshot:" + re.escape(tx.txid.encode()) + rb":(\d+)>")

    def finish(where: Callable[[str], str]) -> None:
        def path(match: re.Match[bytes]) -> bytes:
            found = where(*sources[int(match.group(1))])
            return json.dumps(found, ensure_ascii=False)[1:-1].encode("utf-8")

        tx.replan(rel, pattern.sub(path, tx.planned(rel)))

    tx.after_snapshots(finish)


# --- memory_stats.json -----------------------------------------------------------


@dataclass
class Counts:
    facts: int
    sections: int
    sops: int
    pending: int
    accepted: int = 0  # changes this transaction makes
    rejected: int = 0
    archived: int = 0
    maintenance: str | None = None


def plan_stats(tx: Transaction, counts: Counts) -> None:
    """memory_stats.json with the counts refreshed (unknown keys kept; a counter the file
    lacks starts from what archive/ holds)."""
    root = tx.root

    def mutate(data: dict[str, Any]) -> None:
        data["facts"] = counts.facts
        if "factSections" in data:
            data["factSections"] = counts.sections
        data["sops"] = counts.sops
        data["pending"] = counts.pending
        for key, delta, folders in (
            ("accepted", counts.accepted, (ARCHIVE_PENDING,)),
            ("rejected", counts.rejected, (ARCHIVE_REJECTED,)),
            ("archived", counts.archived, (ARCHIVE_SOPS, ARCHIVE_FACTS)),
        ):
            value = data.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                value = count_files(root, *folders)
            data[key] = max(0, value + delta)
        data.setdefault("rollbacks", 0)
        if counts.maintenance:
            data["lastMaintenance"] = counts.maintenance
        else:
            data.setdefault("lastMaintenance", None)

    update_json(tx, STATS, mutate)


# --- facts.md and index.txt ------------------------------------------------------


@dataclass
class FactsState:
    names: list[str]
    count: int


Sections = list[tuple[str, Any, tuple[int, ...]]]


def read_facts(
    tx: Transaction, carried: dict[str, Any] | None = None
) -> tuple[Any, FactsState, Sections]:
    """facts.md as it is now (None if absent), its section names and fact count, and
    its parsed sections. `carried`: an earlier chunk's (text, sections), used while the
    file is still exactly that text."""
    tf = current_text(tx, FACTS, must_exist=False)
    if tf is None:
        return None, FactsState([], 0), []
    last = carried.pop(FACTS, None) if carried is not None else None
    if last is not None and last[0] == tf.text and last[1] is not None:
        found = last[1]
    else:
        found = fact_sections(tf.text)
    return tf, FactsState(section_names(found), sum(len(n) for _, _, n in found)), found


def sop_names(root: str, add: Iterable[str] = (), drop: Iterable[str] = ()) -> list[str]:
    """The sops in sops/ now, plus `add` and minus `drop` (what the plan creates or moves)."""
    names = {stem(rel) for rel in md_files(root, SOPS)}
    return sorted((names | set(add)) - set(drop))


def plan_index(
    tx: Transaction, sections: list[str], sops: list[str], auto: list[str] | None = None
) -> dict[str, Any] | None:
    """index.txt with its automatic segment rebuilt, if that changes it: the details
    (lines before and after); None when it is already current. `auto`: the segment's
    lines to write instead (a restore putting back what an archive found there)."""
    tf = current_text(tx, INDEX, must_exist=False)
    old = tf.text if tf else ""
    try:
        new = index_with_auto(old, expected_auto(sections, sops) if auto is None else auto)
    except MarkerError as exc:
        raise Refused(str(exc)) from None
    if tf is not None and new == old:
        return None
    tx.write(INDEX, tf.encode(new) if tf else new.encode("utf-8"))
    return {"index_lines_before": line_count(old), "index_lines_after": line_count(new)}


def plan_books(
    tx: Transaction,
    counts: Counts,
    sections: list[str],
    sops: list[str],
    auto: list[str] | None = None,
) -> dict[str, Any] | None:
    """What follows every change of facts or sops: memory_stats.json (`counts`), then
    index.txt's automatic segment (`auto`: see plan_index); the index details (None:
    it was current)."""
    plan_stats(tx, counts)
    return plan_index(tx, sections, sops, auto)


def l1_cap(root: str) -> int:
    """The index.txt line cap (SPEC §3: 30; memtui.toml may change it)."""
    return thresholds(root).l1_max_lines


def counts(tx: Transaction, facts: FactsState, sops: list[str], **changes: Any) -> Counts:
    """Counts for memory_stats.json: facts and sops as planned, pending as on disk."""
    pending = len(md_files(tx.root, PENDING))
    return Counts(facts.count, len(facts.names), len(sops), pending, **changes)
