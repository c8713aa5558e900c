"""The companion layout's outline: its files with what each holds (events open and
overdue, persona details, profile categories against their limit, the mood now, a
stale MEMORY.md). Events are counted, not listed: the Events pane lists them. A row
fits the 44-column sidebar with its findings' tally."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import OutlineItem
from memtui.engine.outline import Badge, Rows
from memtui.i18n import msg
from memtui.layouts.companion.model import Companion
from memtui.layouts.companion.parse import EVENTS, MOOD, MOOD_AUX, PERSONA, PROFILE, SUMMARY

if TYPE_CHECKING:
    from memtui.engine.store import Store

FILES = (EVENTS, PERSONA, PROFILE, MOOD, SUMMARY, MOOD_AUX)


def outline(store: Store, c: Companion) -> list[OutlineItem]:
    rows = Rows.of(store)
    out = []
    for rel in FILES:
        if rel not in rows.files:
            continue
        kids = None
        badges: list[Badge] = []
        if rel == EVENTS:
            real = [e for e in c.events if not e.is_sentinel]
            opened = sum(1 for e in real if e.is_open)
            overdue = sum(1 for f in rows.by_file.get(rel, ()) if f.code == "event-overdue")
            badges.append(
                (msg("{opened:,}/{count:,} open", opened=opened, count=len(real)), "muted")
            )
            if overdue:
                badges.append((msg("{overdue:,} overdue", overdue=overdue), "warning"))
        elif rel == PERSONA:
            badges.append((msg("{count:,} details", count=len(c.persona_details)), "muted"))
        elif rel == PROFILE and c.profile:
            badges.append((msg("{count:,} categories", count=len(c.profile)), "muted"))
            kids = lambda: _profile(store, c)  # noqa: E731
        elif rel == MOOD and c.mood is not None:
            m = c.mood
            v = "?" if m.valence is None else f"{m.valence:+.2f}"
            e = "?" if m.energy is None else f"{m.energy:.2f}"
            badges.append((f"v {v} · e {e}", "muted"))  # the snapshots: the Mood pane
            if m.healing_guard_on:
                badges.append((msg("guard on"), "warning"))
        elif rel == SUMMARY and "unresolved-stale" in rows.codes(rel):
            badges.append((msg("stale"), "warning"))
        shown = rel.rpartition("/")[2]
        out.append(rows.file(rel, shown, *badges, entry=rows.entry_for(rel), children=kids))
    return out


def _profile(store: Store, c: Companion) -> tuple[OutlineItem, ...]:
    """A row per category, its items against the limit; x asks which item to archive."""
    limit = store.config.thresholds.profile_category_max
    out = []
    for cat in c.profile:
        level = "warning" if len(cat.items) > limit else "ok"
        core = (msg("★ core"), "heat") if cat.core else None
        out.append(
            Rows.row(
                cat.name,
                (f"{len(cat.items):,}/{limit:,}", level),
                core,
                key=f"cat:{cat.name}",
                file=cat.span.file,
                line=cat.span.lineno,
                entry=f"profile:{cat.name}",
                verb="archive-item",
            )
        )
    return tuple(out)
