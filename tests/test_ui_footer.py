"""The footer's keys are rebuilt once for the binding changes of one refresh, and the
index tree asks for a rebuild only when the keys its row offers changed; the keys
shown always match what the row offers."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from memtui.ui.app import MemtuiApp
from memtui.ui.messages import StoreLoaded
from memtui.ui.panes.index_tree import IndexPane
from tests.ui_helpers import demo_store, run, until


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each rebuild of a footer (Textual's, which memtui's is), as it happens."""
    done: list[int] = []
    real = TextualFooter.recompose

    async def counted(self: TextualFooter) -> None:
        done.append(1)
        await real(self)

    monkeypatch.setattr(TextualFooter, "recompose", counted)
    return done


def test_showing_a_store_rebuilds_the_footer_once_or_twice(tmp_path: Path, rebuilds: list[int]):
    """Each pane, the tabs and the tree's cursor change the bindings as a store is shown:
    six rebuilds, one after another, before; a change a refresh later makes a second."""
    root = demo_store(tmp_path / "store")
    before: list[int] = []

    class Counting(MemtuiApp):
        def on_store_loaded(self, message: StoreLoaded) -> None:
            before.append(len(rebuilds))
            super().on_store_loaded(message)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: bool(before), what="the store shown")
        for _ in range(5):
            await pilot.pause()
        assert len(rebuilds) - before[0] <= 2
        assert {"q", "?", "e", "x", "h"} <= {k.key_display for k in app.screen.query(FooterKey)}

    run(Counting(str(root), watch=False), body)


def test_the_footer_follows_what_each_tree_row_offers(tmp_path: Path, rebuilds: list[int]):
    root = demo_store(tmp_path / "store")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        pane = app.query_one(IndexPane)
        pane.index_tree.focus()
        await pilot.pause()
        seen, moves = set(), 24
        start = len(rebuilds)
        for _ in range(moves):
            await pilot.press("down")
            await pilot.pause()
            await pilot.pause()
            offers = tuple(pane.check_action(a, ()) for a in ("edit", "archive", "history"))
            seen.add(offers)
            shown = {k.key: k for k in app.screen.query(FooterKey)}
            for key, offer in zip(("e", "x", "h"), offers, strict=True):
                assert (key in shown) is (offer is not False)
                if key in shown:
                    assert shown[key].has_class("-disabled") is (offer is None), (key, offers)
        assert len(seen) > 1, "the rows walked offer different keys"
        assert len(rebuilds) - start < moves  # rows offering the same keys rebuild nothing

    run(MemtuiApp(str(root), watch=False), body, loaded=True)
