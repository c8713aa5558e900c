"""Adding memory by hand from the app (the palette's "Add a fact" / "Add an event"):
a few questions in turn, then one engine call, as `memtui add` makes it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from memtui.layouts.companion.ops import EVENT_TYPES
from memtui.ui.messages import RunOp
from memtui.ui.screens.choose import ChoiceScreen
from memtui.ui.screens.prompt import PromptScreen

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

NEW_SECTION = "a new section…"
NO_STARS = "no stars"


async def add_fact(app: MemtuiApp) -> None:
    from memtui.layouts.dsh import ops as dsh

    store = app.store
    if store is None or store.dsh is None:
        return
    sections = [s.name for s in store.dsh.fact_sections]
    picked = await app.push_screen_wait(
        ChoiceScreen("Add a fact to which section of facts.md?", [*sections, NEW_SECTION])
    )
    if picked is None:
        return
    section = sections[picked] if picked < len(sections) else await _ask(app, "The new section")
    text = section and await _ask(app, f"The fact, for ## {section}")
    evidence = text and await _ask(
        app, "Evidence: how was it verified? (No Execution, No Memory)", placeholder="ran …"
    )
    if section and text and evidence:
        root = app.root
        app.post_message(
            RunOp(f"add fact to {section}", partial(dsh.add_fact, root, section, text, evidence))
        )


async def add_event(app: MemtuiApp) -> None:
    from memtui.layouts.companion import ops as companion

    types = list(EVENT_TYPES)
    picked = await app.push_screen_wait(ChoiceScreen("Add an event of which type?", types))
    if picked is None:
        return
    kind = types[picked]
    content = await _ask(app, f"What happened ({kind})? The 内容 line")
    if not content:
        return
    due = await _ask(
        app,
        "Due date (YYYY-MM-DD)" + (", required for a 约定" if kind == "约定" else ", or empty"),
        optional=kind != "约定",
        check=lambda text: _refused(companion.due_date, kind, text or None),
    )
    if due is None:
        return
    stars: int | None = None
    if kind == "情绪事件":
        levels = [NO_STARS, *("⭐" * n for n in range(1, 6))]
        chosen = await app.push_screen_wait(ChoiceScreen("情绪强度 (stars)?", levels))
        if chosen is None:
            return
        stars = chosen or None
    root = app.root
    add = partial(companion.add_event, root, kind, content, stars=stars, due=due or None)
    app.post_message(RunOp(f"add {kind} event", add))


def _refused(check: Callable[..., object], *args: object) -> str | None:
    """Why the engine refuses these (asked before the change, so a bad answer is asked
    again and nothing typed so far is lost), or None."""
    from memtui.engine.errors import MemtuiError

    try:
        check(*args)
    except MemtuiError as exc:
        return str(exc)
    return None


async def _ask(app: MemtuiApp, question: str, **kwargs: Any) -> str | None:
    answer: str | None = await app.push_screen_wait(PromptScreen(question, **kwargs))
    return answer
