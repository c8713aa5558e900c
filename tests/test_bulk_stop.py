"""A bulk accept asked to stop (the app's ^x; write/progress.stop_asked) ends between two
chunks: the chunks done stay done, the rest are left byte for byte, and one undo takes
back what was done."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from memtui.engine.write import progress
from memtui.layouts.dsh import chunks as dsh_chunks
from memtui.layouts.dsh import ops as dsh
from tests import demo_facts as facts
from tests.conftest import memory_digest
from tests.helpers import demo_template, fresh_copy
from tests.test_ui_pending import PendingOnly, loaded
from tests.test_undo import acceptable
from tests.ui_helpers import answer_confirm, run, until
from tests.verb_calls import memtui


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_template(tmp_path_factory, "bulk-stop")


@pytest.fixture
def root(tmp_path: Path, template: Path) -> Path:
    return fresh_copy(template, tmp_path)


def test_a_stop_asked_after_the_first_chunk_leaves_the_rest_untouched(root: Path) -> None:
    ids = acceptable(root, 5)
    before = memory_digest(root)
    seen: list[progress.Progress] = []
    with progress.reporting(seen.append, stop=lambda: bool(seen) and seen[-1].done >= 2):
        receipts = dsh.accept(str(root), ids, chunk_size=2)
    assert len(receipts) == 1 and receipts[0].details["stopped"] == {"done": 2, "left": 3}
    left = [i for i in ids[2:] if (root / "pending" / f"{i.removeprefix('pending:')}.md").exists()]
    assert left == ids[2:]  # the three not taken are still pending
    after = memory_digest(root)
    for i in ids[2:]:  # byte for byte
        rel = f"pending/{i.removeprefix('pending:')}.md"
        assert after[rel] == before[rel]
    assert memtui(root, "undo").returncode == 0  # the one chunk done, taken back whole
    assert memory_digest(root) == before


def test_without_a_stop_every_chunk_runs(root: Path) -> None:
    ids = acceptable(root, 5)
    with progress.reporting(lambda _p: None, stop=lambda: False):
        receipts = dsh.accept(str(root), ids, chunk_size=2)
    assert len(receipts) == 3 and not any("stopped" in r.details for r in receipts)


def test_ctrl_x_in_the_app_stops_a_bulk_accept_and_z_takes_back_what_was_done(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dsh, "accept", functools.partial(dsh.accept, chunk_size=2))
    monkeypatch.setattr(dsh_chunks, "CHUNK_PAUSE", 0.5)  # time for the key between chunks
    before = memory_digest(root)

    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("ctrl+a", "a")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: app._changes_running == 0 or _done(app) >= 2)
        await pilot.press("ctrl+x")
        await until(pilot, lambda: app._changes_running == 0, what="the accept to stop")
        stopped = [t for _, t in app.said if "stopped after" in t]
        assert stopped, app.said
        await until(pilot, lambda: len(pane.items) < facts.CANDIDATES)
        left = len(pane.items)
        assert 1 < left < facts.CANDIDATES, left  # some taken, not all
        assert f"the other {left - 1:,} are untouched" in stopped[0]
        await pilot.press("z")
        question = await answer_confirm(pilot, app, "y")
        assert question.startswith("Undo"), question
        await until(pilot, lambda: len(pane.items) == facts.CANDIDATES, what="the undo")

    run(PendingOnly(str(root)), body)
    assert memory_digest(root) == before


def _done(app) -> int:  # type: ignore[no-untyped-def]
    from memtui.ui.widgets.working import Working

    found = app.query(Working)
    for line in found.first().lines.values() if found else ():
        text = line.said.plain
        if " of " in text:
            return int(text.split(" of ")[0].replace(",", ""))
    return 0
