"""The openclaw layout's findings (SPEC §3b, §5), each at the file and line it is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Listing, there
from memtui.engine.textfile import TextFile
from memtui.i18n import Msg, msg
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
        cap = rules.cap(item.name)
        v = {"file": item.name, "chars": item.trim.original, "cap": cap, "first": first}
        if first is not None and item.trim.truncated:
            add(
                "bootstrap-size",
                item.name,
                first,
                msg(
                    "{file} is {chars:,} characters: OpenClaw injects at most {cap:,} (its "
                    "head and tail), so from line {first} the middle of the file is never "
                    "loaded",
                    **v,
                ),
            )
        elif first is not None:
            add(
                "bootstrap-size",
                item.name,
                first,
                msg(
                    "{file}: the bootstrap files together pass OpenClaw's {budget:,}-character "
                    "budget, so from line {first} it is never loaded",
                    file=item.name,
                    budget=rules.TOTAL_MAX_CHARS,
                    first=first,
                ),
            )
        elif item.trim.original >= rules.warn_at(item.name):
            add(
                "bootstrap-size",
                item.name,
                None,
                msg(
                    "{file} is {chars:,} characters, {percent}% of the {cap:,} OpenClaw "
                    "injects: past that the file is cut",
                    percent=item.trim.original * 100 // cap,
                    **v,
                ),
                level="warning",
            )
    injected = {item.name for item in data.injected}
    for name in data.present:
        if name in rules.BOOTSTRAP and name not in injected:
            add(
                "bootstrap-size",
                name,
                1,
                msg(
                    "{file} is never injected: the bootstrap files before it use up "
                    "OpenClaw's {budget:,}-character budget",
                    file=name,
                    budget=rules.TOTAL_MAX_CHARS,
                ),
            )
    if rules.LEFTOVER in data.present:
        add(
            "bootstrap-leftover",
            rules.LEFTOVER,
            None,
            msg(
                "{file} is the first-run ritual and is still here: OpenClaw injects it "
                "into every session until it is deleted",
                file=rules.LEFTOVER,
            ),
        )
    if ALT_MEMORY in top.root_files:  # root-memory-files.ts: the legacy name
        both = rules.MEMORY in top.root_files
        add(
            "memory-case",
            ALT_MEMORY,
            None,
            msg(
                "both {file} and {alt}: OpenClaw injects only {file} and dreaming writes "
                "there, so what {alt} holds is shadowed (`openclaw doctor --fix` merges it "
                "into {file})",
                file=rules.MEMORY,
                alt=ALT_MEMORY,
            )
            if both
            else msg(
                "{alt} is the legacy name: OpenClaw injects only {file} (exact case), so "
                "what it holds never reaches the agent",
                file=rules.MEMORY,
                alt=ALT_MEMORY,
            ),
        )
    for name in rules.RETIRED:
        if there(top, name):
            add(
                "bootstrap-retired",
                name,
                None,
                msg(
                    "{file} is no longer injected: {why}",
                    file=name,
                    why=msg(rules.RETIRED_WHY[name]),
                ),
            )
    for d in data.daily:
        if d.date is None:
            add(
                "daily-name",
                d.file,
                None,
                msg(
                    "{file} is not named memory/YYYY-MM-DD.md (or YYYY-MM-DD-slug.md): "
                    "OpenClaw reads today's and yesterday's notes by that name",
                    file=d.file,
                ),
            )
        elif d.future:
            add(
                "daily-name",
                d.file,
                None,
                msg(
                    "{file} is dated {date}, after today ({today}): a daily note in the future",
                    file=d.file,
                    date=d.date.isoformat(),
                    today=data.today.isoformat(),
                ),
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
                _outside(s, role, path),
            )


def _outside(s: audit.Suggestion, role: str, path: str) -> Msg:
    v = {"file": audit.QUEUE, "line": s.line, "id": s.id, "path": path}
    if role == "target":
        return msg(
            "{file} line {line}: suggestion {id}'s target {path!r} is outside the workspace; "
            "memtui will not apply it",
            **v,
        )
    return msg(
        "{file} line {line}: suggestion {id}'s source {path!r} is outside the workspace; "
        "memtui will not apply it",
        **v,
    )
