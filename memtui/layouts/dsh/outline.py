"""The dsh layout's outline: the L0 rules, index.txt against its line limit, facts.md
by section, the sops, the pending candidates, the archive and the JSON files."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import OutlineItem
from memtui.engine.outline import PREFIX, Rows, archive_group, chunked, level_of, tally
from memtui.i18n import msg
from memtui.layouts.dsh.candidate import Candidate
from memtui.layouts.dsh.model import Dsh, Sop
from memtui.layouts.dsh.parse import FACTS, HEAT, INDEX, META, REPORT, STATS
from memtui.layouts.workspace.parse import DSH_L0

if TYPE_CHECKING:
    from memtui.engine.store import Store

JSON_FILES = (META, STATS, REPORT, HEAT)


def outline(store: Store, d: Dsh) -> list[OutlineItem]:
    rows = Rows.of(store)
    t = store.config.thresholds
    out = []
    if DSH_L0 in rows.files:
        out.append(
            rows.file(DSH_L0, DSH_L0, (msg("L0 rules"), "muted"), entry=rows.entry_for(DSH_L0))
        )
    if INDEX in rows.files:
        n = d.index_lines
        size = (
            msg("{n:,}/{l1_max_lines:,} lines", n=n, l1_max_lines=t.l1_max_lines),
            level_of(n, t.l1_warn_lines, t.l1_max_lines, over=True),
        )
        stale = (msg("stale"), "warning") if "index-stale" in rows.codes(INDEX) else None
        out.append(rows.file(INDEX, INDEX, size, stale, entry=rows.entry_for(INDEX)))
    if FACTS in rows.files:
        facts = sum(len(s.fact_lines) for s in d.fact_sections)
        held = (msg("{facts:,} facts", facts=facts), "muted")  # its sections are its rows
        kids = (lambda: _fact_sections(rows, d)) if d.fact_sections else None
        out.append(rows.file(FACTS, FACTS, held, entry=rows.entry_for(FACTS), children=kids))
    if d.sops:
        found = tally(f for s in d.sops for f in rows.by_file.get(s.file, ()))
        sops = chunked("sops", msg("sops"), d.sops, lambda s: _sop(rows, s))
        files = tuple(s.file for s in d.sops)
        out.append(
            rows.group("sops", msg("sops"), len(d.sops), sops, found, folder="sops", holds=files)
        )
    if d.candidates:
        found = tally(f for c in d.candidates for f in rows.by_file.get(c.file, ()))
        pending = chunked("pending", msg("candidates"), d.candidates, lambda c: _candidate(rows, c))
        out.append(
            rows.group(
                "pending",
                msg("pending"),
                len(d.candidates),
                pending,
                found,
                folder="pending",
                holds=tuple(c.file for c in d.candidates),
            )
        )
    archived = sorted(f for f in rows.files if f.startswith(PREFIX))
    if archived:
        out.append(archive_group(rows, archived))
    for rel in JSON_FILES:
        if rel in rows.files:
            invalid = (msg("invalid JSON"), "error") if "json-invalid" in rows.codes(rel) else None
            out.append(rows.file(rel, rel, invalid, entry=rows.entry_for(rel)))
    return out


def _fact_sections(rows: Rows, d: Dsh) -> tuple[OutlineItem, ...]:
    return tuple(
        Rows.row(
            s.name,
            (msg("{count:,} facts", count=len(s.fact_lines)), "muted"),
            tally(rows.findings_in(FACTS, s.span.lineno, s.span.stop)),
            key=f"fact:{s.name}",
            file=s.span.file,
            line=s.span.lineno,
            entry=f"fact:{s.name}",
            verb="archive",
        )
        for s in d.fact_sections
    )


def _sop(rows: Rows, sop: Sop) -> OutlineItem:
    title = (sop.title, "muted") if sop.title != sop.name else None
    sid = f"sop:{sop.name}"
    entry = None if sop.file in rows.store.unreadable else sid
    return rows.file(sop.file, sop.name, title, entry=entry, verb="archive", target=sid)


def _candidate(rows: Rows, cand: Candidate) -> OutlineItem:
    """Shown, not edited here: the Pending pane accepts or rejects it."""
    what = (f"{cand.entry_type or '?'} → {cand.target or '?'}", "muted")
    no_evidence = (
        (msg("no evidence"), "warning") if "pending-no-evidence" in rows.codes(cand.file) else None
    )
    invalid = None if cand.valid else (msg("invalid"), "error")
    return rows.file(cand.file, cand.id, what, no_evidence, invalid)
