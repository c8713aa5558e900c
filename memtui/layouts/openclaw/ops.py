"""Editing an OpenClaw workspace through ops.edit (SPEC §3b): a bootstrap file whole
(`openclaw:SOUL.md`) or one of its `## ` sections (`openclaw:MEMORY.md#Preferences`).

The daily notes (`openclaw-daily:`) are not edited: OpenClaw keeps them as
append-only logs that the agent appends to as it works, and its own Memory Audit
treats them as read-only evidence (memory-audit.ts isWritableSurfaceKind:
`daily-memory` is not writable). What belongs in long-term memory is moved from
them with the audit's `add`, or by editing MEMORY.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from memtui.engine.ops.common import Refused
from memtui.engine.ops.replace import section, whole
from memtui.engine.textfile import TextFile
from memtui.i18n import msg
from memtui.layouts.openclaw.rules import DREAMS, FILES

OPENCLAW_KINDS = ("openclaw", "openclaw-daily")


def openclaw_target(
    root: str, kind: str, name: str, expect: str | None
) -> tuple[str, Callable[[TextFile], tuple[int, int]], int]:
    """For ops.edit: (file, how to find the entry in its current text, heading level)."""
    if kind == "openclaw-daily":
        raise Refused(
            msg(
                "openclaw-daily:{name}: OpenClaw's daily notes are append-only "
                "logs the agent writes; memtui does not rewrite them (edit "
                "MEMORY.md, or apply a Memory Audit add); nothing was written",
                name=name,
            )
        )
    file, sep, heading = name.partition("#")
    if file in DREAMS:
        raise Refused(
            msg(
                "openclaw:{name}: {file} is dreaming's diary, rewritten by "
                "OpenClaw under its own lock; memtui does not edit it; nothing "
                "was written",
                name=name,
                file=file,
            )
        )
    if file not in FILES:
        raise Refused(
            msg(
                "openclaw:{name}: not a workspace file memtui edits ({join})",
                name=name,
                join=", ".join(FILES),
            )
        )
    if not os.path.isfile(os.path.join(root, file)):
        raise Refused(msg("no entry openclaw:{name} ({file} does not exist)", name=name, file=file))
    if not sep:
        return file, whole, 0
    return file, section(file, heading, expect), 2
