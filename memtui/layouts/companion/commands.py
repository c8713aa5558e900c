"""What the faces offer for a companion store (engine.commands): `memtui add event`
and the palette's new event and unresolved block. Data only: each runs and checks
through the companion engine code, imported when asked."""

from __future__ import annotations

from typing import Any

from memtui.engine.commands import Ask, Command
from memtui.layouts.companion.vocab import EMOTIONAL, EVENT_TYPES, PROMISE

HERE = "memtui.layouts.companion.commands"
OPS = "memtui.layouts.companion.ops"

COMMANDS = (
    Command(
        "companion.add-event",
        f"{OPS}:add_event",
        verb="add",
        name="event",
        help="a companion event, numbered after the last one",
        title="Add an event",
        about="To memory/events.md, numbered after the last one",
        label="add {type} event",
        asks=(
            Ask(
                "type",
                "the event's 类型",
                prompt="Add an event of which type?",
                choices=EVENT_TYPES,
            ),
            Ask(
                "content",
                "the event's 内容, one line",
                prompt="What happened ({type})? The 内容 line",
            ),
            Ask(
                "due",
                "YYYY-MM-DD, required for 约定",
                prompt="Due date (YYYY-MM-DD), or empty",
                flag="--due",
                optional=True,
                check=f"{HERE}:check_due",
                shape=f"{HERE}:due_asked",
            ),
            Ask(
                "stars",
                "1-5, for 情绪事件",
                prompt="情绪强度 (stars)?",
                flag="--stars",
                kind="int",
                optional=True,
                picks=(("no stars", None), *(("⭐" * n, n) for n in range(1, 6))),
                shape=f"{HERE}:stars_asked",
            ),
            Ask("user_state", "用户状态", flag="--state", metavar="STATE", optional=True),
            Ask("follow_up", "后续", flag="--follow-up", optional=True),
        ),
    ),
    Command(
        "companion.refresh-unresolved",
        f"{OPS}:refresh_unresolved",
        title="Refresh the unresolved block",
        about="MEMORY.md's 【最近未解决事项】 from events.md",
        label="refresh unresolved",
    ),
)


def due_asked(answers: dict[str, Any]) -> dict[str, Any]:
    """A promise's due date is required, and the question says so."""
    if answers.get("type") != PROMISE:
        return {}
    return {"prompt": f"Due date (YYYY-MM-DD), required for a {PROMISE}", "optional": False}


def stars_asked(answers: dict[str, Any]) -> dict[str, Any] | None:
    """Stars are asked of an emotional event only."""
    return {} if answers.get("type") == EMOTIONAL else None


def check_due(value: Any, answers: dict[str, Any]) -> None:
    """The due date add_event would write, refused as it would refuse it."""
    from memtui.layouts.companion.ops import due_date

    due_date(str(answers.get("type", "")), value or None)
