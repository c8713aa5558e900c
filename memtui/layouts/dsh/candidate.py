"""A dsh pending candidate as the parser reads it (SPEC §3): its front matter, its body
in the file's text, and why accepting it is refused now. Its queue item is made from
it (layouts.dsh.queue)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.textfile import TextFile


@dataclass(frozen=True, slots=True)
class Candidate:
    id: str
    file: str
    entry_type: str | None
    target: str | None
    evidence: str | None
    source_session: str | None
    source_seqs: tuple[Any, ...]
    created_at: str | None
    meta: Mapping[str, Any]
    valid: bool
    body_start: int = 0  # char offset of the body in the file's text
    source: TextFile | None = field(default=None, repr=False, compare=False)
    broken: str | None = None  # why it is not a usable candidate (valid is False)

    @property
    def body(self) -> str:
        return self.source.text[self.body_start :] if self.source else ""

    @property
    def problem(self) -> str | None:
        """Why accepting it is refused now (SPEC §3: No Execution, No Memory), or None."""
        if not self.valid:
            return self.broken or "broken front matter"
        if not (self.evidence and self.evidence.strip()):
            return "no evidence (No Execution, No Memory)"
        return None

    @property
    def acceptable(self) -> bool:
        return self.problem is None

    @property
    def entry_id(self) -> str:
        """Its entry id (SPEC §6), what every verb takes."""
        return f"pending:{self.id}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.entry_id,
            "file": self.file,
            "entry_type": self.entry_type,
            "target": self.target,
            "evidence": self.evidence,
            "source_session": self.source_session,
            "source_seqs": list(self.source_seqs),
            "created_at": self.created_at,
            "valid": self.valid,
            "acceptable": self.acceptable,
            "body": self.body,
        }
