"""`f` on a finding: its quick fix (engine/fixes.py), shown first as a dry run (the
report screen's diff, `a` to apply), then applied after a confirm, as one
operation that `z` undoes. A fix that asks (which profile item, remove the
dangling pointer or create its file) asks first, with the real choice screen."""

from __future__ import annotations

from typing import Any

from textual.app import App

from memtui.engine.model import Finding
from memtui.ui.editing import ask, say


def offer_fix(app: App[Any], store: Any, finding: Finding) -> None:
    from memtui.engine.fixes import fixable, where

    if getattr(app, "read_only", False):
        say(app, "fix: the store is open read-only (--read-only); nothing changes")
        return
    if not fixable(finding):
        say(app, f"{finding.code} ({where(finding)}) has no quick fix", severity="warning")
        return
    fix = _plan(app, store, finding, ())
    if fix is None:
        return
    if not fix.choices:
        _dry_run(app, store, finding, ())
        return
    from memtui.ui.screens.choose import ChoiceScreen

    def chosen(index: int | None) -> None:
        if index is not None:
            _dry_run(app, store, finding, (fix.choices[index],))

    question = f"{fix.title}: choose {fix.ask or 'what to do'} (enter picks, Esc cancels)"
    app.push_screen(ChoiceScreen(question, list(fix.choices)), chosen)


def _plan(app: App[Any], store: Any, finding: Finding, choose: tuple[str, ...]) -> Any:
    from memtui.engine.errors import MemtuiError
    from memtui.engine.fixes import plan
    from memtui.engine.write.transaction import WriteError

    try:
        return plan(store, finding, choose)
    except (MemtuiError, WriteError) as exc:
        say(app, str(exc), severity="warning", title=f"fix {finding.code}")
        return None


def _dry_run(app: App[Any], store: Any, finding: Finding, choose: tuple[str, ...]) -> None:
    fix = _plan(app, store, finding, choose)
    if fix is None:
        return
    label = f"fix {finding.code}"

    def apply() -> None:
        ask(app, f"Apply the fix: {fix.title}?", lambda: app.run_op(label, lambda: fix.run(False)))  # type: ignore[attr-defined]

    app.run_op(label, lambda: fix.run(True), apply=apply)  # type: ignore[attr-defined]
