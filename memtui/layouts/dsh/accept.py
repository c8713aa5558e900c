"""Accepting dsh candidates, in chunks that each are one transaction (dsh_chunks).

A chunk takes the lock, re-reads everything it changes (the agent may have written
since the last chunk), plans candidates (at most `chunk_size`, if given), and stops
once the planning time plus the expected commit time reaches `chunk_seconds`, so the
agent never waits on memtui for much more than a second, but not before it planned as
long as rewriting the books takes (dsh_chunks.stop: on a large store a chunk is larger,
so the books are rewritten a few times, not once per thousand candidates). Each file
is written at most once per chunk: facts.md, memory-meta.json, memory_stats.json and
index.txt, plus one file per sop and one rename per candidate. A sop accepted twice in
one chunk is written once, with its last text; the text before it is kept in .history/
as a version it had.
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.ops.common import Refused, now_iso
from memtui.engine.textfile import BOM
from memtui.engine.words import clauses
from memtui.engine.write.transaction import Receipt, Transaction, WriteError
from memtui.i18n import msg
from memtui.layouts.dsh.books import (
    Counts,
    Tokens,
    fill_snapshot_paths,
    plan_books,
    read_facts,
    record_provenance,
    snapshot_token,
    sop_names,
)
from memtui.layouts.dsh.chunks import Pace, chunked, precheck, stop, targets
from memtui.layouts.dsh.meta_json import carry_snapshot_paths, update_meta
from memtui.layouts.dsh.parse import FACTS, INDEX, META
from memtui.layouts.dsh.store import (
    ARCHIVE_PENDING,
    PENDING,
    SOPS,
    Candidate,
    begin,
    check_expected,
    free_name,
    md_files,
    normalise_expected,
    read_candidate,
    validate,
)
from memtui.layouts.dsh.text import add_facts, body_facts, sections_after

BOOKS = (FACTS, META, INDEX)  # what every chunk rewrites whole, however small it is


def accept(
    root: str | os.PathLike[str],
    ids: Any = None,
    *,
    all_pending: bool = False,
    target: str | None = None,
    entry_type: str | None = None,
    body: str | None = None,
    expected: Any = None,
    dry_run: bool = False,
    chunk_size: int | None = None,
    chunk_seconds: float = 0.8,
) -> list[Receipt]:
    """Accept candidates into memory (SPEC §3); one receipt per chunk ([] if none pending).

    With target/entry_type/body, the one candidate named is edited, then accepted.
    A refusable candidate (no evidence, broken front matter, a target that leaves the
    root) is reported in details["refused"], or raises Refused when it is the only one
    asked for. A dry run plans everything as one chunk."""
    root = os.path.realpath(os.fspath(root))
    edits = {"target": target, "entry_type": entry_type, "body": body}
    edited = any(v is not None for v in edits.values())
    rels = targets(root, ids, all_pending)
    if edited and (all_pending or len(rels) != 1):
        raise Refused(msg("target, entry_type and body edit exactly one candidate"))
    if entry_type is not None and entry_type not in ("fact", "sop"):
        raise Refused(
            msg("entry_type must be fact or sop, not {entry_type!r}", entry_type=entry_type)
        )
    if target is not None and not str(target).strip():
        raise Refused(msg("the edited target is empty"))
    if not rels:
        return []
    wanted = normalise_expected(expected)
    single = not all_pending and len(rels) == 1
    precheck(root, rels, wanted)

    carried: dict[str, Any] = {}  # parsed books, from one chunk to the next

    def run(queue: deque[str], pace: Pace, number: int) -> Receipt:
        tx = begin(root, "accept", dry_run)
        with tx:
            started = time.monotonic()
            plan = _AcceptPlan(tx, number, carried)
            while queue:
                if not dry_run and stop(
                    plan.taken, started, pace, plan.writes, chunk_size, chunk_seconds, len(queue)
                ):
                    break
                cand = validate(read_candidate(tx, queue[0]), edits)
                check_expected(cand.rel, cand.raw, wanted)
                _check_body(tx, cand)
                queue.popleft()
                plan.taken += 1
                if cand.problem:
                    if single:
                        raise Refused(
                            msg("candidate {id} {problem}", id=cand.id, problem=cand.problem)
                        )
                    plan.refused.append({"id": cand.id, "reason": cand.problem})
                    continue
                plan.add(cand)
            finishing = time.monotonic()
            plan.finish(last=not queue)
            books = time.monotonic() - finishing
            receipt = tx.commit()
            pace.learn(time.monotonic() - finishing, plan.writes, books)
        return receipt

    return chunked(deque(rels), run, Pace.for_books(root, BOOKS))


def _check_body(tx: Transaction, cand: Candidate) -> None:
    """Refuse an empty body; for a sop, read the file it creates or supersedes."""
    if cand.problem is None and cand.entry_type == "fact" and not body_facts(cand.body):
        cand.problem = "has no fact in its body (a fact is a `- ` line)"
    if cand.problem or cand.entry_type != "sop":
        return
    if not cand.body.strip():
        cand.problem = "has an empty body; a sop needs its text"
        return
    try:
        cand.existing = tx.read(f"{SOPS}/{cand.target}.md")
    except WriteError as exc:  # a link, or a name that leaves the root
        cand.problem = f"has target {cand.target!r}: {exc}"


@dataclass
class _AcceptPlan:
    tx: Transaction
    number: int
    carried: dict[str, Any]  # what earlier chunks parsed (dsh_json.update_meta)
    taken: int = 0
    writes: int = 0  # files the commit writes with fsync (sops and their snapshots)
    accepted: list[Candidate] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    facts: dict[str, list[str]] = field(default_factory=dict)  # section -> fact texts
    sops: dict[str, bool] = field(default_factory=dict)  # name -> superseded an old one
    versions: dict[str, list[bytes]] = field(default_factory=dict)  # name -> its new texts
    moved: dict[str, str] = field(default_factory=dict)  # candidate id -> where it went
    _taken_names: set[str] = field(default_factory=set)

    def add(self, cand: Candidate) -> None:
        tx = self.tx
        assert cand.target is not None
        if cand.entry_type == "fact":
            self.facts.setdefault(cand.target, []).extend(body_facts(cand.body))
        else:
            old = cand.existing
            data = cand.body.encode("utf-8")
            versions = self.versions.setdefault(cand.target, [])
            versions.append(BOM + data if old and old.startswith(BOM) else data)
            self.sops.setdefault(cand.target, old is not None)
            self.writes += 2 if old is not None or len(versions) > 1 else 1
        dst = free_name(tx.root, ARCHIVE_PENDING, cand.id, self._taken_names)
        tx.move(cand.rel, dst)
        self.moved[cand.id] = dst
        self.accepted.append(cand)

    def finish(self, last: bool) -> None:
        """Plan the books; `last`: the last chunk, whose writes are not carried on."""
        tx = self.tx
        details = tx.details
        for name, versions in self.versions.items():
            # A sop accepted more than once: the last text is written, each one before
            # it is kept in .history/ after the current one, so every version stays.
            tx.write(f"{SOPS}/{name}.md", versions[-1], versions=versions[:-1])
        if not self.accepted:
            details.update(
                summary=msg("accepted nothing; refused {n}", n=len(self.refused)),
                accepted=[],
                refused=self.refused,
            )
            return
        tf, state, found = read_facts(tx, self.carried)
        names, count = state.names, state.count
        facts_report: dict[str, Any] = {}
        if tf is not None and not last:
            self.carried[FACTS] = (tf.text, found)
        if self.facts:
            old = tf.text if tf else ""
            edit = add_facts(old, self.facts, found)
            if edit.text != old:
                tx.write(FACTS, tf.encode(edit.text) if tf else edit.text.encode("utf-8"))
                if not last:
                    self.carried[FACTS] = (edit.text, sections_after(found, old, edit))
            names, count = edit.names, edit.count
            facts_report = {
                "facts_added": edit.added,
                "sections_created": edit.created,
                "duplicates_skipped": [f"{s}: {f}" for s, f in edit.skipped],
            }
        now = now_iso()
        tokens: Tokens = {}

        def mutate(entries: dict[str, Any]) -> None:
            planned: dict[str, int] = {}  # sop -> its versions recorded so far
            for cand in self.accepted:
                assert cand.entry_type is not None and cand.target is not None
                supersedes = None
                if cand.entry_type == "sop":
                    rel = f"{SOPS}/{cand.target}.md"
                    version = planned[cand.target] = planned.get(cand.target, -1) + 1
                    if version or self.sops[cand.target]:
                        supersedes = snapshot_token(tx, rel, tokens, version)
                key = f"{cand.entry_type}:{cand.target}"
                prov = cand.provenance()
                record_provenance(entries, key, cand.entry_type, prov, now, supersedes, cand.edited)

        keys = [f"{c.entry_type}:{c.target}" for c in self.accepted]
        update_meta(tx, keys, mutate, self.carried, carry_on=not last)
        fill_snapshot_paths(tx, META, tokens)
        carry_snapshot_paths(tx, tokens, self.carried)
        sops = sop_names(tx.root, add=self.sops)
        listed = set(md_files(tx.root, PENDING))
        pending = len(listed - {c.rel for c in self.accepted})
        stats = Counts(count, len(names), len(sops), pending, accepted=len(self.accepted))
        index = plan_books(tx, stats, names, sops) or {}
        created = [n for n, old in self.sops.items() if not old]
        superseded = [n for n, old in self.sops.items() if old]
        parts = []
        if facts_report.get("facts_added"):
            added = facts_report["facts_added"]
            n, into = sum(added.values()), ", ".join(added)
            parts.append(msg("{n} fact line(s) into {sections}", n=n, sections=into))
        if created:
            parts.append(msg("{n} new sop(s)", n=len(created)))
        if superseded:
            parts.append(msg("{n} sop(s) superseded (old text in .history/)", n=len(superseded)))
        head = msg("accepted {n} candidate(s)", n=len(self.accepted))
        if parts:
            head = msg("{head}: {parts}", head=head, parts=clauses(parts))
        said = [head]
        if self.refused:
            said.append(msg("refused {n}", n=len(self.refused)))
        if index:
            said.append(msg("index rebuilt"))
        details.update(summary=clauses(said), chunk=self.number)
        details["accepted"] = [c.id for c in self.accepted]
        if self.refused:
            details["refused"] = self.refused
        details.update({k: v for k, v in facts_report.items() if v})
        if created:
            details["sops_created"] = created
        if superseded:
            details["sops_superseded"] = superseded
        edited = {c.id: c.edited for c in self.accepted if c.edited}
        if edited:
            details["edited"] = edited
        details["archived_to"] = f"{ARCHIVE_PENDING}/"
        renamed = {i: p for i, p in self.moved.items() if p != f"{ARCHIVE_PENDING}/{i}.md"}
        if renamed:  # an earlier candidate of that id is archived already
            details["archived_as"] = renamed
        details.update(index)
