"""The three seed layouts (SPEC §1-§3) as `Layout` objects over their parsers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts import companion, dsh, workspace
from memtui.engine.layouts.base import Listing
from memtui.engine.layouts.common import by_file, op_options, refused, whole_or_cut
from memtui.engine.layouts.seeds_detect import (
    CompanionDetection,
    DshDetection,
    WorkspaceDetection,
)
from memtui.engine.model import ContextFile, Entry, Event, OutlineItem

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


class _Seed:
    """What the seed layouts share beyond their detection (seeds_detect)."""

    name = ""
    kinds: tuple[str, ...] = ()
    loads: tuple[tuple[str, int | None], ...] = ()  # (file, line cap) the agent is given

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        return by_file(list(self.entries(data, titles=True)))

    def knows(self, rel: str) -> bool:
        return False

    def file_of(self, kind: str, name: str) -> str | None:
        return None

    def context(self, store: Store, data: Any) -> list[ContextFile]:
        got = (whole_or_cut(store, rel, cap) for rel, cap in self.loads)
        return [c for c in got if c is not None]

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        return iter(())

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        raise refused(f"{kind}:{name}: {self.name} entries of this kind are not archived")

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        raise refused(f"{kind}:{name}: {self.name} entries of this kind are not restored")


class Workspace(WorkspaceDetection, _Seed):
    kinds = ("topic",)
    # the seed: soul/user/agent.md are injected by the bootstrap, memory.md up to its
    # 200-line bootstrap limit
    loads = (("soul.md", None), ("user.md", None), ("agent.md", None), (workspace.INDEX, 200))

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        return workspace.parse(reader, list(top.root_files))

    def knows(self, rel: str) -> bool:
        return rel in (workspace.INDEX, *workspace.COMPANIONS) or (
            "/" not in rel and workspace.TOPIC_LIKE.fullmatch(rel) is not None
        )

    def file_of(self, kind: str, name: str) -> str | None:
        return f"memory_{name}.md"

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.engine.layouts.workspace_outline import outline

        return outline(store, data)

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        # reversed: with several pointers to one file, the first one's description wins
        described = {p.target: p.description for p in reversed(data.pointers)}
        for name in data.topics:
            title = described.get(name, name)
            yield Entry(f"topic:{workspace.topic_id(name)}", "topic", self.name, title, name)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops.workspace import archive_topic

        return archive_topic(root, name, **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops.workspace import restore_topic

        return restore_topic(root, name, **op_options(shown))


class Companion(CompanionDetection, _Seed):
    kinds = ("event", "profile")
    loads = (
        (companion.SUMMARY, None),
        (companion.PERSONA, None),
        (companion.PROFILE, None),
        (companion.MOOD, None),
    )

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        return companion.parse(reader)

    def knows(self, rel: str) -> bool:
        return rel in (companion.EVENTS, companion.MOOD_AUX) or any(rel == f for f, _ in self.loads)

    def file_of(self, kind: str, name: str) -> str | None:
        return companion.EVENTS if kind == "event" else companion.PROFILE

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.engine.layouts.companion_outline import outline

        return outline(store, data)

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        from memtui.engine.identity import event_ids

        if events:
            for e, eid in zip(data.events, event_ids(data.events), strict=True):
                if eid is not None:
                    yield event_entry(e, eid, titles)
        for c in data.profile:
            title = f"{c.name} ({len(c.items)} items)"
            yield Entry(f"profile:{c.name}", "profile", self.name, title, c.span.file, c.span)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops import companion as ops

        if kind == "profile":
            item = _item(shown)
            return ops.archive_profile_item(root, name, item, **op_options(shown))
        return ops.archive_event(root, f"event:{name}", **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops import companion as ops

        if kind == "profile":
            item = _item(shown)
            return ops.restore_profile_item(root, name, item, **op_options(shown))
        return ops.restore_event(root, f"event:{name}", **op_options(shown))


def event_entry(e: Event, eid: str, titles: bool = True) -> Entry:
    title = f"{e.date} · {e.type} · {e.content}".strip(" ·") if titles else ""
    return Entry(f"event:{eid}", "event", "companion", title, e.span.file, e.span)


class Dsh(DshDetection, _Seed):
    kinds = ("fact", "sop", "pending")
    # the seed: L0 meta-rules and the L1 index are in the prompt every turn
    loads = ((workspace.DSH_L0, None), (dsh.INDEX, None))

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        return dsh.parse(reader)

    def knows(self, rel: str) -> bool:
        folder, _, name = rel.rpartition("/")
        if folder in ("sops", "pending"):
            return name.endswith(".md")
        return rel in (dsh.INDEX, dsh.FACTS, workspace.DSH_L0, *dsh.BOOKS)

    def file_of(self, kind: str, name: str) -> str | None:
        return {"fact": dsh.FACTS, "sop": f"sops/{name}.md"}.get(kind, f"pending/{name}.md")

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.engine.layouts.dsh_outline import outline

        return outline(store, data)

    def entries(self, data: Any, titles: bool = True, events: bool = True) -> Iterator[Entry]:
        for s in data.fact_sections:
            title = f"{s.name} ({len(s.facts)} facts)" if titles else ""
            yield Entry(f"fact:{s.name}", "fact", self.name, title, s.span.file, s.span)
        for sop in data.sops:
            yield Entry(f"sop:{sop.name}", "sop", self.name, sop.title, sop.file)
        for cand in data.candidates:
            title = f"{cand.entry_type or '?'} → {cand.target or '?'}"
            yield Entry(f"pending:{cand.id}", "pending", self.name, title, cand.file)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops import dsh as ops

        if kind == "pending":
            raise refused("a pending candidate leaves with `memtui reject` (or accept)")
        return ops.archive(root, f"{kind}:{name}", **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.engine.ops import dsh as ops

        return ops.restore(root, f"{kind}:{name}", **op_options(shown))


def _item(shown: dict[str, Any]) -> str:
    item = shown.get("item")
    if not item:
        raise refused("profile entries need the item to archive or restore (--item TEXT)")
    return str(item)
