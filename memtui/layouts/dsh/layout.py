"""The dsh layout (SPEC §3) as a `Layout` over its parser."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from memtui.engine.layouts.base import Layout, Listing
from memtui.engine.layouts.common import op_options, refused
from memtui.engine.model import Entry, OutlineItem
from memtui.i18n import msg
from memtui.layouts.dsh import parse as dsh
from memtui.layouts.dsh.codes import CODES
from memtui.layouts.dsh.detect import DshDetection
from memtui.layouts.dsh.face import FACE
from memtui.layouts.workspace.detect import DSH_L0

if TYPE_CHECKING:
    from memtui.engine.queue import QueueItem, QueuePreview
    from memtui.engine.reader import StoreReader
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


class Dsh(DshDetection, Layout):
    kinds = ("fact", "sop", "pending")
    codes = CODES
    # the seed: L0 meta-rules and the L1 index are in the prompt every turn
    loads = ((DSH_L0, None), (dsh.INDEX, None))
    queue_face = FACE

    def demo(self, sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
        from memtui.layouts.dsh.demo import build_dsh

        return build_dsh(sink, rng, size, today)

    def parse(self, reader: StoreReader, top: Listing) -> Any:
        return dsh.parse(reader)

    def knows(self, rel: str) -> bool:
        folder, _, name = rel.rpartition("/")
        if folder in ("sops", "pending"):
            return name.endswith(".md")
        return rel in (dsh.INDEX, dsh.FACTS, DSH_L0, *dsh.BOOKS)

    def file_of(self, kind: str, name: str) -> str | None:
        return {"fact": dsh.FACTS, "sop": f"sops/{name}.md"}.get(kind, f"pending/{name}.md")

    def outline(self, store: Store, data: Any) -> list[OutlineItem]:
        from memtui.layouts.dsh.outline import outline

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

    def summary(self, data: Any) -> list[str]:
        facts = sum(len(s.facts) for s in data.fact_sections)
        return [
            msg(
                "{facts:,} facts in {count:,} sections, {count2:,} sops, {count3:,} pending",
                facts=facts,
                count=len(data.fact_sections),
                count2=len(data.sops),
                count3=len(data.candidates),
            )
        ]

    def details(self, store: Store, data: Any, entry: Entry) -> dict[str, Any]:
        """A candidate's front matter, or where a fact or sop came from."""
        if entry.kind == "pending":
            for c in data.candidates:
                if c.file == entry.file:
                    return {"candidate": c.to_json()}
        if entry.kind in ("fact", "sop"):
            return {"provenance": data.provenance.get(entry.id)}
        return {}

    generates = "the index.txt automatic segment"

    def plan_generated(self, tx: Any) -> bool:
        from memtui.layouts.dsh.entries import plan_rebuild_index

        return plan_rebuild_index(tx)

    def heat(self, data: Any) -> Mapping[str, int]:
        return data.heat  # file_access_stats.json: the agent's reads per file

    def restorable(self, rel: str) -> tuple[str, str] | None:
        """An archived sop, fact section, or rejected candidate (back to pending/)."""
        folder, _, name = rel.removeprefix("archive/").partition("/")
        kinds = {"sops": "sop", "facts": "fact", "rejected": "pending"}
        if rel.startswith("archive/") and folder in kinds and "/" not in name:
            return ("restore", f"{kinds[folder]}:{name[:-3]}") if name.endswith(".md") else None
        return None

    def edit(self, root: str, kind: str, name: str, new_text: str, **shown: Any) -> Receipt:
        from memtui.layouts.dsh.edit import edit

        return edit(root, kind, name, new_text, **shown)

    def check_edit(self, change: Any) -> None:
        from memtui.layouts.dsh.edit import check_edit

        check_edit(change)

    def read_only(self, root: str, rel: str) -> str | None:
        from memtui.layouts.dsh.edit import read_only

        return read_only(root, rel)

    def archive(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.dsh import ops

        if kind == "pending":
            raise refused(msg("a pending candidate leaves with `memtui reject` (or accept)"))
        return ops.archive(root, f"{kind}:{name}", **op_options(shown))

    def restore(self, root: str, kind: str, name: str, **shown: Any) -> Receipt:
        from memtui.layouts.dsh import ops

        return ops.restore(root, f"{kind}:{name}", **op_options(shown))

    # --- its queue: the pending candidates (layouts.dsh.queue) -----------------------

    def queue(self, store: Store, data: Any) -> list[QueueItem]:
        return _queue().items(store, data)

    def queue_blocked(self, store: Store, data: Any) -> str | None:
        return _queue().blocked(store)

    def preview(self, root: str, item_id: str) -> QueuePreview:
        return _queue().preview(root, [item_id])

    def preview_together(self, root: str, ids: list[str]) -> QueuePreview | None:
        return _queue().preview(root, ids)

    def approve(self, root: str, ids: list[str], **shown: Any) -> list[Receipt]:
        return _queue().approve(root, ids, **shown)

    def reject(self, root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
        return _queue().reject(root, ids, reason, **shown)


def _queue() -> Any:
    """layouts.dsh.queue, imported when the queue is first asked for: an open never
    needs it, nor the queue model it imports (engine.queue)."""
    from memtui.layouts.dsh import queue

    return queue
