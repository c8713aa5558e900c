"""The openclaw layout's findings (SPEC §3b, §5), each at the file and line it is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Listing, there
from memtui.engine.textfile import TextFile
from memtui.layouts.openclaw import audit, rules
from memtui.layouts.openclaw.rules import ALT_MEMORY, first_unloaded

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader
    from memtui.layouts.openclaw.layout import OpenClawData


def check(reader: StoreReader, data: OpenClawData, top: Listing, queue: TextFile | None) -> None:
    add = reader.findings.add
    for item in data.injected:
        if item.trim is None:
            continue
        first = first_unloaded(item)
        size = f"{item.name} is {item.trim.original:,} characters"
        cap = rules.cap(item.name)
        if first is not None and item.trim.truncated:
            add(
                "bootstrap-size",
                item.name,
                first,
                f"{size}: OpenClaw injects at most {cap:,} (its head and tail), so "
                f"from line {first} the middle of the file is never loaded",
            )
        elif first is not None:
            add(
                "bootstrap-size",
                item.name,
                first,
                f"{item.name}: the bootstrap files together pass OpenClaw's "
                f"{rules.TOTAL_MAX_CHARS:,}-character budget, so from line {first} it is "
                "never loaded",
            )
        elif item.trim.original >= rules.warn_at(item.name):
            add(
                "bootstrap-size",
                item.name,
                None,
                f"{size}, {item.trim.original * 100 // cap}% of the "
                f"{cap:,} OpenClaw injects: past that the file is cut",
                level="warning",
            )
    injected = {item.name for item in data.injected}
    for name in data.present:
        if name in rules.BOOTSTRAP and name not in injected:
            add(
                "bootstrap-size",
                name,
                1,
                f"{name} is never injected: the bootstrap files before it use up OpenClaw's "
                f"{rules.TOTAL_MAX_CHARS:,}-character budget",
            )
    if rules.LEFTOVER in data.present:
        add(
            "bootstrap-leftover",
            rules.LEFTOVER,
            None,
            f"{rules.LEFTOVER} is the first-run ritual and is still here: OpenClaw injects it "
            "into every session until it is deleted",
        )
    if ALT_MEMORY in top.root_files:  # root-memory-files.ts: the legacy name
        both = rules.MEMORY in top.root_files
        add(
            "memory-case",
            ALT_MEMORY,
            None,
            f"both {rules.MEMORY} and {ALT_MEMORY}: OpenClaw injects only {rules.MEMORY} and "
            f"dreaming writes there, so what {ALT_MEMORY} holds is shadowed (`openclaw doctor "
            f"--fix` merges it into {rules.MEMORY})"
            if both
            else f"{ALT_MEMORY} is the legacy name: OpenClaw injects only {rules.MEMORY} "
            "(exact case), so what it holds never reaches the agent",
        )
    for name in rules.RETIRED:
        if there(top, name):
            add(
                "bootstrap-retired",
                name,
                None,
                f"{name} is no longer injected: {rules.RETIRED_WHY[name]}",
            )
    for d in data.daily:
        if d.date is None:
            add(
                "daily-name",
                d.file,
                None,
                f"{d.file} is not named memory/YYYY-MM-DD.md (or YYYY-MM-DD-slug.md): "
                "OpenClaw reads today's and yesterday's notes by that name",
            )
        elif d.future:
            add(
                "daily-name",
                d.file,
                None,
                f"{d.file} is dated {d.date.isoformat()}, after today "
                f"({data.today.isoformat()}): a daily note in the future",
            )
    for s in data.queue:
        _queue_paths(reader, s)


def _queue_paths(reader: StoreReader, s: audit.Suggestion) -> None:
    """A suggestion whose file leads outside the workspace (`../`, absolute, a link out)."""
    for role in ("target", "source"):
        place = s.record.get(role)
        path = place.get("path") if isinstance(place, dict) else None
        if isinstance(path, str) and reader.escapes("", path.strip().replace("\\", "/")):
            reader.findings.add(
                "path-escape",
                audit.QUEUE,
                s.line,
                f"{audit.QUEUE} line {s.line}: suggestion {s.id}'s {role} {path!r} is "
                "outside the workspace; memtui will not apply it",
            )
