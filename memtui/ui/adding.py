"""A layout's command from the app (the palette's "Add a fact", "Run maintenance", ...,
engine.commands): its questions in turn, then its one engine call, as `memtui add` or
`memtui maintain` makes it. Nothing here knows a layout: the command says what to ask,
and the layout's engine code says whether an answer will do."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from memtui.engine.commands import Ask, Command, asked, find, refusal, run, suggested
from memtui.i18n import tr
from memtui.ui.messages import RunOp
from memtui.ui.screens.choose import ChoiceScreen
from memtui.ui.screens.prompt import PromptScreen

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

CANCELLED = object()  # escape on a question: nothing is run


async def run_command(app: MemtuiApp, command_id: str) -> None:
    """Ask the command's questions (each as the answers before it shape it), then run it."""
    layouts = app.store.layouts if app.store is not None else None
    command = find(command_id, layouts)
    if command is None:
        return
    answers: dict[str, Any] = {}
    for ask in command.asks:
        shaped = asked(ask, answers)
        if shaped is None or not shaped.prompt:
            continue  # not asked here: the run's default
        answer = await _answer(app, shaped, answers)
        if answer is CANCELLED:
            return
        answers[ask.name] = answer
    _start(app, command, answers)


def _start(app: MemtuiApp, command: Command, answers: dict[str, Any]) -> None:
    label = tr(command.said(answers))  # the layout's words (a Msg: in the reader's language)
    if not command.writes:  # a dry run: its report, with `a` to go on to `then`
        then = command.then
        apply = partial(app.action_command, then) if then else None
        app.run_op(label, partial(run, command, app.root, answers, dry_run=True), apply=apply)
        return
    op = partial(run, command, app.root, answers)
    app.post_message(RunOp(label, op, confirm=tr(command.confirm) if command.confirm else None))


async def _answer(app: MemtuiApp, ask: Ask, answers: dict[str, Any]) -> Any:
    """One answer: picked from a list (its picks, choices or the store's options, with
    `other` to type one not there), or typed; CANCELLED on escape."""
    question = tr(ask.prompt).format_map(_Known(answers))
    if ask.picks:
        picked = await app.push_screen_wait(ChoiceScreen(question, [p[0] for p in ask.picks]))
        return CANCELLED if picked is None else ask.picks[picked][1]
    if ask.choices or ask.options:
        offered = suggested(ask, app.store) if app.store is not None else list(ask.choices)
        more = [f"{tr(ask.other)}…"] if ask.other else []
        picked = await app.push_screen_wait(ChoiceScreen(question, [*offered, *more]))
        if picked is None:
            return CANCELLED
        if picked < len(offered):
            return offered[picked]
        question = tr(ask.other)
    typed = await app.push_screen_wait(
        PromptScreen(
            question,
            placeholder=tr(ask.placeholder) if ask.placeholder else "",
            optional=ask.optional,
            check=lambda text: _translated(refusal(ask, text, answers)),
        )
    )
    if typed is None:
        return CANCELLED
    return typed or None  # an optional question left empty: not given


def _translated(why: str | None) -> str | None:
    return tr(why) if why is not None else None


class _Known(dict[str, Any]):
    """The answers so far, for a question that names one ({section})."""

    def __missing__(self, key: str) -> str:
        return ""
