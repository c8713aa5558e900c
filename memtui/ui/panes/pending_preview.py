"""What the pending pane's preview shows, worked out in a thread worker: a dry run of
accepting dsh candidates, or another layout's queue preview (engine.queue), both as
one plain DryRun (a summary, a diff per file, or the refusal). Writes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from memtui.engine.queue import Gauge

# Files the preview shows first: what the user reads; the bookkeeping after.
_FIRST = ("facts.md", "sops/")


@dataclass(frozen=True, slots=True)
class Section:
    """One file a dry run would touch: its diff (writes), or where it moves."""

    action: str  # write | move | remove
    path: str
    source: str | None
    diff: str


@dataclass(frozen=True, slots=True)
class DryRun:
    summary: str
    sections: tuple[Section, ...]
    error: str | None  # the refusal or conflict; None when it would be accepted


def dry_run(root: str, rel: str | list[str], expected: Mapping[str, str]) -> DryRun:
    """What accepting one candidate, or several at once, would change now (runs in a
    thread; writes nothing)."""
    from memtui.engine.diff import unified
    from memtui.engine.write.transaction import WriteError
    from memtui.layouts.dsh import ops as dsh

    try:
        files = [rel] if isinstance(rel, str) else rel
        receipts = dsh.accept(root, files, dry_run=True, expected=dict(expected))
    except WriteError as exc:  # a refusal (no evidence, …) or a conflict
        return DryRun("", (), str(exc))
    except Exception as exc:  # shown in the preview, never a traceback
        return DryRun("", (), f"internal error: {exc!r}")
    sections: list[Section] = []
    summaries: list[str] = []
    for receipt in receipts:
        summary = receipt.details.get("summary")
        if isinstance(summary, str):
            summaries.append(summary)
        for change in receipt.changes:
            diff = ""
            if change.action == "write":
                diff = unified(_decode(change.old), _decode(change.new), change.path)
            sections.append(Section(change.action, change.path, change.source, diff))
    sections.sort(key=lambda s: (s.action != "write", not s.path.startswith(_FIRST)))
    return DryRun("; ".join(summaries), tuple(sections), None)


def queue_dry_run(root: str, item_id: str) -> DryRun:
    """What approving one queued item would change now (engine.queue.preview): its
    diff, each gauge as `before → after / limit`, or why it would be refused."""
    from memtui.engine import queue
    from memtui.engine.errors import MemtuiError
    from memtui.engine.write.transaction import WriteError

    try:
        got = queue.preview(root, item_id)
    except (MemtuiError, WriteError) as exc:
        return DryRun("", (), str(exc))
    except Exception as exc:  # shown in the preview, never a traceback
        return DryRun("", (), f"internal error: {exc!r}")
    gauges = "\n".join(gauge_said(g) for g in got.gauges)
    if got.error is not None:
        return DryRun(gauges, (), got.error)
    sections = (Section("write", "", None, got.diff),) if got.diff else ()
    return DryRun(gauges, sections, None)


def gauge_said(gauge: Gauge) -> str:
    """`memories/MEMORY.md: 1,204 → 1,391 / 2,200 chars` (over the limit said)."""
    over = "  over the limit" if gauge.after > gauge.limit else ""
    return f"{gauge.file}: {gauge.before:,} → {gauge.after:,} / {gauge.limit:,} {gauge.unit}{over}"


def _decode(data: bytes | None) -> str:
    if not data:
        return ""
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff")
