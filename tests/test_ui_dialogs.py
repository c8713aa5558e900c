"""Every dialog at 80x24: whatever its body holds (a long question, an undo listing
its files), its buttons, input and key hint stay on the screen and answer a click.
Pilot over the real app and a demo store in tmp_path."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen

import memtui.ui.screens
from memtui.engine import ops
from memtui.engine.write.operation import operation
from memtui.ui.screens.choose import ChoiceScreen
from memtui.ui.screens.confirm import ConfirmScreen
from memtui.ui.screens.prompt import PromptScreen
from memtui.ui.screens.search import SearchScreen
from memtui.ui.screens.stores import StoresScreen
from tests.conftest import memory_digest
from tests.ui_helpers import HostApp, demo_store, run, until

SMALL = (80, 24)
LONG = "\n".join(f"line {n} of a question longer than the screen" for n in range(60))
CHOICES = [f"choice {n}" for n in range(30)]

# dialog class -> (make it, its controls that must stay on screen, what to click, result)
DIALOGS: dict[type[Screen[Any]], tuple[Callable[[str], Screen[Any]], tuple[str, ...], str, Any]] = {
    ConfirmScreen: (
        lambda root: ConfirmScreen(LONG),
        ("#confirm-hint", "#confirm-yes", "#confirm-no"),
        "#confirm-yes",
        True,
    ),
    PromptScreen: (
        lambda root: PromptScreen(LONG, value="why"),
        ("#prompt-input", "#prompt-hint", "#prompt-ok", "#prompt-cancel"),
        "#prompt-ok",
        "why",
    ),
    ChoiceScreen: (
        lambda root: ChoiceScreen(LONG, CHOICES),
        ("#choose-rows", "#choose-hint"),
        "#choose-rows",
        0,
    ),
    SearchScreen: (lambda root: SearchScreen(root), ("#search-input", "#search-hits"), "", None),
    StoresScreen: (lambda root: StoresScreen(), ("#stores-rows", "#stores-hint"), "", None),
}


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def shown_whole(screen: Screen[Any], selector: str) -> None:
    """The widget lies inside the screen and inside every container around it (nothing
    clips it), and nothing covers its middle."""
    widget = screen.query_one(selector)
    region = widget.region
    assert region.area > 0, f"{selector} has no room: {region}"
    assert Region(0, 0, *SMALL).contains_region(region), f"{selector} off screen: {region}"
    for box in widget.ancestors_with_self:
        if box is screen or not hasattr(box, "content_region"):
            break
        if box is not widget:
            clip = box.scrollable_content_region  # type: ignore[attr-defined]
            assert clip.contains_region(region), f"{selector} clipped by {box}: {region}"
    found, _ = screen.get_widget_at(*region.center)
    assert found is widget or widget in found.ancestors, f"{selector} covered by {found}"


@pytest.mark.parametrize("dialog", list(DIALOGS), ids=lambda c: c.__name__)
def test_a_dialog_keeps_its_buttons_on_screen_and_clickable_at_80x24(
    demo: Path, dialog: type[Screen[Any]]
) -> None:
    make, controls, click, result = DIALOGS[dialog]
    answers: list[Any] = []

    async def body(pilot: Pilot, app: HostApp) -> None:
        app.push_screen(make(str(demo)), answers.append)
        await until(pilot, lambda: isinstance(app.screen, dialog), what="the dialog")
        await pilot.pause()
        screen = app.screen
        for selector in controls:
            shown_whole(screen, selector)
        if click:
            assert await pilot.click(click), f"{click} did not take the click"
            if click == "#choose-rows":  # a click moves the cursor; enter picks
                await pilot.press("enter")
            await until(pilot, lambda: answers, what="the answer")
            assert answers == [result]

    run(HostApp(demo), body, loaded=True, size=SMALL)


def test_every_dialog_class_is_checked() -> None:
    """A new ModalScreen in memtui/ui/screens is a dialog this file must check."""
    package = memtui.ui.screens
    found = set()
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, ModalScreen)
                and value.__module__ == module.__name__
                and not value.__name__.startswith("Dialog")  # the shared base
            ):
                found.add(value)
    assert found == set(DIALOGS)


def test_the_undo_of_a_ten_file_operation_answers_yes_by_click_at_80x24(demo: Path) -> None:
    """The issue's case: z after archiving ten topics at once lists more files than the
    screen has lines; the Yes button is still there, and clicking it undoes them all."""
    topics = sorted(p.name[len("memory_") : -3] for p in demo.glob("memory_[a-z]*.md"))[:10]
    before = memory_digest(demo)
    with operation():
        for name in topics:
            ops.archive(str(demo), f"topic:{name}")
    archived = memory_digest(demo)

    async def body(pilot: Pilot, app: HostApp) -> None:
        await pilot.press("z")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the undo")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        assert screen.question.count("\n  ") >= 10  # one line a file
        body = screen.query_one("#confirm-body")
        assert screen.query_one("#confirm-question").region.height > body.region.height
        await pilot.press("pagedown")  # the question scrolls; No keeps the focus
        await until(pilot, lambda: body.scroll_y > 0, what="the question to scroll")
        assert app.focused is screen.query_one("#confirm-no")
        shown_whole(screen, "#confirm-yes")
        assert await pilot.click("#confirm-yes")
        await until(pilot, lambda: memory_digest(demo) == before, what="all ten put back")

    assert archived != before
    run(HostApp(demo), body, loaded=True, size=SMALL)
