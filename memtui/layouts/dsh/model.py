"""The dsh layout's parsed data (parse.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memtui.engine.model import Span, item_text
from memtui.engine.textfile import TextFile

if TYPE_CHECKING:
    from memtui.layouts.dsh.candidate import Candidate


@dataclass(frozen=True, slots=True)
class FactSection:
    """A `## SECTION` of facts.md. Fact texts are sliced from the file when asked
    for, so 50,000 facts are not held twice."""

    name: str
    span: Span
    fact_lines: tuple[int, ...]  # 1-based
    source: TextFile = field(repr=False, compare=False)

    @property
    def facts(self) -> tuple[tuple[int, str], ...]:
        """(1-based line, text) of each `- fact` line."""
        lines = self.source.text[self.span.char_start : self.span.char_stop].split("\n")
        first = self.span.start + 1
        return tuple((n, item_text(lines[n - first])) for n in self.fact_lines)


@dataclass(frozen=True, slots=True)
class Sop:
    name: str
    file: str
    title: str
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Dsh:
    index_lines: int
    rules: tuple[str, ...]
    auto_segment: tuple[str, ...] | None  # None: no auto markers
    fact_sections: tuple[FactSection, ...]
    sops: tuple[Sop, ...]
    candidates: tuple[Candidate, ...]
    archived: tuple[str, ...]  # relative paths under archive/
    provenance: Mapping[str, Any]  # memory-meta.json "entries"
    stats: Mapping[str, Any]
    heat: Mapping[str, int]  # path -> reads, from file_access_stats.json
