"""What a dry run found and would change (nothing was written), with a key to
go ahead. Maintenance uses it: its report (duplicates, near-duplicates) and the
diff of each file `apply` would write."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from memtui.engine.diff import change_diff
from memtui.i18n import N_, _, tr
from memtui.ui.safe import literal, row
from memtui.ui.screens.history import DiffRows
from memtui.ui.screens.page import PageScreen
from memtui.ui.widgets.footer import Footer

SHOWN = 200  # report items listed (the report file keeps what the engine keeps)
ACTIONS = {"write": N_("write"), "remove": N_("remove"), "move": N_("move")}  # a change's


class DryRunScreen(PageScreen[None]):
    DEFAULT_CSS = """
    DryRunScreen #report-lines { height: 1fr; }
    """
    BINDINGS = [
        Binding("a", "apply", N_("Apply"), id="report.apply"),
        Binding("escape", "close", N_("Close"), id="report.close"),
        Binding("q", "close", N_("Close"), id="report.close_q", show=False),
    ]

    def __init__(self, label: str, receipts: list[Any], apply: Callable[[], None] | None) -> None:
        super().__init__()
        self.label = label
        self.receipts = receipts
        self.apply = apply
        self.lines = report_lines(receipts)

    def compose(self) -> ComposeResult:
        yield Static(
            row(_("{label}: a dry run, nothing was written").format(label=self.label)),
            id="report-title",
            classes="page-title",
        )
        note = _("a applies it (after you confirm) · Esc closes") if self.apply else _("Esc closes")
        yield Static(literal(note), id="report-note", classes="page-note")
        yield DiffRows(id="report-lines")
        yield Footer()

    def on_mount(self) -> None:
        rows = self.query_one(DiffRows)
        rows.show_lines(self.lines)
        rows.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return self.apply is not None
        return True

    def action_apply(self) -> None:
        if self.apply is not None:
            self.dismiss(None)
            self.apply()

    def action_close(self) -> None:
        self.dismiss(None)


def report_lines(receipts: list[Any]) -> list[str]:
    """The summary, maintenance's findings, then each change and its diff."""
    lines: list[str] = []
    for receipt in receipts:
        details = receipt.details
        summary = details.get("summary")
        lines.append(tr(summary) if summary else _("{op}: dry run").format(op=receipt.op))
        duplicates = details.get("duplicates") or []
        if duplicates:
            lines += [
                "",
                _("Exact duplicate facts ({n}), removed by apply:").format(
                    n=details.get("duplicatesFound")
                ),
            ]
            for d in duplicates[:SHOWN]:
                same = d.get("sameAs", {})
                lines.append(
                    "  "
                    + _("line {line} [{section}] {fact}  (same as line {same})").format(
                        line=d.get("line"),
                        section=d.get("section"),
                        fact=d.get("fact"),
                        same=same.get("line"),
                    )
                )
        near = details.get("nearDuplicates") or []
        if near:
            lines += [
                "",
                _("Near-duplicate pairs ({n}), reported only:").format(
                    n=details.get("nearDuplicatesFound")
                ),
            ]
            for n in near[:SHOWN]:
                (a, b), (la, lb) = n.get("facts", ("", "")), n.get("lines", ("?", "?"))
                lines.append(
                    "  "
                    + _("lines {a_line} & {b_line} ({similarity}): {a}  |  {b}").format(
                        a_line=la, b_line=lb, similarity=n.get("similarity"), a=a, b=b
                    )
                )
        lines += ["", _("What apply would write:") if receipt.changes else _("Nothing to write.")]
        for change in receipt.changes:
            lines.append(f"  {_(ACTIONS.get(change.action, change.action))} {change.path}")
        for change in receipt.changes:
            if change.action == "write":
                lines += ["", *change_diff(change).splitlines()]
    return lines
