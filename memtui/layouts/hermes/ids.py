"""What Hermes entries are named by and where they stand: the ids and spans its
entries, outline and queue share (apart from the layout, which imports its outline)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from memtui.engine.model import Span
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.data import ARCHIVE, HermesData, Staged
from memtui.layouts.hermes.detect import PENDING

ENTRY = "hermes"  # hermes:memory#3, hermes:user#1
ARCHIVED = "hermes-archived"  # hermes-archived:<id>


def entry_ids(data: HermesData) -> Iterator[tuple[str, Any, rules.Piece]]:
    """(id, file, piece) of every entry as written, numbered from 1 in each file."""
    for mf in data.files:
        for n, piece in enumerate(mf.pieces, 1):
            yield f"{ENTRY}:{mf.target}#{n}", mf, piece


def span_of(mf: Any, piece: rules.Piece) -> Span:
    text = mf.tf.text
    first = rules.line_at(text, piece.start) - 1
    last = rules.line_at(text, max(piece.stop - 1, piece.start))
    return Span(mf.rel, first, last, piece.start, piece.stop)


def title_of(text: str, width: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def pending_id(item: Staged) -> str:
    name = item.rel.rsplit("/", 1)[-1].removesuffix(".json")
    return f"{PENDING}:skills/{name}" if item.skill else f"{PENDING}:{name}"


def archived_span(a: Any) -> Span:
    """An archived entry's line in memories/archived.jsonl."""
    return Span(ARCHIVE, a.line - 1, a.line, a.start, a.stop)
