"""The companion layout's parsed data (parse.py)."""

from __future__ import annotations

from dataclasses import dataclass

from memtui.engine.model import Event, Mood, Span


@dataclass(frozen=True, slots=True)
class ProfileCategory:
    name: str
    items: tuple[str, ...]
    core: bool  # names 称呼/昵称/关系/禁忌: never trimmed automatically
    span: Span


@dataclass(frozen=True, slots=True)
class Companion:
    events: tuple[Event, ...]
    last_active: str | None
    mood: Mood | None
    profile: tuple[ProfileCategory, ...]
    persona_details: tuple[str, ...]
    unresolved_ids: tuple[str, ...] | None  # None: no block in MEMORY.md
