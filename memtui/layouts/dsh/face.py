"""How the faces speak of dsh's queue (its pending candidates): apart from
layouts.dsh.queue, so that loading the layout to open a store does not import the queue
model (engine.queue) an open never uses."""

from __future__ import annotations

from memtui.engine.layouts.queue_spec import QueueFace
from memtui.i18n import N_

FACE = QueueFace(
    one=N_("candidate"),  # English: the faces say them through tr()
    many=N_("candidates"),
    short=N_("candidates"),
    header=N_("pending"),
    verb=N_("accept"),
    doing=N_("accepting"),
    approves=N_(
        "{Verb} {what} into memory? They move to archive/pending/ and their facts "
        "and sops are written"
    ),
    rejects=N_("Reject {what}? It moves to archive/rejected/ with the reason in its front matter."),
    summary=N_("evidence"),
    origin="",  # a candidate's session is a field of its own
    always=True,  # pending/ is part of the layout: its queue is shown when empty too
    together=True,  # accept plans a selection as one chunk: one dry run shows it all
    editable=True,  # edit-then-accept (SPEC §3)
    json_list="pending",
)
