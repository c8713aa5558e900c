"""The companion layout (SPEC §2) as a `Layout` over its parser."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import op_options, refused
from memtui.engine.model import Entry, Event, Mood, OutlineItem
from memtui.i18n import msg
from memtui.layouts.companion import parse as companion
from memtui.layouts.companion.codes import CODES
from memtui.layouts.companion.detect import CompanionDetection
from memtui.layouts.companion.model import Companion as Data

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.timeline import Timeline
    from memtui.engine.write.transaction import Receipt


class Companion(CompanionDetection, Layout):
    kinds = ("event", "profile")
    codes = CODES
    loads = (
        (companion.SUMMARY, None),
        (companion.PERSONA, None),
        (companion.PROFILE, None),
        (companion.MOOD, None),
    )
    views = frozenset({"timeline", "mood"})
    marks = {"event": ("done", "open")}  # 状态 已完成 / 待跟进
    item_archived_to = msg("to archive/{PROFILE}", PROFILE=companion.PROFILE)

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.companion.demo import build_companion

        return build_companion(sink, rng, size, today)

    def fixes(self) -> Mapping[str, Any]:
        from memtui.layouts.companion.fixes import FIXES  # late: the write path's

        return FIXES

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        return companion.parse(reader)

    def knows(self, rel: str) -> bool:
        return rel in (companion.EVENTS, companion.MOOD_AUX) or any(rel == f for f, _ in self.loads)

    def file_of(self, kind: str, name: str) -> str | None:
        return companion.EVENTS if kind == "event" else companion.PROFILE

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.companion.outline import outline

        return outline(store, data)

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        from memtui.layouts.companion.ids import event_ids

        if events:
            for e, eid in zip(data.events, event_ids(data.events), strict=True):
                if eid is not None:
                    yield event_entry(e, eid, titles)
        for c in data.profile:
            title = msg("{name} ({count} items)", name=c.name, count=len(c.items))
            yield Entry(f"profile:{c.name}", "profile", self.name, title, c.span.file, c.span)

    def summary(self, data: Any) -> list[str]:
        events = [e for e in data.events if not e.is_sentinel]
        open_n = sum(1 for e in data.events if e.is_open)
        last = data.last_active or msg("unknown")
        return [
            msg(
                "{count:,} events ({open_n:,} open), last active {last}",
                count=len(events),
                open_n=open_n,
                last=last,
            )
        ]

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """An event's fields, as `events --json` gives them."""
        if entry.kind == "event":
            for e in data.events:
                if e.span == entry.span:
                    return {"event": {"id": entry.id, **e.to_json()}}
        return {}

    generates = "MEMORY.md's unresolved block"

    def plan_generated(self, tx: Any) -> bool:
        from memtui.layouts.companion.ops import plan_unresolved

        return plan_unresolved(tx)

    def restorable(self, rel: str) -> tuple[str, str] | None:
        """x on archived profile items asks which to restore; events restore in their pane."""
        from memtui.layouts.companion.archived import ARCHIVED_EVENTS, ARCHIVED_PROFILE

        return {ARCHIVED_PROFILE: ("restore-item", ""), ARCHIVED_EVENTS: ("restore-event", "")}.get(
            rel
        )

    def find(
        self, store: Store, data: Any, kind: str, name: str, expect: str | None
    ) -> Entry | None:
        from memtui.layouts.companion.lookup import find

        found = find(store, data, name, expect) if kind == "event" else None
        return None if found is None else event_entry(*found)

    def entry_at(self, data: Any, rel: str, line: int) -> str | None:
        from memtui.layouts.companion.lookup import entry_at

        return entry_at(data, rel, line)

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui.layouts.companion.edit import edit

        return edit(root, kind, name, new_text, **shown)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.companion import ops

        if kind == "profile":
            item = _item(shown)
            return ops.archive_profile_item(root, name, item, **op_options(shown))
        return ops.archive_event(root, f"event:{name}", **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.companion import ops

        if kind == "profile":
            item = _item(shown)
            return ops.restore_profile_item(root, name, item, **op_options(shown))
        return ops.restore_event(root, f"event:{name}", **op_options(shown))

    def timeline(self, store: Store, data: Data) -> Timeline:
        from memtui.layouts.companion.timeline import timeline

        return timeline(store, data)

    def archived_timeline(self, store: Store, data: Data) -> tuple[Timeline, str | None]:
        from memtui.layouts.companion.timeline import archived_timeline

        return archived_timeline(store, data)

    def mark(self, root: str, kind: str, name: str, state: str, **shown: Any) -> Receipt:
        from memtui.layouts.companion import ops

        op = {"done": ops.done, "open": ops.reopen}.get(state) if kind == "event" else None
        if op is None:
            return super().mark(root, kind, name, state, **shown)
        return op(root, f"event:{name}", **op_options(shown))

    def mood(self, data: Data) -> Mood | None:
        return data.mood

    def items(self, store: Store, data: Data, kind: str, name: str) -> list[str]:
        if kind != "profile":
            return []
        return next((list(c.items) for c in data.profile if c.name == name), [])

    def archived_items(self, store: Store, data: Data) -> tuple[list[tuple[str, str]], str | None]:
        from memtui.layouts.companion.archived import archived_profile

        pairs, problem = archived_profile(store)
        return [(f"profile:{cat}", item) for cat, item in pairs], problem


def event_entry(e: Event, eid: str, titles: bool = True) -> Entry:
    title = f"{e.date} · {e.type} · {e.content}".strip(" ·") if titles else ""
    return Entry(f"event:{eid}", "event", "companion", title, e.span.file, e.span)


def _item(shown: dict[str, Any]) -> str:
    item = shown.get("item")
    if not item:
        raise refused(msg("profile entries need the item to archive or restore (--item TEXT)"))
    return str(item)
