"""Every layout's approval queue as one model: what an agent staged for a person to
approve or reject (a candidate fact, a staged memory write, an audit's suggestion),
each a QueueItem.

A layout with a queue declares it (engine.layouts.base: `queue`, `preview`, `approve`,
`reject`, its `queue_face`, its detection's `queue_options`); the faces call the
functions below and never know which layout answered. An item's id names the record
the user saw: `<kind>:<name>`, with its fingerprint checked under the lock like any
other entry (SPEC §6).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memtui.engine.errors import MemtuiError
from memtui.engine.layouts.queue_spec import QueueFace, QueueOption
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.layouts.base import Layout
    from memtui.engine.scan.flagged import Flag
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt

__all__ = ["QueueFace", "QueueOption"]  # declared with the layouts, given with the items


@dataclass(frozen=True, slots=True)
class QueueItem:
    """One staged change, as plain data for both faces."""

    id: str  # `<kind>:<name>`, the kind its layout's
    layout: str  # the layout that owns it
    action: str  # add | replace | remove | batch | edit | delete | move | fact | sop | ...
    target: str  # what it would change, in words or a path (`memories/MEMORY.md`)
    summary: str  # one line, the agent's own words where it gave some (or its evidence)
    file: str  # the record's file, relative to the root
    line: int | None = None  # 1-based, for records that share one file (jsonl)
    created: str | None = None  # ISO time, when the record says
    origin: str | None = None  # who staged it (foreground, background_review, ...)
    problem: str | None = None  # why approving would be refused now; None: it applies
    read_only: bool = False  # shown, never approved or rejected here (a staged skill)
    # approving is refused yet writes the agent's record of it (a conflict marked): the
    # faces still send it, as the CLI does
    records_refusal: bool = False
    fingerprint: str = ""  # of the record's bytes, for `--expect`
    fields: tuple[tuple[str, str], ...] = ()  # label/value pairs the detail shows
    name: str = ""  # what its row calls it, when not its id (its bare id)
    note: str | None = None  # its row's words for `problem`, when not `✗ <problem>`
    broken: bool = False  # its record is unusable (shown as such); it can be rejected
    body: str | None = None  # the text approving writes, shown in the detail
    # its layout's own keys for `pending --json` (those its items had there before this
    # model)
    own_json: Callable[[], Mapping[str, Any]] | None = field(
        default=None, compare=False, repr=False
    )
    # The item whole, made when asked: a queue of 10,000 items may make its rows without
    # their fingerprints, fields and bodies (whole()). None: this item is whole.
    rest: Callable[[], QueueItem] | None = field(default=None, compare=False, repr=False)

    @property
    def approvable(self) -> bool:
        return self.problem is None and not self.read_only

    @property
    def shown_as(self) -> str:
        return self.name or self.id

    def whole(self) -> QueueItem:
        """This item with everything its detail, an action and the JSON need."""
        return self.rest() if self.rest is not None else self

    def to_json(self) -> dict[str, Any]:
        if self.rest is not None:
            return self.whole().to_json()
        data = {
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
        return {**data, **self.own_json()} if self.own_json is not None else data


@dataclass(frozen=True, slots=True)
class Gauge:
    """A file's size against its limit, before and after (a character gauge)."""

    file: str
    unit: str  # chars | lines | ...
    before: int
    after: int
    limit: int


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file approving would change: its diff (a write), or where it moves to."""

    action: str  # write | move | remove
    path: str
    source: str | None = None  # a move's
    diff: str = ""


@dataclass(frozen=True, slots=True)
class QueuePreview:
    """What approving one item (or several together) would change now: a unified diff,
    the gauges, or the refusal. Writes nothing."""

    item_id: str
    diff: str
    gauges: tuple[Gauge, ...] = ()
    error: str | None = None
    summary: str = ""  # what it would do, in a line (its receipt's summary)
    changes: tuple[FileChange, ...] = ()  # file by file, in the order shown; () : `diff`


@dataclass(frozen=True, slots=True)
class Queues:
    """Every approval queue of one snapshot, for the faces."""

    items: tuple[QueueItem, ...]
    faces: Mapping[str, QueueFace]  # each layout of the store that keeps a queue, in order
    blocked: tuple[str, ...] = ()  # what stops approving a whole queue, said first

    def face(self, item: QueueItem) -> QueueFace:
        return self.faces.get(item.layout) or QueueFace()

    @property
    def shown(self) -> bool:
        """Whether a face shows the queues at all: something queued, or a queue that is
        part of its layout."""
        return bool(self.items) or any(f.always for f in self.faces.values())


class NotQueued(MemtuiError):
    """An id that names no queue item of any layout."""


class AmbiguousId(NotQueued):
    """A bare id that more than one queued item of the store has; nothing was done."""


def full_ids(root: str, refs: Sequence[str]) -> list[str]:
    """SPEC §6: a queued item named by its bare id, as its agent shows it (`a1b2c3d4`),
    is the full id of the one item that has it (`<kind>:a1b2c3d4`), asked of each
    layout's detection (`queued`: from the disk, no parser). Had by several, AmbiguousId
    lists their full ids; had by none, or given with its kind, an id stays as given."""
    from memtui.engine.layouts import detectors

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
                msg(
                    "{strip} is the id of {count} queued items here: {join}; give "
                    "the full id. Nothing was changed",
                    strip=ref.strip(),
                    count=len(found),
                    join=", ".join(found),
                )
            )
        if name is not None and found:
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
    """An id without its kind, that is no path and no memory's file name (`x.md`)."""
    name = ref.strip().partition("@")[0]
    return bool(name) and not any(c in name for c in ":/\\") and not name.endswith(".md")


def queues(store: Store) -> Queues:
    """The snapshot's queues, made once per snapshot (the app's loading worker makes
    them, so the UI thread only draws)."""
    return store.derived("queues", lambda: _queues(store))  # type: ignore[no-any-return]


def _queues(store: Store) -> Queues:
    from memtui.engine.layouts import layout

    found: list[QueueItem] = []
    faces: dict[str, QueueFace] = {}
    blocked: list[str] = []
    for name in queue_layouts(list(store.data)):
        owner, data = layout(name), store.data[name]
        faces[name] = owner.queue_face
        found.extend(owner.queue(store, data))
        said = owner.queue_blocked(store, data)
        if said:
            blocked.append(said)
    return Queues(tuple(found), faces, tuple(blocked))


def items(store: Store) -> list[QueueItem]:
    """Every layout's queue items in this snapshot, in layout order."""
    return list(queues(store).items)


def owner(ref: str) -> Layout:
    """The layout whose queue an id names: by its kind; an id without a kind of a queue
    (a bare id no queue held: layouts.bare_kind) goes to the queue bare ids mean."""
    from memtui.engine.layouts import bare_kind, for_kind

    kind, sep, _ = ref.strip().partition(":")
    found = for_kind(kind) if sep else None
    if found is None or not found.keeps_queue:
        found = for_kind(bare_kind(ref))
    if found is None or not found.keeps_queue:
        raise NotQueued(msg("{ref}: no queue holds an item of this kind", ref=ref))
    return found


def by_queue(ids: Sequence[str]) -> dict[str, list[str]]:
    """The ids by the layout whose queue holds each, in the order first given."""
    out: dict[str, list[str]] = {}
    for item_id in ids:
        out.setdefault(owner(item_id).name, []).append(item_id)
    return out


def face(name: str) -> QueueFace:
    """How the faces speak of a layout's queue."""
    from memtui.engine.layouts import layout

    return layout(name).queue_face


def preview(root: str, item_id: str) -> QueuePreview:
    return owner(item_id).preview(root, item_id)


def preview_together(root: str, ids: Sequence[str]) -> QueuePreview | None:
    """What approving these items (of one queue) at once would change; None when their
    layout previews each on its own."""
    return owner(ids[0]).preview_together(root, list(ids)) if ids else None


def approve(
    root: str, ids: Sequence[str], *, allow_flagged: bool = False, **shown: Any
) -> list[Receipt]:
    """Approve items (all of one layout): each replayed as its agent would, or refused
    with the reason and nothing changed. An item whose text holds a secret or a planted
    instruction is refused unless `allow_flagged` (then audited as allowed)."""
    if not ids:
        return []
    from memtui.engine.scan.flagged import flags_each, record_texts

    lay = owner(ids[0])
    found = flags_each(record_texts(root, lay, [_plain(r) for r in ids], shown))
    flagged = {r: f for r, f in zip(ids, found, strict=True) if f}
    # one its layout refuses anyway (Hermes' own scan) is refused in its layout's words
    flagged = {ref: f for ref, f in flagged.items() if not lay.preview(root, _plain(ref)).error}
    return _gated(
        list(ids), flagged, allow_flagged, shown, lambda ok: lay.approve(root, ok, **shown)
    )


def reject(root: str, ids: Sequence[str], reason: str, **shown: Any) -> list[Receipt]:
    return owner(ids[0]).reject(root, list(ids), reason, **shown) if ids else []


def approve_each(
    root: str,
    shown: Sequence[QueueItem],
    *,
    allow_flagged: bool | Collection[str] = False,
    **options: Any,
) -> list[Receipt]:
    """Approve items of any queues in one action (the app's selection), each as the
    snapshot showed it (its fingerprint goes with it); `options` go to each layout's
    approve. Flagged items as `approve` says; `allow_flagged` may name the ones allowed
    (those the user was asked about): any other the scans flag is refused."""
    shown = [item.whole() for item in shown]  # each made once, for the scans and the run

    def run(lay: Layout, ids: list[str], fps: dict[str, str]) -> list[Receipt]:
        return lay.approve(root, ids, expected=fps, **options)

    def each(ok: list[str]) -> list[Receipt]:
        taken = set(ok)  # (a list's `in` was 50,000,000 comparisons for 10,000 items)
        return _each_queue([i for i in shown if i.id in taken], run)

    return _gated([i.id for i in shown], _flagged(shown, options), allow_flagged, options, each)


def _plain(ref: str) -> str:
    """An id without the `@FINGERPRINT` it may be given with."""
    return ref.strip().partition("@")[0]


def _flagged(shown: Sequence[QueueItem], options: Mapping[str, Any]) -> dict[str, list[Flag]]:
    """Each item's id whose text the scans flag -> what they found. An item its layout
    refuses anyway (its `problem`: Hermes' own scan) is left to its layout to refuse in
    its own words."""
    from memtui.engine.scan.flagged import flags_each, item_texts

    asked = [item for item in shown if item.problem is None]
    found = flags_each([item_texts(item, options) for item in asked])
    return {item.id: flags for item, flags in zip(asked, found, strict=True) if flags}


def _gated(
    ids: list[str],
    flagged: dict[str, list[Flag]],
    allow: bool | Collection[str],
    options: Mapping[str, Any],
    run: Callable[[list[str]], list[Receipt]],
) -> list[Receipt]:
    """`run(ids)` when nothing is flagged, or when flagged items are allowed (`allow`:
    all, or the ids named; each transaction's audit record then names them and what was
    found, never the text); else the others only, the flagged not allowed listed as
    refused (all refused: raised)."""
    from memtui.engine.scan.flagged import ALLOWED, reason, refusal
    from memtui.engine.words import lined
    from memtui.engine.write.errors import Refused
    from memtui.engine.write.operation import new_id, noted
    from memtui.engine.write.transaction import Receipt

    named = allow if not isinstance(allow, bool) else flagged if allow else ()
    allowed = {i: [str(f) for f in found] for i, found in flagged.items() if i in named}
    barred = {i: found for i, found in flagged.items() if i not in allowed}
    audited = noted(**{ALLOWED: allowed}) if allowed else contextlib.nullcontext()
    if not barred:
        with audited:
            return run(ids)
    left = [i for i in ids if i not in barred]
    if not left:
        raise Refused(lined([refusal(i, found) for i, found in barred.items()]))
    refused = [{"id": i, "reason": reason(f)} for i, f in barred.items()]
    summary = msg(
        "approved {approved}; refused {refused} as flagged",
        approved=len(left),
        refused=len(refused),
    )
    details = {"summary": summary, "refused": refused}
    with audited:
        done = run(left)
    return [*done, Receipt(new_id(), "approve", (), bool(options.get("dry_run")), details)]


def reject_each(root: str, shown: Sequence[QueueItem], reason: str) -> list[Receipt]:
    """Reject items of any queues in one action, as approve_each approves them."""

    def run(lay: Layout, ids: list[str], fps: dict[str, str]) -> list[Receipt]:
        return lay.reject(root, ids, reason, expected=fps)

    return _each_queue(shown, run)


def _each_queue(
    shown: Sequence[QueueItem],
    run: Callable[[Layout, list[str], dict[str, str]], list[Receipt]],
) -> list[Receipt]:
    """`run` once per queue, its ids with their fingerprints. A queue that refuses as a
    whole is raised when it is the only one (a refusal, nothing written); beside others,
    it is listed as refused in a receipt of its own and the others go on."""
    from memtui.engine.write.transaction import Receipt

    fingerprints = {item.id: item.whole().fingerprint for item in shown}
    groups = by_queue(list(fingerprints))
    receipts: list[Receipt] = []
    for group in groups.values():
        fps = {i: fingerprints[i] for i in group if fingerprints[i]}
        try:
            receipts += run(owner(group[0]), group, fps)
        except MemtuiError as exc:
            if len(groups) == 1:
                raise
            refused = [{"id": i, "reason": str(exc)} for i in group]
            receipts.append(Receipt("", "queue", (), False, {"refused": refused}))
    return receipts


def _without_id(reason: str, item_id: str) -> str:
    """A refusal's reason as listed beside its id: the id once, not again in front. A
    reason not led by the id stays as it is (a Msg: said in the reader's language)."""
    prefix = f"{item_id}: "
    return reason[len(prefix) :] or reason if reason.startswith(prefix) else reason


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
        done = len(ids) - len(refused)
        summary = _each_said(op, done, len(refused))
        details = {"summary": summary, "refused": refused}
        receipts.append(Receipt(new_id(), op, (), bool(shown.get("dry_run")), details))
    return receipts


# --- what `memtui pending` says ------------------------------------------------------


def _each_said(op: str, done: int, refused: int) -> str:
    """`approve 2; refused 1`: a template for each of a layout's two verbs."""
    if op == "approve":
        return msg("approve {done}; refused {refused}", done=done, refused=refused)
    if op == "reject":
        return msg("reject {done}; refused {refused}", done=done, refused=refused)
    return msg("{op} {done}; refused {refused}", op=op, done=done, refused=refused)


def listing(found: Queues, shown: Sequence[QueueItem]) -> dict[str, list[dict[str, Any]]]:
    """`pending --json`'s lists: each item in its layout's (`QueueFace.json_list`), every
    list named whether empty or not."""
    out: dict[str, list[dict[str, Any]]] = {"pending": [], "queue": []}
    for face_ in found.faces.values():
        out.setdefault(face_.json_list, [])
    for item in shown:
        out[found.face(item).json_list].append(item.to_json())
    return out


def nothing_said(found: Queues) -> str:
    """What a face says when the store's queues hold nothing: which are empty, or that
    it has none (and which layouts keep one)."""
    present = list(found.faces)
    if not present:
        return msg(
            "this store has no approval queue (those of the {join} layouts)",
            join=", ".join(queue_layouts()),
        )
    if len(present) == 1:
        return msg("nothing to approve — the store's queue is empty ({join})", join=present[0])
    return msg(
        "nothing to approve — the store's queues are empty ({join})",
        join=", ".join(present),
    )
