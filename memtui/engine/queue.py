"""Approval queues beyond dsh's candidates: what an agent staged for a person to
approve or reject (Hermes' `pending/memory/*.json`, OpenClaw's Memory Audit).

A layout with a queue gives `queue(store, data)`, `preview(root, item_id)`,
`approve(root, ids, **shown)` and `reject(root, ids, reason, **shown)`; the faces
call the functions below and never know which layout answered. An item's id
names the record the user saw: `<kind>:<name>`, with its fingerprint checked
under the lock like any other entry (SPEC §6).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memtui.engine.errors import MemtuiError

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt


@dataclass(frozen=True, slots=True)
class QueueItem:
    """One staged change, as plain data for both faces."""

    id: str  # `<kind>:<name>`, e.g. `hermes-pending:1a2b3c4d`
    layout: str  # the layout that owns it
    action: str  # add | replace | remove | batch | edit | delete | move | ...
    target: str  # what it would change, in words or a path (`memories/MEMORY.md`)
    summary: str  # one line, the agent's own words where it gave some
    file: str  # the record's file, relative to the root
    line: int | None = None  # 1-based, for records that share one file (jsonl)
    created: str | None = None  # ISO time, when the record says
    origin: str | None = None  # who staged it (foreground, background_review, ...)
    problem: str | None = None  # why approving would be refused now; None: it applies
    read_only: bool = False  # shown, never approved or rejected here (Hermes skills)
    # approving is refused yet writes the agent's record of it (OpenClaw's conflict):
    # the faces still send it, as the CLI does
    records_refusal: bool = False
    fingerprint: str = ""  # of the record's bytes, for `--expect`
    fields: tuple[tuple[str, str], ...] = ()  # label/value pairs the detail shows

    @property
    def approvable(self) -> bool:
        return self.problem is None and not self.read_only

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "layout": self.layout,
            "action": self.action,
            "target": self.target,
            "summary": self.summary,
            "file": self.file,
            "line": self.line,
            "created": self.created,
            "origin": self.origin,
            "problem": self.problem,
            "read_only": self.read_only,
            "fingerprint": self.fingerprint,
            "fields": [list(pair) for pair in self.fields],
        }


@dataclass(frozen=True, slots=True)
class Gauge:
    """A file's size against its limit, before and after (Hermes' character gauge)."""

    file: str
    unit: str  # chars | lines | ...
    before: int
    after: int
    limit: int


@dataclass(frozen=True, slots=True)
class QueuePreview:
    """What approving one item would change now: a unified diff per file, the gauges,
    or the refusal. Writes nothing."""

    item_id: str
    diff: str
    gauges: tuple[Gauge, ...] = ()
    error: str | None = None


class QueueOps:
    """A layout's preview/approve/reject, kept in one engine/ops module (`ops_module`),
    imported on first use so opening a store never loads the write path."""

    ops_module = ""

    def _ops(self) -> Any:
        import importlib

        return importlib.import_module(self.ops_module)

    def preview(self, root: str, item_id: str) -> QueuePreview:
        return self._ops().preview(root, item_id)

    def approve(self, root: str, ids: list[str], **shown: Any) -> list[Receipt]:
        return self._ops().approve(root, ids, **shown)

    def reject(self, root: str, ids: list[str], reason: str, **shown: Any) -> list[Receipt]:
        return self._ops().reject(root, ids, reason, **shown)


class NotQueued(MemtuiError):
    """An id that names no queue item of any layout."""


class AmbiguousId(NotQueued):
    """A bare id that more than one queued item of the store has; nothing was done."""


def full_ids(root: str, refs: Sequence[str]) -> list[str]:
    """SPEC §6: a queued item named by its bare id, as its agent shows it (Hermes'
    `/memory pending` shows `a1b2c3d4`), is the full id of the one item that has it
    (`hermes-pending:a1b2c3d4`), asked of each layout's detection (`queued`: from the
    disk, no parser). Had by several, AmbiguousId lists their full ids; had by none, or
    given with its kind, an id stays as given, and so does a dsh candidate's (a bare id
    is first of all a candidate's: layouts.bare_kind)."""
    from memtui.engine.layouts import bare_kind, detectors

    names = {ref: ref.strip().partition("@")[0] for ref in refs if _bare(ref)}
    if not names:
        return list(refs)
    held: dict[str, list[str]] = {}
    for detection in detectors().values():
        for name, full in detection.queued(root, sorted(set(names.values()))):
            held.setdefault(name, []).append(full)
    out = []
    for ref in refs:
        name = names.get(ref)
        found = held.get(name, []) if name is not None else []
        if len(found) > 1:
            raise AmbiguousId(
                f"{ref.strip()} is the id of {len(found)} queued items here: "
                f"{', '.join(found)}; give the full id. Nothing was changed"
            )
        if name is not None and found and not found[0].startswith(f"{bare_kind(name)}:"):
            ref = found[0] + ref.strip()[len(name) :]  # an `@FINGERPRINT` kept
        out.append(ref)
    return out


def queue_layouts(present: Sequence[str] | None = None) -> list[str]:
    """The layouts that keep an approval queue (their detection's `keeps_queue`), in
    detection order; with `present`, only those among them."""
    from memtui.engine.layouts import detectors

    return [
        name
        for name, detection in detectors().items()
        if detection.keeps_queue and (present is None or name in present)
    ]


def _bare(ref: str) -> bool:
    """An id without its kind, that is no path and no Claude memory's file name."""
    name = ref.strip().partition("@")[0]
    return bool(name) and not any(c in name for c in ":/\\") and not name.endswith(".md")


def items(store: Store) -> list[QueueItem]:
    """Every layout's queue items in this snapshot, in layout order."""
    from memtui.engine.layouts import registry

    found: list[QueueItem] = []
    for name, layout in registry().items():
        data = store.data.get(name)
        queue = getattr(layout, "queue", None)
        if data is not None and queue is not None:
            found.extend(queue(store, data))
    return found


def _owner(item_id: str) -> Any:
    from memtui.engine.layouts import for_kind

    kind = item_id.partition(":")[0]
    layout = for_kind(kind)
    if layout is None or getattr(layout, "approve", None) is None:
        raise NotQueued(f"{item_id}: no queue holds an item of this kind")
    return layout


def is_queue_id(ref: str) -> bool:
    """Whether `ref` names another layout's queue item rather than a dsh candidate."""
    from memtui.engine.layouts import for_kind

    kind, sep, _ = ref.partition(":")
    layout = for_kind(kind) if sep else None
    return layout is not None and getattr(layout, "approve", None) is not None


def preview(root: str, item_id: str) -> QueuePreview:
    return _owner(item_id).preview(root, item_id)


def approve(root: str, ids: Sequence[str], **shown: Any) -> list[Receipt]:
    """Approve items (all of one layout): each replayed as its agent would, or refused
    with the reason and nothing changed."""
    return _owner(ids[0]).approve(root, list(ids), **shown) if ids else []


def reject(root: str, ids: Sequence[str], reason: str, **shown: Any) -> list[Receipt]:
    return _owner(ids[0]).reject(root, list(ids), reason, **shown) if ids else []


def _without_id(reason: str, item_id: str) -> str:
    """A refusal's reason as listed beside its id: the id once, not again in front."""
    return reason.removeprefix(f"{item_id}: ") or reason


def each(
    ids: Sequence[str], op: str, one: Callable[[str, str | None], Receipt], **shown: Any
) -> list[Receipt]:
    """Run `one(item_id, fingerprint shown)` per id, each its own transaction, for a
    layout's approve or reject. One id's refusal is raised; with several, the others go
    on and the refusals are listed in a last receipt's `refused`, which the faces report
    (exit 1). A refusal that still wrote (a conflict recorded) carries its `receipt`."""
    from memtui.engine.write.operation import new_id
    from memtui.engine.write.transaction import Receipt

    expected = dict(shown.get("expected") or {})
    if shown.get("expect") is not None and len(ids) == 1:
        expected[ids[0]] = shown["expect"]
    receipts, refused = [], []
    for item_id in ids:
        try:
            receipts.append(one(item_id, expected.get(item_id)))
        except MemtuiError as exc:
            if len(ids) == 1:
                raise
            done = getattr(exc, "receipt", None)
            if done is not None:
                receipts.append(done)
            refused.append({"id": item_id, "reason": _without_id(str(exc), item_id)})
    if refused:
        summary = f"{op} {len(ids) - len(refused)}; refused {len(refused)}"
        details = {"summary": summary, "refused": refused}
        receipts.append(Receipt(new_id(), op, (), bool(shown.get("dry_run")), details))
    return receipts
