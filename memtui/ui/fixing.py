"""`f` on a finding: its quick fix (engine/fixes.py), shown first as a dry run (the
report screen's diff, `a` to apply), then applied after a confirm, as one
operation that `z` undoes. A fix that asks (which profile item, remove the
dangling pointer or create its file) asks first, with the real choice screen.

It runs in the pane that offers it: every wish goes up as a message (ui.messages)
through `post`, the pane's own post_message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message import Message

from memtui.engine.model import Finding
from memtui.i18n import _, tr
from memtui.ui.messages import Ask, RunOp, Say
from memtui.ui.said import error_text

Post = Callable[[Message], object]


def offer_fix(post: Post, store: Any, finding: Finding, *, read_only: bool) -> None:
    from memtui.engine.fixes import fixable, where

    if read_only:
        post(Say(_("fix: the store is open read-only (--read-only); nothing changes")))
        return
    if not fixable(finding):
        post(
            Say(
                _("{code} ({where}) has no quick fix").format(
                    code=finding.code, where=where(finding)
                ),
                "warning",
            )
        )
        return
    fix = _plan(post, store, finding, ())
    if fix is None:
        return
    if not fix.choices:
        _dry_run(post, store, finding, ())
        return
    from memtui.ui.screens.choose import ChoiceScreen

    def chosen(index: int | None) -> None:
        if index is not None:
            _dry_run(post, store, finding, (fix.choices[index],))

    question = _("{fix}: choose {what} (enter picks, Esc cancels)").format(
        fix=tr(fix.title), what=tr(fix.ask) if fix.ask else _("what to do")
    )
    post(Ask(ChoiceScreen(question, list(fix.choices)), chosen))


def _plan(post: Post, store: Any, finding: Finding, choose: tuple[str, ...]) -> Any:
    from memtui.engine.errors import MemtuiError
    from memtui.engine.fixes import plan
    from memtui.engine.write.transaction import WriteError

    try:
        return plan(store, finding, choose)
    except (MemtuiError, WriteError) as exc:
        post(Say(error_text(exc), "warning", _("fix {code}").format(code=finding.code)))
        return None


def _dry_run(post: Post, store: Any, finding: Finding, choose: tuple[str, ...]) -> None:
    fix = _plan(post, store, finding, choose)
    if fix is None:
        return
    label = _("fix {code}").format(code=finding.code)

    def apply() -> None:
        asked = _("Apply the fix: {fix}?").format(fix=tr(fix.title))
        if fix.irreversible:
            asked += " " + tr(fix.irreversible)
        post(RunOp(label, lambda: fix.run(False), confirm=asked))

    post(RunOp(label, lambda: fix.run(True), apply=apply))
