"""What the faces offer for a companion store (engine.commands): `memtui add event`
and the palette's new event and unresolved block. Data only: each runs and checks
through the companion engine code, imported when asked."""

from __future__ import annotations

from typing import Any

from memtui.engine.commands import Ask, Command
from memtui.i18n import N_, msg
from memtui.layouts.companion.vocab import EMOTIONAL, EVENT_TYPES, PROMISE

HERE = "memtui.layouts.companion.commands"
OPS = "memtui.layouts.companion.ops"

COMMANDS = (
    Command(
        "companion.add-event",
        f"{OPS}:add_event",
        verb="add",
        name="event",
        help=N_("a companion event, numbered after the last one"),
        title=N_("Add an event"),
        about=N_("To memory/events.md, numbered after the last one"),
        label=N_("add {type} event"),
        asks=(
            Ask(
                "type",
                N_("the event's 类型"),
                prompt=N_("Add an event of which type?"),
                choices=EVENT_TYPES,
            ),
            Ask(
                "content",
                N_("the event's 内容, one line"),
                prompt=N_("What happened ({type})? The 内容 line"),
            ),
            Ask(
                "due",
                N_("YYYY-MM-DD, required for 约定"),
                prompt=N_("Due date (YYYY-MM-DD), or empty"),
                flag="--due",
                optional=True,
                check=f"{HERE}:check_due",
                shape=f"{HERE}:due_asked",
            ),
            Ask(
                "stars",
                N_("1-5, for 情绪事件"),
                prompt=N_("情绪强度 (stars)?"),
                flag="--stars",
                kind="int",
                optional=True,
                picks=((N_("no stars"), None), *(("⭐" * n, n) for n in range(1, 6))),
                shape=f"{HERE}:stars_asked",
            ),
            Ask("user_state", N_("用户状态"), flag="--state", metavar="STATE", optional=True),
            Ask("follow_up", N_("后续"), flag="--follow-up", optional=True),
        ),
    ),
    Command(
        "companion.refresh-unresolved",
        f"{OPS}:refresh_unresolved",
        title=N_("Refresh the unresolved block"),
        about=N_("MEMORY.md's 【最近未解决事项】 from events.md"),
        label=N_("refresh unresolved"),
    ),
)


def due_asked(answers: dict[str, Any]) -> dict[str, Any]:
    """A promise's due date is required, and the question says so."""
    if answers.get("type") != PROMISE:
        return {}
    # the face translates a prompt by its template: the promise's name is store vocabulary
    prompt = msg("Due date (YYYY-MM-DD), required for a {promise}", promise=PROMISE)
    return {"prompt": prompt, "optional": False}


def stars_asked(answers: dict[str, Any]) -> dict[str, Any] | None:
    """Stars are asked of an emotional event only."""
    return {} if answers.get("type") == EMOTIONAL else None


def check_due(value: Any, answers: dict[str, Any]) -> None:
    """The due date add_event would write, refused as it would refuse it."""
    from memtui.layouts.companion.ops import due_date

    due_date(str(answers.get("type", "")), value or None)
