"""How the dsh layout (SPEC §3) is recognised, without its parser: listing and
searching a store import only this."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection, there
from memtui.engine.layouts.queue_spec import QueueOption
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memtui.engine.layouts.listing import Listing

DSH_INDEX = "index.txt"
FACTS = "facts.md"
# Accept's options beyond the ids (SPEC §3 and §6): `--all`, and edit-then-accept.
OPTIONS = (
    QueueOption(
        "--all", "all", "every pending candidate (narrowed by --type / --target)", every=True
    ),
    QueueOption(
        "--type",
        "entry_type",
        "only candidates of this type (with accept: filters --all)",
        choices=("fact", "sop"),
        picks="action",
        edits=True,
    ),
    QueueOption(
        "--target",
        "target",
        "only candidates for this section / sop (with accept: filters --all; with one ID: "
        "accept into this target instead)",
        picks="target",
        edits=True,
    ),
    QueueOption(
        "--body-file",
        "body",
        "accept this text instead of the body (-: stdin)",
        metavar="F",
        edits=True,
        from_file=True,
    ),
)


class DshDetection(Detection):
    name = "dsh"
    looks_for = N_("index.txt beside facts.md, sops/ or pending/ (dsh)")
    title = msg("facts, sops and pending candidates")
    full = "memtui.layouts.dsh.layout:Dsh"
    commands_at = "memtui.layouts.dsh.commands:COMMANDS"
    order = 30
    keeps_queue = True
    thresholds = {"l1_warn_lines": 25, "l1_max_lines": 30}  # index.txt: warn, error above
    looked_in = "~/.dsh/memory"
    default_store = "~/.dsh/memory"  # SPEC §6: the store when none is given
    log_ids = {"accepted": "pending:", "rejected": "pending:"}  # the candidates acted on

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        return [os.path.join(home, ".dsh", "memory")]

    def bare_kind(self, ref: str) -> str | None:
        """A candidate by its id (`20261118-0001`): any bare id no file name."""
        return None if ref.partition("@")[0].strip().endswith(".md") else "pending"

    queue_options = OPTIONS

    def queued(self, root: str, names: list[str]) -> list[tuple[str, str]]:
        """(name, full id) of each of `names` that is a candidate's (engine.queue.full_ids)."""
        found = (n for n in names if os.path.lexists(os.path.join(root, "pending", f"{n}.md")))
        return [(n, f"pending:{n}") for n in found]

    def detect(self, top: Listing) -> bool:
        beside = there(top, FACTS) or any(d in ("sops", "pending") for d in top.dirs)
        return there(top, DSH_INDEX) and beside
