"""The workspace layout's parsed data (parse.py)."""

from __future__ import annotations

from dataclasses import dataclass

from memtui.engine.model import Section


@dataclass(frozen=True, slots=True)
class Pointer:
    description: str
    target: str
    line: int  # 1-based


@dataclass(frozen=True, slots=True)
class Workspace:
    index_file: str
    index_lines: int
    index_sections: tuple[Section, ...]
    pointers: tuple[Pointer, ...]
    topics: tuple[str, ...]  # topic file names at the root
    soul_sections: tuple[Section, ...]
    user_sections: tuple[Section, ...]
    agent_sections: tuple[Section, ...]
    agent_bytes: int | None
