"""The command line of every layout's approval queue (engine.queue): `pending` lists it,
`accept` approves, `reject` rejects. An id names its queue by its kind (a bare id is
made whole first: queue.full_ids). Each layout's options (its detection's
`queue_options`, such as an edit-then-accept's) are offered here, and sent to that
layout alone; nothing here knows which layouts have them."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memtui.cli import CallError, Refused
from memtui.cli.output import emit_json, line, said
from memtui.i18n import N_, _, tr

if TYPE_CHECKING:
    from memtui.engine.queue import QueueItem, QueueOption, Queues

_ID_HELP = N_("an item's id as `pending` lists it (or the bare id its agent shows)")
Verb = Callable[[str, Callable[..., int], str], argparse.ArgumentParser]


def register(verb: Verb, expect: Callable[[argparse.ArgumentParser], None]) -> None:
    """`accept` and `reject`, made by the write verbs' `verb` (their common options)."""
    p = verb("accept", accept)
    p.add_argument("ids", nargs="*", metavar="ID", help=_(_ID_HELP))
    expect(p)
    p.add_argument(
        "--allow-flagged",
        action="store_true",
        help=_(
            "approve an item whose text holds a secret or a planted instruction (refused "
            "without it); the audit log records that it was allowed, and what was found"
        ),
    )
    add_options(p, picking=False)
    p = verb("reject", reject)
    p.add_argument("ids", nargs="+", metavar="ID", help=_(_ID_HELP))
    expect(p)
    p.add_argument("--reason", required=True, help=_("why: kept in the audit log"))


def _options(picking: bool) -> list[QueueOption]:
    """Every layout's queue options, each flag once: those that pick items (`pending`),
    or all of them (`accept`)."""
    from memtui.engine.layouts import detectors

    found: dict[str, QueueOption] = {}
    for detection in detectors().values():
        for option in detection.queue_options:
            if option.picks or not picking:
                found.setdefault(option.flag, option)
    return list(found.values())


def add_options(p: argparse.ArgumentParser, *, picking: bool) -> None:
    for o in _options(picking):
        if o.every:
            p.add_argument(o.flag, dest=o.dest, action="store_true", help=tr(o.help))
        else:
            p.add_argument(
                o.flag, dest=o.dest, choices=o.choices or None, metavar=o.metavar, help=tr(o.help)
            )


def _given(args: argparse.Namespace, picking: bool = False) -> dict[QueueOption, Any]:
    return {
        o: v for o in _options(picking) if (v := getattr(args, o.dest, None)) not in (None, False)
    }


def _declaring(option: QueueOption) -> list[str]:
    """The layouts whose queue takes this option."""
    from memtui.engine.layouts import detectors

    return [n for n, d in detectors().items() if option.flag in {o.flag for o in d.queue_options}]


def _flags(options: list[QueueOption], slashed: bool = False) -> str:
    """`--type/--target`, or `--type, --target and --body-file`."""
    flags = [o.flag for o in options]
    if slashed or len(flags) < 2:
        return "/".join(flags)
    return _("{some} and {last}").format(some=", ".join(flags[:-1]), last=flags[-1])


def _picked(item: QueueItem, picks: dict[QueueOption, Any]) -> bool:
    return all(getattr(item, o.picks) == value for o, value in picks.items())


# --- pending ---------------------------------------------------------------------------


def pending(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import load
    from memtui.engine import queue

    store = load(args)
    found = queue.queues(store)
    picks = _given(args, picking=True)
    layouts = set.intersection(*(set(_declaring(o)) for o in picks)) if picks else None
    shown = [
        i for i in found.items if (layouts is None or i.layout in layouts) and _picked(i, picks)
    ]
    if args.json:
        emit_json({"root": store.root, **queue.listing(found, shown)})
        return 0
    if not shown:
        line(_nothing(found, picks))
    for item in shown:
        line(_said(item))
    return 0


def _nothing(found: Queues, picks: dict[QueueOption, Any]) -> str:
    from memtui.engine import queue

    if not picks:
        return tr(queue.nothing_said(found))
    name = _declaring(next(iter(picks)))[0]
    pickers = [o for o in _options(True) if name in _declaring(o)]
    flags = _flags(pickers, slashed=True)
    return _("nothing to approve — no {layout} {item} matches {flags}").format(
        layout=name, item=tr(queue.face(name).one), flags=flags
    )


def _said(item: QueueItem) -> str:
    """One line: its id, what it changes, when, why it would be refused, its summary and
    the first line of what it writes."""
    if item.read_only:
        state = "[" + _("read-only") + "]"
    elif item.broken:
        state = f"[{tr(item.problem)}]"
    elif item.problem:
        note = tr(item.note) if item.note else None
        why = note or _("refused if approved: {why}").format(why=tr(item.problem))
        state = f"[{why}]"
    else:
        state = ""
    body = item.whole().body
    first = body.strip().split("\n", 1)[0] if body and body.strip() else ""
    parts = (f"{item.action} → {item.target}", item.created, state, item.summary, first)
    return "  ".join([item.shown_as, *(p for p in parts if p)])


# --- accept and reject -----------------------------------------------------------------


def full_ids(root: str, refs: list[str]) -> list[str]:
    """The ids given, a queued item's bare id made whole (engine.queue.full_ids)."""
    from memtui.engine import queue

    try:
        return queue.full_ids(root, refs)
    except queue.AmbiguousId as exc:
        raise Refused(said(exc)) from None


def _queue_of(ids: list[str], verb: str) -> str:
    """The one layout whose queue holds the ids; a wrong call if they are of several."""
    from memtui.engine import queue

    try:
        groups = queue.by_queue(ids)
    except queue.NotQueued as exc:
        raise Refused(said(exc)) from None
    if len(groups) > 1:
        raise CallError(
            _("{verb}: give one queue's ids per call (got {queues}); nothing was changed").format(
                verb=verb, queues=", ".join(groups)
            )
        )
    return next(iter(groups))


def _expected(args: argparse.Namespace, ids: list[str]) -> dict[str, str] | None:
    if args.expect is None:
        return None
    if len(ids) != 1:
        raise CallError(_("--expect goes with exactly one id"))
    return {ids[0]: args.expect}


def accept(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import store_root
    from memtui.cli.reporting import engine_errors, report
    from memtui.engine import queue

    given = _given(args)
    every = [o for o in given if o.every]
    if not args.ids and not every:
        alls = " or ".join(o.flag for o in _options(False) if o.every)
        raise CallError(
            _("accept needs ids or {flags}").format(flags=alls) if alls else _("accept needs ids")
        )
    root = store_root(args.store)
    if every:
        return _accept_every(args, root, given)
    ids = full_ids(root, args.ids)
    options = _options_of(_queue_of(ids, "accept"), given, ids, root)
    with engine_errors():
        receipts = queue.approve(
            root,
            ids,
            expected=_expected(args, ids),
            dry_run=args.dry_run,
            allow_flagged=args.allow_flagged,
            **options,
        )
    return report(args, receipts)


def _options_of(
    name: str, given: dict[QueueOption, Any], ids: list[str], root: str
) -> dict[str, Any]:
    """The options given, for this layout's approve: a wrong call if it does not take
    one, or if an edit names more than one id."""
    from memtui.cli.reporting import read_text_file
    from memtui.engine.queue import face

    for option in given:
        if name not in _declaring(option):
            owner = _declaring(option)[0]
            many = face(owner).many
            raise CallError(
                _("{flag} is for {owner} {items}, not {others}").format(
                    flag=option.flag, owner=owner, items=tr(many), others=tr(face(name).many)
                )
            )
    edits = [o for o in given if o.edits]
    if edits and len(ids) != 1:
        editing = [o for o in _options(False) if o.edits and name in _declaring(o)]
        raise CallError(
            _("{flags} edit exactly one {item}").format(
                flags=_flags(editing), item=tr(face(name).one)
            )
        )
    return {o.dest: read_text_file(v, root) if o.from_file else v for o, v in given.items()}


def _accept_every(args: argparse.Namespace, root: str, given: dict[QueueOption, Any]) -> int:
    """Every item of the queues that take `--all`, narrowed by the options that pick."""
    from memtui.cli.read_verbs import load
    from memtui.cli.reporting import engine_errors, report
    from memtui.engine import queue

    if args.expect is not None:
        raise CallError(_("--expect goes with exactly one id"))
    every = [o for o in given if o.every]
    names = set.intersection(*(set(_declaring(o)) for o in every))
    name = next(iter(names))
    takes = [o for o in _options(False) if name in _declaring(o)]
    if args.ids or any(o.edits and not o.picks for o in given):
        others = [o for o in takes if o.edits and not o.picks]
        raise CallError(
            _("{flags} takes no ids and no {others} ({pickers} filter it)").format(
                flags=_flags(every),
                others=_flags(others),
                pickers=_flags([o for o in takes if o.picks], slashed=True),
            )
        )
    picks = {o: v for o, v in given.items() if o.picks}
    found = queue.queues(load(args))
    chosen = [i for i in found.items if i.layout in names and _picked(i, picks)]
    if not chosen and picks:
        flags = _flags([o for o in takes if o.picks], slashed=True)
        raise Refused(
            _("no pending {item} matches {flags}; nothing changed").format(
                item=tr(queue.face(name).one), flags=flags
            )
        )
    receipts = []
    with engine_errors():
        for ids in queue.by_queue([i.id for i in chosen]).values():
            receipts += queue.approve(
                root, ids, dry_run=args.dry_run, allow_flagged=args.allow_flagged
            )
    return report(args, receipts)


def reject(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import store_root
    from memtui.cli.reporting import engine_errors, report
    from memtui.engine import queue
    from memtui.engine.inputs import InputError, check_reason

    root = store_root(args.store)
    try:
        reason = check_reason(args.reason)
    except InputError as exc:
        raise Refused(said(exc)) from None
    ids = full_ids(root, args.ids)
    _queue_of(ids, "reject")
    with engine_errors():
        receipts = queue.reject(
            root, ids, reason, expected=_expected(args, ids), dry_run=args.dry_run
        )
    return report(args, receipts)
