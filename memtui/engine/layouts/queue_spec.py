"""What a layout declares of its approval queue for the faces, as data: the options its
approve takes (QueueOption, on its light detection: the CLI's parsers read them without
importing a parser) and how its queue is worded and offered (QueueFace). NamedTuples:
listing and searching import this with the detections, and never `dataclasses`."""

from __future__ import annotations

from typing import NamedTuple

from memtui.i18n import N_


class QueueOption(NamedTuple):
    """An option of a layout's approve beyond the ids (an edit-then-accept's `--target`,
    `--all`): the CLI offers it, and sends it to that layout only."""

    flag: str  # as typed: `--target`
    dest: str  # the keyword approve() takes its value as (and the CLI's argparse dest)
    help: str
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    # The QueueItem field it also picks items by, for `pending` and `accept --all`
    # ("": it picks nothing).
    picks: str = ""
    # It edits the one item approved (edit-then-accept): given with exactly one id.
    edits: bool = False
    from_file: bool = False  # the value names a file (-: stdin) whose text is sent
    every: bool = False  # a switch standing for every item of the queue (`--all`)


class QueueFace(NamedTuple):
    """How the faces speak of a layout's queue, and what they offer on it. The defaults
    are a queued write's, approved as its agent would apply it."""

    # Words in English (N_): the faces show them through tr(), in the reader's language.
    one: str = N_("queued write")  # an item
    many: str = N_("queued writes")
    short: str = N_("queued")  # a count in a label: `approve 3 queued`
    header: str = N_("queued")  # a count in a header: `3 queued` (or `20 pending`)
    verb: str = N_("approve")  # what approving is called (or `accept`)
    doing: str = N_("approving")  # `approving would change`
    # A confirm's question for approving `{what}` (`{Verb}`: the verb capitalised) and
    # for rejecting it (`{They}`: It leaves / They leave); the faces add the rest.
    approves: str = N_("{Verb} {what}? Each is applied as its agent would apply it")
    rejects: str = N_("Reject {what}? {They} the queue unapplied; the reason is kept.")
    summary: str = N_("summary")  # the detail's label for an item's summary (or evidence)
    origin: str = N_("origin")  # ... for who staged it ("": its items never say)
    always: bool = False  # shown even when empty: the queue is part of the layout
    # Its preview can show what approving several items at once would change (its
    # approve plans them as one): the faces preview a selection of them together.
    together: bool = False
    editable: bool = False  # an item's text may be changed before it is approved (`e`)
    json_list: str = "queue"  # the list of `pending --json` its items are in
