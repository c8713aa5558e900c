"""The pending pane (dsh queue) driven by Pilot over real demo stores in tmp_path.

Most tests run the real MemtuiApp (its loading, run_op and reload) with only the
pending pane composed, so they do not depend on the other panes; one test runs
the whole app once every pane exists.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer, Input

from memtui.engine import frontmatter
from memtui.ui.app import MemtuiApp
from memtui.ui.panes import pending_preview as preview_module
from memtui.ui.panes.pending import PendingPane
from memtui.ui.screens.confirm import ConfirmScreen
from memtui.ui.screens.prompt import PromptScreen
from tests import demo_facts as facts
from tests.conftest import tree_digest
from tests.ui_helpers import (
    SIZE,
    HostApp,
    answer_confirm,
    demo_store,
    press_until,
    run,
    until,
)

# The demo's candidates, in the pane's order (file name order).
FIRST, SECOND, THIRD = facts.FIRST, facts.SECOND, facts.THIRD
NO_EVIDENCE, FIRST_BODY, COUNT = facts.NO_EVIDENCE, facts.FIRST_BODY, facts.CANDIDATES


class PendingOnly(HostApp):
    """The real app with only the pending pane; notifications are recorded."""

    focus_first = "#pane-pending"

    def __init__(self, root: str, *, footer: bool = True, **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self.footer = footer

    def compose(self) -> ComposeResult:
        yield PendingPane(id="pane-pending")
        if self.footer:
            yield Footer()


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def pane_of(app: MemtuiApp) -> PendingPane:
    return app.query_one(PendingPane)


def row_of(pane: PendingPane, cid: str) -> int:
    return next(i for i, item in enumerate(pane.items) if item.name == cid)


async def loaded(pilot: Pilot, app: MemtuiApp, count: int = COUNT) -> PendingPane:
    pane = pane_of(app)
    await until(pilot, lambda: len(pane.items) == count)
    return pane


def said_starting(app: PendingOnly, prefix: str) -> bool:
    return any(text.startswith(prefix) for _, text in app.said)


async def preview_of(pilot: Pilot, pane: PendingPane, needle: str) -> str:
    await until(pilot, lambda: needle in pane.preview_text.plain)
    return pane.preview_text.plain


# --- accept ------------------------------------------------------------------------


def test_accept_two_selected_moves_them_and_writes_facts(demo: Path) -> None:
    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("space", "space")  # space selects and moves down
        assert pane.selected == {f"pending:{FIRST}", f"pending:{SECOND}"}
        assert pane.rows.selected == {0, 1}
        assert "✓" in pane.render_row(0).plain
        assert pane.current is not None and pane.current.name == THIRD
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")  # asked once, with the count
        assert question.startswith("Accept 2 candidates")
        await until(pilot, lambda: len(pane.items) == COUNT - 2)
        # the cursor stayed on the same candidate; the accepted rows are gone
        assert pane.current is not None and pane.current.name == THIRD
        assert pane.selected == set()

    app = PendingOnly(str(demo))
    run(app, body)
    for cid in (FIRST, SECOND):
        assert not (demo / "pending" / f"{cid}.md").exists()
        assert (demo / "archive" / "pending" / f"{cid}.md").exists()
    facts = (demo / "facts.md").read_text("utf-8")
    assert FIRST_BODY in facts
    second = (demo / "archive" / "pending" / f"{SECOND}.md").read_text("utf-8")
    assert frontmatter.split(second).body.strip().split("\n")[0] in facts
    audit = (demo / ".history" / "audit.jsonl").read_text("utf-8")
    assert '"accept"' in audit
    assert any("accept 2 candidates" in text for _, text in app.said)


def test_accept_without_selection_takes_the_highlighted_one_and_moves_on(demo: Path) -> None:
    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("down")
        assert pane.current is not None and pane.current.name == SECOND
        await press_until(pilot, "a", lambda: len(pane.items) == COUNT - 1)
        assert pane.current is not None and pane.current.name == THIRD

    run(PendingOnly(str(demo)), body)
    assert (demo / "archive" / "pending" / f"{SECOND}.md").exists()
    assert (demo / "pending" / f"{FIRST}.md").exists()


def test_no_evidence_is_refused_and_nothing_is_written(demo: Path) -> None:
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        row = row_of(pane, NO_EVIDENCE)
        assert "no evidence" in pane.render_row(row).plain
        pane.rows.cursor = row
        text = await preview_of(pilot, pane, "accepting is refused")
        assert "no evidence — cannot be accepted" in text
        assert "No Execution, No Memory" in text
        await pilot.press("a")
        await until(
            pilot,
            lambda: any(
                sev == "error" and NO_EVIDENCE in text and "no evidence" in text
                for sev, text in app.said
            ),
        )
        # select-all takes every acceptable candidate, not this one; again clears
        await pilot.press("asterisk")
        assert len(pane.selected) == COUNT - 1
        assert f"pending:{NO_EVIDENCE}" not in pane.selected
        await pilot.press("ctrl+a")
        assert pane.selected == set()

    run(PendingOnly(str(demo)), body)
    assert tree_digest(demo) == before


def test_broken_bookkeeping_says_no_accept_can_go_through(demo: Path) -> None:
    (demo / "memory_stats.json").write_text('{"facts": 1,', encoding="utf-8")
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        assert "no accept until memory_stats.json parses" in pane.header_text.plain
        await pilot.press("a")
        await until(pilot, lambda: any(sev == "error" for sev, _ in app.said))
        assert any("memory_stats.json does not parse" in text for _, text in app.said)

    run(PendingOnly(str(demo)), body)
    after = tree_digest(demo)
    after.pop(".memory.lock")  # the refusal came under the lock; the lock file stays
    assert after == before


# --- reject ------------------------------------------------------------------------


def test_reject_asks_for_a_reason_and_archives_with_it(demo: Path) -> None:
    reason = "duplicate of [b]DATABASE[/b] fact"

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        await press_until(pilot, "r", lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("enter")  # empty: stays open, says why
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        assert "empty" in str(app.screen.query_one("#prompt-hint").render())
        app.screen.query_one(Input).value = reason
        await press_until(pilot, "enter", lambda: len(pane.items) == COUNT - 1)
        assert pane.current is not None and pane.current.name == SECOND

    run(PendingOnly(str(demo)), body)
    assert not (demo / "pending" / f"{FIRST}.md").exists()
    text = (demo / "archive" / "rejected" / f"{FIRST}.md").read_text("utf-8")
    meta = frontmatter.load(frontmatter.split(text).yaml_text or "")
    assert meta["reject_reason"] == reason
    assert FIRST_BODY not in (demo / "facts.md").read_text("utf-8")


def test_reject_escape_cancels(demo: Path) -> None:
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        await loaded(pilot, app)
        await press_until(pilot, "r", lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("x", "escape")
        await until(pilot, lambda: not isinstance(app.screen, PromptScreen))
        assert app._changes_running == 0  # no reject was started

    run(PendingOnly(str(demo)), body)
    assert tree_digest(demo) == before


# --- preview -----------------------------------------------------------------------


def test_preview_shows_the_diff_accepting_would_make(demo: Path, monkeypatch: Any) -> None:
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        text = await preview_of(pilot, pane, "+" + FIRST_BODY)
        assert "pending:" + FIRST in text
        first = app.store.data.get("dsh").candidates[0]  # type: ignore[union-attr]
        assert str(first.evidence) in text
        assert f"{first.source_session} · seqs {', '.join(map(str, first.source_seqs))}" in text
        assert "fact:DATABASE is active" in text  # the target's provenance
        assert "--- a/facts.md" in text
        assert f"moves pending/{FIRST}.md → archive/pending/{FIRST}.md" in text
        # holding ↓ (key repeat, faster than the debounce) starts no dry run until the
        # highlight rests: only the candidate it rests on is previewed
        runs.clear()
        for _ in range(8):  # one burst: no debounce timer can fire in between
            pane.rows.action_move(1)
        await preview_of(pilot, pane, "pending:" + pane.items[8].name)
        await until(
            pilot,
            lambda: (
                "accepting is refused" in pane.preview_text.plain
                or "+++" in pane.preview_text.plain
            ),
        )
        assert runs == [[f"pending:{pane.items[8].name}"]]

    runs: list[list[str]] = []
    real = preview_module.dry_run

    def counted(root: str, ids: list[str]) -> Any:
        runs.append(list(ids))
        return real(root, ids)

    monkeypatch.setattr(preview_module, "dry_run", counted)
    run(PendingOnly(str(demo)), body)
    assert tree_digest(demo) == before  # a dry run writes nothing


def test_store_text_is_never_markup_and_broken_ones_are_marked(tmp_path: Path) -> None:
    """Evidence and body are data: markup and escapes are shown, never interpreted."""
    root = tmp_path / "dsh"
    (root / "pending").mkdir(parents=True)
    (root / "index.txt").write_text("[RULES] x\n", "utf-8")
    (root / "facts.md").write_text("## GIT\n- one\n", "utf-8")
    (root / "pending" / "bad.md").write_text("---\nid: [unclosed\n---\n- x\n", "utf-8")
    (root / "pending" / "x-1.md").write_text(
        "---\nid: x-1\nentry_type: fact\ntarget: GIT\n"
        'evidence: "[@click=app.quit]ran[/] \\e[31m"\n---\n- [b]bold[/b] \x1b[2J\n',
        "utf-8",
    )
    before = tree_digest(root)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app, count=2)
        assert "✗ broken" in pane.render_row(0).plain
        await preview_of(pilot, pane, "accepting is refused")
        await pilot.press("a")
        await until(
            pilot,
            lambda: any(sev == "error" and "broken front matter" in t for sev, t in app.said),
        )
        assert tree_digest(root) == before
        await pilot.press("down")
        assert "[@click=app.quit]ran[/] \\x1b[31m" in pane.render_row(1).plain
        text = await preview_of(pilot, pane, "+- [b]bold[/b]")
        assert "\x1b" not in text and "\\x1b[2J" in text
        assert app.is_running

    run(PendingOnly(str(root)), body)


# --- read-only ---------------------------------------------------------------------


def test_read_only_hides_accept_and_reject_and_writes_nothing(demo: Path) -> None:
    before = tree_digest(demo)

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        pane = await loaded(pilot, app)
        keys = app.screen.active_bindings
        assert "a" not in keys and "r" not in keys and "e" not in keys
        assert "space" in keys
        await pilot.press("space", "a", "r")
        # each key says why nothing happens (the app's on_key); no prompt opens
        await until(pilot, lambda: said_starting(app, "reject: the store is open read-only"))
        assert said_starting(app, "accept: the store is open read-only")
        assert not isinstance(app.screen, PromptScreen)
        pane.action_accept()  # the palette path: run_op refuses
        await until(pilot, lambda: said_starting(app, f"accept {FIRST}: the store is open"))
        assert app._changes_running == 0
        await preview_of(pilot, pane, "+++ b/facts.md")  # the preview still works

    run(PendingOnly(str(demo), read_only=True), body)
    assert tree_digest(demo) == before


# --- the modal screens -------------------------------------------------------------


def test_confirm_screen_keys_and_buttons(demo: Path) -> None:
    answers: list[bool | None] = []

    async def body(pilot: Pilot, app: PendingOnly) -> None:
        await loaded(pilot, app)
        for keys, expected in ((("y",), True), (("n",), False), (("escape",), False)):
            app.push_screen(ConfirmScreen("[b]Sure?[/b]"), answers.append)
            await pilot.pause()
            assert "[b]Sure?[/b]" in str(app.screen.query_one("#confirm-question").render())
            await pilot.press(*keys)
            await pilot.pause()
            assert answers[-1] is expected
        app.push_screen(ConfirmScreen("Sure?"), answers.append)
        await pilot.pause()
        await pilot.press("enter")  # "No" has the focus: a stray Enter destroys nothing
        await pilot.pause()
        assert answers[-1] is False
        app.push_screen(ConfirmScreen("Sure?"), answers.append)
        await pilot.pause()
        await pilot.press("tab", "enter")  # to "Yes" on purpose
        await pilot.pause()
        assert answers[-1] is True
        app.push_screen(ConfirmScreen("Sure?"), answers.append)
        await pilot.pause()
        await pilot.click("#confirm-no")
        await pilot.pause()
        assert answers[-1] is False

    run(PendingOnly(str(demo)), body)


# --- the whole app and the snapshot ------------------------------------------------


def test_full_app_accepts_from_the_pending_tab(demo: Path) -> None:
    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await pilot.pause()
        await pilot.press("5")
        pane = await loaded(pilot, app)
        await until(pilot, lambda: app.focused is pane.rows)
        await preview_of(pilot, pane, "+" + FIRST_BODY)
        await press_until(pilot, "a", lambda: len(pane.items) == COUNT - 1)

    run(MemtuiApp(str(demo), watch=False), body)
    assert (demo / "archive" / "pending" / f"{FIRST}.md").exists()
    assert FIRST_BODY in (demo / "facts.md").read_text("utf-8")


def test_snapshot_pending_with_preview(demo: Path, snap_compare: Any, monkeypatch: Any) -> None:
    # the dry run stamps memory-meta.json with "now": pin it so the picture is stable
    from memtui.layouts.dsh import ops  # noqa: F401  (loads every module accept uses)

    for name, module in list(sys.modules.items()):
        if name.startswith(("memtui.engine.ops.", "memtui.layouts.")) and hasattr(
            module, "now_iso"
        ):
            monkeypatch.setattr(module, "now_iso", lambda: "2026-11-29T21:40:00+08:00")

    async def ready(pilot: Pilot) -> None:
        pane = await loaded(pilot, pilot.app)  # type: ignore[arg-type]
        # selects the 2nd and the 3rd (a new sop): the preview is what `a` does to both
        await pilot.press("down", "space", "space")
        await preview_of(pilot, pane, "+++ b/sops/setup-grafana.md")
        assert "2 selected" in pane.preview_text.plain

    # no Footer: the app's own keys (which other panes add to) would be in the picture
    app = PendingOnly(str(demo), footer=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=ready)
