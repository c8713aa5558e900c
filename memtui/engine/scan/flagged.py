"""Whether approving a queued write would put a secret or a planted instruction into
memory: every approve of every layout's queue asks here first (engine.queue), and is
refused unless the user allowed it, which the audit record then says (never the text)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from memtui.engine.scan.findings import INJECTION, SECRET

if TYPE_CHECKING:
    from memtui.engine.layouts.base import Layout
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


def flags_each(texts_of: Sequence[Sequence[str]]) -> list[list[Flag]]:
    """flags_in() of each item's texts, the scans run only on the texts the prefilter picks
    out in one pass over them all (an approve of 10,000 candidates: 1.2 s of scans)."""
    from memtui.engine.scan.prefilter import suspects

    picked = suspects([text for texts in texts_of for text in texts])
    out, at = [], 0
    for texts in texts_of:
        out.append(flags_in([t for i, t in enumerate(texts, at) if i in picked]))
        at += len(texts)
    return out


def item_texts(item: QueueItem, options: Mapping[str, Any] | None = None) -> list[str]:
    """What approving `item` would write, for the scans: its text, the agent's words about
    it, its fields, and any text given with the approve (an edit's new text)."""
    whole = item.whole()
    texts = [whole.summary, whole.body or "", *(v for _, v in whole.fields)]
    return [*texts, *_given(options or {})]


def _given(options: Mapping[str, Any]) -> list[str]:
    """The texts given with an approve (an edit's new text), which it would write too."""
    return [v for k, v in options.items() if k not in _NOT_TEXT and isinstance(v, str)]


def said(flags: list[Flag]) -> str:
    """`a GitHub token, an instruction to ignore the system`: kinds, never values."""
    from memtui.engine.scan.findings import a_kind
    from memtui.engine.words import commas

    return commas([a_kind(f.kind) for f in flags])


def reason(flags: list[Flag]) -> str:
    """Why approving an item holding `flags` is refused (refusal() without its id)."""
    from memtui.i18n import msg

    return msg(
        "its text holds {found}; approving it would put that into the agent's memory. "
        "Reject it or edit it, or approve it anyway as flagged (--allow-flagged; the app "
        "asks), which the audit log records. Nothing was changed",
        found=said(flags),
    )


def refusal(item_id: str, flags: list[Flag]) -> str:
    from memtui.i18n import msg

    return msg("{id}: {reason}", id=item_id, reason=reason(flags))


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


def record_texts(
    root: str, lay: Layout, refs: Sequence[str], options: Mapping[str, Any]
) -> list[list[str]]:
    """What approving each queued item of `refs` (ids, no `@FINGERPRINT`) would write, for
    the scans: read from its record alone (the file its layout says the id lives in: no
    store is opened), and any text given with the approve. A JSON record's strings are
    given decoded (an invisible character JSON escaped is one); of a JSON Lines file, the
    records that name the item. Each file is read once, however many items it holds (an
    OpenClaw queue is one file)."""
    from memtui.engine.config import thresholds_at

    limit = thresholds_at(root).max_file_bytes
    files: dict[str, _Records] = {}
    given = _given(options)
    out = []
    for ref in refs:
        kind, _, name = ref.partition(":")
        rel = lay.file_of(kind, name)
        if rel and rel not in files:
            files[rel] = _Records(root, rel, limit)
        out.append([*(files[rel].naming(name) if rel else []), *given])
    return out


class _Records:
    """One queue file as read once: of a JSON Lines file its lines (each item's texts are
    those of the records naming it), else the texts of the whole file, for every item."""

    def __init__(self, root: str, rel: str, limit: int) -> None:
        import os

        from memtui.engine.textfile import TextFile, read_file

        got = read_file(os.path.join(root, rel), rel, limit)
        text = got.text if isinstance(got, TextFile) else None  # else its layout refuses
        self.lines = got.lines() if text is not None and rel.endswith(".jsonl") else None
        self.texts = [] if text is None else _decoded([text]) if rel.endswith(".json") else [text]

    def naming(self, name: str) -> list[str]:
        if self.lines is None:
            return self.texts
        return _decoded([r for r in self.lines if name in r])


def _decoded(records: list[str]) -> list[str]:
    """The strings of JSON records (a record that is no JSON: itself)."""
    import json

    texts = []
    for record in records:
        try:
            texts.extend(_strings(json.loads(record)))
        except (ValueError, RecursionError):
            texts.append(record)
    return texts


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
