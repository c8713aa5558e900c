"""dsh's pending candidates as its approval queue (engine.queue): each candidate a
QueueItem; previewed by a dry run of accept, approved by accept (edit-then-accept
with `target`, `entry_type`, `body`), rejected by reject (layouts.dsh.ops)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from memtui.engine.queue import FileChange, QueueItem, QueuePreview
from memtui.engine.records import maker
from memtui.engine.words import clauses, commas, dotted
from memtui.i18n import N_, msg
from memtui.layouts.dsh.parse import META, STATS

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt
    from memtui.layouts.dsh.candidate import Candidate
    from memtui.layouts.dsh.model import Dsh

NO_EVIDENCE = N_("no evidence — cannot be accepted")
EDITS = ("target", "entry_type", "body")  # accept's edit-then-accept options
# Files a preview shows first: what the user reads; the bookkeeping after.
FIRST = ("facts.md", "sops/")


def items(store: Store, data: Dsh) -> list[QueueItem]:
    """A row per candidate, in file order; each made whole (fingerprint, detail, JSON)
    only when a face asks (10,000 candidates on a large store)."""
    provenance = data.provenance
    return [_item(cand, partial(_whole, cand, provenance)) for cand in data.candidates]


def _item(cand: Candidate, rest: Any, whole: tuple[Any, ...] = ("", (), None, None)) -> QueueItem:
    no_evidence = cand.valid and not (cand.evidence and cand.evidence.strip())
    fp, fields, body, own_json = whole
    return _new_item(  # every field in order (records.maker): 10,000 a snapshot
        f"pending:{cand.id}",  # id
        "dsh",  # layout
        cand.entry_type or "?",  # action
        cand.target or "?",  # target
        cand.evidence or "",  # summary
        cand.file,
        None,  # line
        cand.created_at,  # created
        None,  # origin
        cand.problem,
        False,  # read_only
        False,  # records_refusal
        fp,  # fingerprint
        fields,
        cand.id,  # name
        NO_EVIDENCE if no_evidence else None,  # note
        not cand.valid,  # broken
        body,
        own_json,
        rest,
    )


def _whole(cand: Candidate, provenance: Mapping[str, Any]) -> QueueItem:
    from memtui.engine.identity import fingerprint  # the write path's: asked for an action

    tf = cand.source
    seqs = commas([str(s) for s in cand.source_seqs]) or "—"
    session = msg("{session} · seqs {seqs}", session=cand.source_session or "—", seqs=seqs)
    fields = ((N_("session"), session), (N_("target"), _provenance(cand, provenance)))
    fp = fingerprint(tf.text) if tf is not None else ""
    return _item(cand, None, (fp, fields, cand.body, cand.to_json))


_new_item = maker(QueueItem)  # 10,000 candidates on a large store


def _provenance(cand: Candidate, provenance: Mapping[str, Any]) -> str:
    """The target's record in memory-meta.json, as the detail shows it."""
    key = f"{cand.entry_type}:{cand.target}"
    prov = provenance.get(key)
    if not isinstance(prov, Mapping):
        new = cand.entry_type in ("fact", "sop") and cand.target
        return msg("new (no provenance yet)") if new else "—"
    parts = [msg("{key} is {status}", key=key, status=prov.get("status", "?"))]
    for said, name in (
        (N_("evidence {value}"), "evidence"),
        (N_("from {value}"), "acceptedFrom"),
        (N_("session {value}"), "sourceSession"),
        (N_("updated {value}"), "updatedAt"),
    ):
        value = prov.get(name)
        if value not in (None, "", []):
            parts.append(msg(said, value=value))
    chain = prov.get("supersedes")
    if isinstance(chain, list) and chain:
        parts.append(msg("supersedes {n:,} version(s)", n=len(chain)))
    return dotted(parts)


def blocked(store: Store) -> str | None:
    """A bookkeeping file every accept updates, if it does not parse (so no accept can)."""
    found = next(
        (f.file for f in store.findings if f.code == "json-invalid" and f.file in (META, STATS)),
        None,
    )
    return None if found is None else f"no accept until {found} parses"


def preview(root: str, ids: list[str]) -> QueuePreview:
    """What accepting these candidates at once would change now (a dry run: nothing is
    written), file by file, the files the user reads first; or why it is refused."""
    from memtui.engine.diff import unified
    from memtui.engine.write.transaction import WriteError
    from memtui.layouts.dsh import ops

    shown = ids[0] if len(ids) == 1 else f"{len(ids):,} candidates"
    try:
        receipts = ops.accept(root, ids, dry_run=True)
    except WriteError as exc:  # a refusal (no evidence, ...) or a conflict
        return QueuePreview(shown, "", error=str(exc))
    changes: list[FileChange] = []
    summaries: list[str] = []
    for receipt in receipts:
        summary = receipt.details.get("summary")
        if isinstance(summary, str):
            summaries.append(summary)
        for change in receipt.changes:
            diff = ""
            if change.action == "write":
                diff = unified(_decode(change.old), _decode(change.new), change.path)
            changes.append(FileChange(change.action, change.path, change.source, diff))
    changes.sort(key=lambda c: (c.action != "write", not c.path.startswith(FIRST)))
    return QueuePreview(shown, "", summary=clauses(summaries), changes=tuple(changes))


def approve(root: str, ids: list[str], **shown: Any) -> list[Receipt]:
    """Accept candidates (SPEC §3), edited first with `target`, `entry_type`, `body`."""
    from memtui.layouts.dsh import ops

    edits = {k: shown[k] for k in EDITS if shown.get(k) is not None}
    expected = _expected(root, ids, shown)
    return ops.accept(root, ids, expected=expected, dry_run=bool(shown.get("dry_run")), **edits)


def reject(root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
    """Move candidates to archive/rejected/, the reason in their front matter."""
    from memtui.layouts.dsh import ops

    expected = _expected(root, ids, shown)
    return ops.reject(root, ids, reason, expected=expected, dry_run=bool(shown.get("dry_run")))


def _expected(root: str, ids: list[str], shown: Mapping[str, Any]) -> dict[str, str]:
    """The fingerprints shown, by the file each id names (a candidate whose front matter
    names another id than its file's is found by it)."""
    from memtui.layouts.dsh.store import resolve_ids

    expected = dict(shown.get("expected") or {})
    if shown.get("expect") is not None and len(ids) == 1:
        expected[ids[0]] = shown["expect"]
    real = os.path.realpath(root)
    return {resolve_ids(real, [key])[0]: fp for key, fp in expected.items()}


def _decode(data: bytes | None) -> str:
    if not data:
        return ""
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff")
