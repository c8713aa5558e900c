"""Where an entry of MEMORY.md came from, when OpenClaw's dreaming put it there: read
from the annotations it writes, shown as provenance, never rewritten. Source:
openclaw/openclaw `extensions/memory-core/src/short-term-promotion-apply.ts`
(buildPromotionSection: `- text [score=… source=path:a-b] <!-- trigger: … -->
<!-- importance: N -->`), `dreaming-consolidation.ts` (buildCandidateResultEntry:
`- text Source: path#La-Lb <!-- trigger: … --> <!-- importance: N -->`, an optional
`<!-- project: … -->`; the entry follows `<!-- openclaw-memory-promotion:KEY -->` and
maybe `<!-- openclaw-memory-lineage:KEY -->`) and `short-term-promotion-memory-write.ts`
(buildPromotionMarker).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memtui.engine.textfile import TextFile

_MARKER = re.compile(r"^\s*<!--\s*openclaw-memory-promotion:([^\n]*?)\s*-->\s*$")
_LINEAGE = re.compile(r"^\s*<!--\s*openclaw-memory-lineage:([^\n]*?)\s*-->\s*$")
_SOURCE = re.compile(r"\sSource:\s+(\S+#L\d+-L\d+)")
_SCORED = re.compile(
    r"\[score=\d+(?:\.\d+)? signals=\d+ recalls=\d+ avg=\d+(?:\.\d+)? source=([^\]]+)\]"
)
_TRIGGER = re.compile(r"<!--\s*trigger:\s*([^\r\n]*?)\s*-->")
_IMPORTANCE = re.compile(r"<!--\s*importance:\s*(\d+)\s*-->")
_PROJECT = re.compile(r"<!--\s*project:\s*([^\r\n]*?)\s*-->")


@dataclass(frozen=True, slots=True)
class Promotion:
    """One entry dreaming promoted into MEMORY.md."""

    line: int  # 1-based, the entry's own line
    source: str  # the daily note and lines it came from ("" when not said)
    trigger: str
    importance: int | None
    project: str
    key: str  # the promotion marker's candidate key ("" when none above it)
    lineage: str

    def said(self) -> str:
        """In words, for an entry's title."""
        where = f" from {self.source}" if self.source else ""
        return f"promoted by dreaming{where}"

    def to_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "source": self.source or None,
            "trigger": self.trigger or None,
            "importance": self.importance,
            "project": self.project or None,
            "promotion": self.key or None,
            "lineage": self.lineage or None,
        }


def promotions(tf: TextFile | None) -> tuple[Promotion, ...]:
    if tf is None or ("<!--" not in tf.text and "Source:" not in tf.text):
        return ()
    lines = tf.lines()
    out = []
    for i, raw in enumerate(lines):
        line = raw.rstrip("\r\n")
        if _MARKER.match(line) or _LINEAGE.match(line):
            continue
        key = _MARKER.match(lines[i - 1]) if i else None
        lineage = _LINEAGE.match(lines[i - 2]) if key and i > 1 else None
        trigger, importance = _TRIGGER.search(line), _IMPORTANCE.search(line)
        source = _SOURCE.search(line) or _SCORED.search(line)
        if not key and not (source and (trigger or importance)):
            continue  # a line a person wrote that merely says "Source:"
        project = _PROJECT.search(line)
        out.append(
            Promotion(
                i + 1,
                source.group(1).strip() if source else "",
                trigger.group(1) if trigger else "",
                int(importance.group(1)) if importance else None,
                project.group(1) if project else "",
                key.group(1).strip() if key else "",
                lineage.group(1).strip() if lineage else "",
            )
        )
    return tuple(out)
