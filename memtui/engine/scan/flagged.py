"""Whether approving a queued write would put a secret or a planted instruction into
memory: every approve of every layout's queue asks here first (engine.queue), and is
refused unless the user allowed it, which the audit record then says (never the text)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from memtui.engine.scan.findings import INJECTION, SECRET

if TYPE_CHECKING:
    from memtui.engine.model import Finding
    from memtui.engine.queue import QueueItem

ALLOWED = "allowed_flagged"  # the audit details' key: item id -> what was found in it
# approve's options that carry no text it would write
_NOT_TEXT = frozenset({"expect", "expected", "dry_run", "allow_flagged"})


class Flag(NamedTuple):
    code: str  # secret | entry-injection
    kind: str  # "GitHub token", "invisible character"

    def __str__(self) -> str:
        return f"{self.code}: {self.kind}"


def flags_in(texts: Iterable[str]) -> list[Flag]:
    """What the scans find in these texts, each (code, kind) once, in order."""
    from memtui.engine.scan.injection import find_injections
    from memtui.engine.scan.secrets import find_secrets

    found: dict[Flag, None] = {}
    for text in texts:
        if text:
            found.update((Flag(SECRET, h.kind), None) for h in find_secrets(text))
            found.update((Flag(INJECTION, h.kind), None) for h in find_injections(text))
    return list(found)


def item_flags(item: QueueItem, options: Mapping[str, Any] | None = None) -> list[Flag]:
    """What approving `item` would write that the scans flag: its text, the agent's words
    about it, its fields, and any text given with the approve (an edit's new text)."""
    whole = item.whole()
    given = [v for k, v in (options or {}).items() if k not in _NOT_TEXT and isinstance(v, str)]
    return flags_in([whole.summary, whole.body or "", *(v for _, v in whole.fields), *given])


def said(flags: list[Flag]) -> str:
    """`a GitHub token and an instruction to ignore the system`: kinds, never values."""
    from memtui.engine.scan.findings import a_kind
    from memtui.engine.words import listed

    return listed(a_kind(f.kind) for f in flags)


def refusal(item_id: str, flags: list[Flag]) -> str:
    return (
        f"{item_id}: its text holds {said(flags)}; approving it would put that into the "
        "agent's memory. Reject it or edit it, or approve it anyway as flagged "
        "(--allow-flagged; the app asks), which the audit log records. Nothing was changed"
    )


def flagged_by_findings(findings: Iterable[Finding], items: Iterable[QueueItem]) -> dict[str, str]:
    """Each item whose record a snapshot's `secret` or `entry-injection` finding is on
    -> those codes, in words (`secret, entry-injection`): what a face asks about before
    it approves, without scanning on its own thread (the engine scans again anyway)."""
    on: dict[str, list[Finding]] = {}
    for f in findings:
        if f.code in (SECRET, INJECTION) and f.file:
            on.setdefault(f.file, []).append(f)
    out = {}
    for item in items:
        hits = [
            f for f in on.get(item.file, ()) if item.line is None or f.line in (None, item.line)
        ]
        if hits:
            out[item.id] = ", ".join(sorted({f.code for f in hits}, reverse=True))
    return out
