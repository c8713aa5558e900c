"""The openclaw layout's outline: the bootstrap files in injection order (the cut
marked, their `## ` sections below), the daily notes newest first, the queue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, WARNING, OutlineItem
from memtui.engine.outline import Rows, tally
from memtui.i18n import msg
from memtui.layouts.openclaw import audit, rules
from memtui.layouts.openclaw.rules import first_unloaded

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.openclaw.layout import Daily, OpenClawData


def outline(store: Store, data: OpenClawData) -> list[OutlineItem]:
    injected = {i.name: i for i in data.injected}
    found = Rows.of(store).by_file
    items = []
    for name in data.present:
        item = injected.get(name)
        badges: list[tuple[str, str]] = []
        if name in rules.RETIRED:
            badges.append((msg("retired: not injected"), "info"))
        elif name in rules.DREAMS:
            badges.append((msg("dream diary: not injected"), "info"))
        elif item is None:
            badges.append((msg("not injected"), ERROR))
        elif item.trim is not None:
            first = first_unloaded(item)
            level = (
                ERROR if first else WARNING if item.trim.original >= rules.warn_at(name) else "ok"
            )
            badges.append((msg("{original:,} chars", original=item.trim.original), level))
        if name == rules.LEFTOVER:
            badges.append((msg("leftover"), "info"))
        badges += filter(None, [tally(found.get(name, ()))])
        rows = tuple(
            OutlineItem(heading, file=file, line=span.lineno,
                        entry_id=f"openclaw:{file}#{heading}",
                        verbs=() if name in rules.DREAMS else ("edit",))
            for file, heading, span in data.sections if file == name
        )  # fmt: skip
        items.append(
            OutlineItem(
                name,
                file=name,
                entry_id=f"openclaw:{name}",
                badges=tuple(badges),
                verbs=("open",) if name in rules.DREAMS else ("edit", "open"),
                children=(lambda rows=rows: rows) if rows else None,
                not_offered=_not_offered(name),
            )
        )
    if data.daily:
        items.append(
            OutlineItem(
                msg("daily notes ({n:,})", n=len(data.daily)),
                key="daily",  # not the label: its count changes
                file="memory",
                badges=tuple(
                    filter(None, [tally(f for d in data.daily for f in found.get(d.file, ()))])
                ),
                children=lambda: tuple(_daily(d) for d in data.daily),
            )
        )
    pending = [s for s in data.queue if s.status == "pending"]
    if data.queue:
        items.append(
            OutlineItem(
                msg("memory audit"),
                file=audit.QUEUE,
                badges=((msg("{count:,} pending", count=len(pending)), WARNING),)
                if pending
                else (),
                verbs=("open",),
            )
        )
    return items


def _not_offered(name: str) -> str:
    if name in rules.DREAMS:
        return msg(
            "{file} is dreaming's diary: OpenClaw rewrites it, so it is read here, not edited",
            file=name,
        )
    return msg("{file} is not archived: OpenClaw finds it by name (e edits it)", file=name)


def _daily(d: Daily) -> OutlineItem:
    """A note's row: its finding said by name (misnamed, future), so no tally."""
    name = d.file.split("/", 1)[1]
    badges: tuple[tuple[str, str], ...] = ()
    if d.date is None:
        badges = ((msg("misnamed"), WARNING),)
    elif d.future:
        badges = ((msg("future"), WARNING),)
    return OutlineItem(
        name, file=d.file, entry_id=f"openclaw-daily:{name}", badges=badges, verbs=("open",),
        not_offered=msg("daily notes are append-only: the agent adds to them as it works, and "
        "OpenClaw's audit reads them as evidence; not edited or archived here"),
    )  # fmt: skip
