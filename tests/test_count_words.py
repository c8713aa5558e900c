"""Counts are said with the noun's number right, the same words on both faces: `check`'s
tally, the Warnings pane's header, the Hermes queue's badge, the queue's messages in the
app and the cut of what an agent loads (`1 error`, `3 warnings`, `not loaded: line 201
(1 line)`), never `1 errors` or `item(s)`. A count of a thousand or more is written
`1,974` (as Hermes writes its own), a list `E033, E035`, never a Python list."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer

from memtui.engine.context import context_of, unloaded
from memtui.engine.layouts import registry
from memtui.engine.queue import QueueFace
from memtui.engine.store import open_store
from memtui.engine.words import counted
from memtui.ui.panes.pending import PendingPane
from memtui.ui.panes.queued import approve_question, reject_question
from memtui.ui.panes.warnings import WarningsPane
from tests.conftest import run_cli, write_tree
from tests.ui_helpers import HostApp, PaneHost, demo_store, until
from tests.ui_helpers import run_loaded as run

MEMORY = "- [Tea](tea.md) — green tea\n- [Gone](gone.md) — a memory deleted since\n"
TEA = "---\nname: tea\ndescription: green tea\ntype: user\n---\nTea.\n"


def one_error(tmp_path: Path) -> Path:
    """A Claude folder with exactly one finding: the pointer to gone.md (an error)."""
    return write_tree(tmp_path / "memory", {"MEMORY.md": MEMORY, "tea.md": TEA})


def test_counted_says_one_in_the_singular_and_any_other_number_in_the_plural() -> None:
    assert [counted(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert counted(1, "info", "info") == "1 info" and counted(3, "info", "info") == "3 info"


def test_counts_from_a_thousand_have_separators_and_lists_are_written_out() -> None:
    from memtui.engine.words import listed

    assert counted(1974, "warning") == "1,974 warnings"
    assert listed(["E033", "E035"]) == "E033, E035" and listed([]) == "nothing"


def test_what_a_change_did_is_said_as_people_write_it() -> None:
    from memtui.cli.output import detail  # a receipt's details, `memtui log`'s too

    assert detail("nearDuplicatesFound", 8802775) == "8,802,775"
    assert detail("line", 1314) == "1314" and detail("lines", [1314, 1400]) == "1314, 1400"
    assert detail("duplicates", [{"fact": "x", "line": 4}]) == "1 (--json lists them)"


def test_check_writes_counts_and_lists_as_people_write_them(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")
    index = root / "memory.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text + "\n" * (1200 - text.count("\n")), encoding="utf-8")
    (root / "agent.md").write_text("# 规则\n" + "- [2026-11-01] 先写测试\n" * 400, "utf-8")
    got = run_cli("check", "--store", str(root)).stdout
    assert "memory.md has 1,200 lines (blocked at 180)" in got
    assert re.search(r"agent\.md is \d{1,2},\d{3} bytes \(threshold 8,192\)", got)
    stale = next(line for line in got.splitlines() if "unresolved-stale" in line)
    assert re.search(r"it lists E\d+, E\d+", stale) and "events.md gives E" in stale
    assert not re.search(r"\[['\"]", got), "a Python list in a message"
    findings = json.loads(run_cli("check", "--json", "--store", str(root)).stdout)["findings"]
    assert all(f["line"] is None or type(f["line"]) is int for f in findings)  # plain numbers
    summary = run_cli("open", "--summary", str(root)).stdout
    assert "memory.md 1,200 lines" in summary


def test_check_tallies_one_error_in_the_singular(tmp_path: Path) -> None:
    got = run_cli("check", "--store", str(one_error(tmp_path)))
    assert "Traceback" not in got.stderr
    assert got.stdout.splitlines()[-1] == "1 error, 0 warnings, 0 info"


def test_the_warnings_header_tallies_one_error_in_the_singular(tmp_path: Path) -> None:
    root = one_error(tmp_path)

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(WarningsPane)
        await until(pilot, lambda: len(pane.findings) == 1)
        assert "1 error · 0 warnings · 0 info" in pane.header_text.plain

    run(PaneHost(str(root), "warnings"), body)


def test_the_hermes_queue_counts_one_staged_skill_in_the_singular(tmp_path: Path) -> None:
    home = write_tree(
        tmp_path / "hermes",
        {"memories/MEMORY.md": "tea\n", "pending/skills/5k1115k1.json": '{"id": "5k1115k1"}'},
    )
    store = open_store(home)
    outline = registry()["hermes"].outline(store, store.data["hermes"])
    (pending,) = [i for i in outline if i.label.startswith("pending")]
    assert pending.badges == (("1 skill", "info"),)


def test_queue_questions_say_one_item_in_the_singular() -> None:
    dsh, queued = registry()["dsh"].queue_face, QueueFace()
    one = SimpleNamespace(shown_as="hermes-pending:0d6b3e58", approvable=True)
    cand = SimpleNamespace(shown_as="x", approvable=True)
    both: Any = [(dsh, [cand]), (queued, [one])]
    assert approve_question(both).startswith("Approve 1 candidate and 1 queued write?")
    assert approve_question([(queued, [one, one])]).startswith("Approve 2 queued writes?")  # type: ignore[list-item]
    assert "? It leaves the queue unapplied" in reject_question([(queued, [one])])  # type: ignore[list-item]
    assert "? They leave the queue unapplied" in reject_question(both)


def test_the_cut_of_a_claude_index_names_the_line_past_it_once(tmp_path: Path) -> None:
    lines = "".join(f"- [Tea {n}](tea.md) — green tea\n" for n in range(201))
    store = open_store(write_tree(tmp_path / "memory", {"MEMORY.md": lines, "tea.md": TEA}))
    (cf,) = context_of(store)["claude"]
    said = f"{cf.note}; {unloaded(store, cf)}"
    assert said == (
        "Claude loads MEMORY.md up to 200 lines; the closing '> WARNING:' paragraph is "
        "Claude's own, appended after the cut; not loaded: line 201 (1 line)"
    )


class PendingOnly(HostApp):
    """The real app with only the pending pane; what it says is recorded."""

    focus_first = "#pane-pending"

    def compose(self) -> ComposeResult:
        yield PendingPane(id="pane-pending")
        yield Footer()


def test_the_pending_pane_refuses_one_candidate_in_the_singular(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = app.query_one(PendingPane)
        await until(pilot, lambda: len(pane.items) > 0, what="the candidates")
        cand = next(c for c in pane.items if not c.approvable)
        pane.rows.cursor = pane.positions[cand.id]
        await pilot.press("a")
        refusal = f"cannot accept 1 candidate: {cand.name}: "
        await until(pilot, lambda: any(t.startswith(refusal) for _, t in app.said), what=refusal)

    run(PendingOnly(root), body)
