"""The hermes layout's outline: each memory file with its character gauge and its
entries, the approval queue (skills read-only), the archived entries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, WARNING, OutlineItem
from memtui.engine.outline import Rows, tally
from memtui.i18n import msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.data import ARCHIVE, HermesData, MemoryFile, Staged
from memtui.layouts.hermes.ids import (
    ARCHIVED,
    archived_span,
    entry_ids,
    pending_id,
    span_of,
    title_of,
)

if TYPE_CHECKING:
    from memtui.engine.store import Store


def gauge(chars: int, limit: int) -> tuple[str, str]:
    """(`67% · 1,474/2,200 chars`, level) as a badge: warning from 80%, error over."""
    level = ERROR if chars > limit else WARNING if chars >= limit * rules.WARN_SHARE else "ok"
    return msg(
        "{share}% · {chars:,}/{limit:,} chars",
        share=rules.share(chars, limit),
        chars=chars,
        limit=limit,
    ), level


def outline(store: Store, data: HermesData) -> list[OutlineItem]:
    levels: dict[tuple[str | None, int | None], str] = {}
    for f in store.findings:
        if levels.get((f.file, f.line)) != ERROR:
            levels[(f.file, f.line)] = f.level
    found = Rows.of(store).by_file
    items = [_file(mf, data, levels, tally(found.get(mf.rel, ()))) for mf in data.files]
    if data.queue or data.skills:
        items.append(
            OutlineItem(
                msg("pending ({n:,})", n=len(data.queue)),
                key="pending",  # not the label: its count changes
                file="pending/memory",
                badges=((_skills(len(data.skills)), "info"),) if data.skills else (),
                children=lambda: tuple(_staged(q) for q in (*data.queue, *data.skills)),
            )
        )
    if data.archived:
        items.append(
            OutlineItem(
                msg("archived ({n:,})", n=len(data.archived)),
                key="archived",
                file=ARCHIVE,
                children=lambda: tuple(
                    OutlineItem(
                        title_of(a.text),
                        file=ARCHIVE,
                        line=archived_span(a).lineno,
                        entry_id=f"{ARCHIVED}:{a.id}",
                        badges=((a.target, "info"),),
                        verbs=("restore",),
                    )
                    for a in data.archived
                ),
            )
        )
    return items


def _file(
    mf: MemoryFile,
    data: HermesData,
    levels: dict[tuple[str | None, int | None], str],
    findings: tuple[str, str] | None,
) -> OutlineItem:
    badges = [gauge(mf.chars, mf.limit)]
    if mf.drift:
        badges.append((msg("drift: Hermes refuses writes"), ERROR))
    if findings:
        badges.append(findings)
    mine = [(eid, piece) for eid, f, piece in entry_ids(data) if f is mf]

    def rows() -> tuple[OutlineItem, ...]:
        out = []
        for eid, piece in mine:
            span = span_of(mf, piece)
            level = levels.get((mf.rel, span.lineno))
            out.append(
                OutlineItem(
                    title_of(piece.text),
                    file=mf.rel,
                    line=span.lineno,
                    entry_id=eid,
                    badges=((msg("{count:,} chars", count=len(piece.text)), "info"),)
                    + (((level, level),) if level else ()),
                    verbs=("edit", "archive"),
                )
            )
        return tuple(out)

    return OutlineItem(
        mf.rel.rsplit("/", 1)[-1], file=mf.rel, badges=tuple(badges), verbs=("open",),
        children=rows,
    )  # fmt: skip


def _staged(item: Staged) -> OutlineItem:
    rec = item.record
    if item.skill:
        badge = (msg("skill: read-only"), "info")
    elif item.error or item.problem:
        badge = (item.kind or "bad record", ERROR if item.error else WARNING)
    else:
        badge = (msg("applies"), "ok")
    label = (rec.summary if rec else "") or item.rel.rsplit("/", 1)[-1]
    return OutlineItem(
        title_of(label), file=item.rel, entry_id=pending_id(item), badges=(badge,), verbs=()
    )


def _skills(n: int) -> str:
    return msg("{n:,} skill", n=n) if n == 1 else msg("{n:,} skills", n=n)
