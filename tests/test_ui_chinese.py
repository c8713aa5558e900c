"""The app in Chinese (issue 28): with zh_CN chosen before the app starts, as the CLI
does, the Footer, tabs, help page, palette, toasts and column headers are Chinese; the
store's own words (约定, 用户Todo, 待跟进) are shown as written; Chinese columns line
up by terminal cells (Rich's cell_len), never by len()."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.style import Style
from textual.command import CommandPalette
from textual.widgets import Input, TabbedContent
from textual.widgets._footer import FooterKey, FooterLabel

from memtui.cells import padded
from memtui.engine.layouts.queue_spec import QueueFace
from memtui.engine.queue import QueueItem
from memtui.i18n import use
from memtui.ui.app import MemtuiApp
from memtui.ui.commands import commands
from memtui.ui.panes.events import EventsPane
from memtui.ui.panes.mood import MoodPane
from memtui.ui.panes.pending_detail import detail
from memtui.ui.panes.pending_rows import note
from memtui.ui.said import wrapped
from memtui.ui.screens.help import HelpScreen
from tests.ui_helpers import Body, PaneHost, demo_store, rows_plain, run, until

in_chinese = pytest.mark.usefixtures("chinese")


def whole_app(tmp_path: Path, body: Body) -> None:
    """The whole app on the demo store; `body` runs once the store is shown."""
    run(MemtuiApp(str(demo_store(tmp_path)), watch=False), body, loaded=True)


def footer_words(app: MemtuiApp) -> list[str]:
    keys = [k.description for k in app.screen.query(FooterKey) if k.description]
    return keys + [str(label.content) for label in app.screen.query(FooterLabel)]


@in_chinese
def test_the_footer_and_tabs_are_chinese_when_the_language_is_set_first(tmp_path: Path):

    async def body(pilot, app) -> None:
        await until(pilot, lambda: "帮助" in footer_words(app), what="the Chinese footer")
        words = footer_words(app)
        assert {"帮助", "搜索", "退出", "面板"} <= set(words)
        assert not {"Help", "Search", "Quit", "Panes"} & set(words)
        tabs = app.query_one(TabbedContent)
        titles = [str(tabs.get_tab(f"tab-{key}").label) for key in ("events", "pending")]
        assert titles == ["事件", "待审"]
        assert "个错误" in app.sub_title and "个警告" in app.sub_title

    whole_app(tmp_path, body)


def test_the_same_app_is_english_again_once_the_language_is_reset(tmp_path: Path):
    use("en")  # what the fixture leaves behind

    async def body(pilot, app) -> None:
        await until(pilot, lambda: "Help" in footer_words(app), what="the English footer")
        assert "帮助" not in footer_words(app)

    whole_app(tmp_path, body)


@in_chinese
def test_the_help_page_is_chinese_textuals_own_keys_too(tmp_path: Path):

    async def body(pilot, app) -> None:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help page")
        page = app.screen.page().plain
        for heading in ("全局按键", "面板", "编辑条目", "文件历史", "命令面板", "安全"):
            assert heading in page
        assert "光标下移" in page  # the index tree's own (Textual's) keys
        for english in ("Keys everywhere", "Cursor Down", "Command palette", "Safety"):
            assert english not in page

    whole_app(tmp_path, body)


@in_chinese
def test_the_palette_lists_its_commands_in_chinese(tmp_path: Path):

    async def body(pilot, app) -> None:
        titles = [c.title for c in commands(app)]
        assert {"搜索记忆库", "撤销上一次操作", "显示事件时间线", "事件：只看未完成 / 全部"} <= set(
            titles
        )
        assert "Search the store" not in titles
        textual = [c.title for c in app.get_system_commands(app.screen)]
        assert "主题" in textual and "Theme" not in textual
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        assert app.screen.query_one(Input).placeholder == "搜索命令…"

    whole_app(tmp_path, body)


@in_chinese
def test_a_toast_is_chinese(tmp_path: Path):
    app = PaneHost(str(demo_store(tmp_path)), "events", read_only=True)

    async def body(pilot, app) -> None:
        await pilot.press("d")
        await until(pilot, lambda: app.said, what="a toast")
        assert app.said[-1][1] == "完成：记忆库以只读方式打开（--read-only），不会做任何修改"

    run(app, body, loaded=True)


@in_chinese
def test_the_stores_own_words_are_shown_as_written(tmp_path: Path):
    app = PaneHost(str(demo_store(tmp_path)), "events")

    async def body(pilot, app) -> None:
        pane = app.query_one(EventsPane)
        rows = rows_plain(pane)
        assert any("约定" in r for r in rows) and any("用户Todo" in r for r in rows)
        assert "个事件" in pane.header_text.plain and "最近活动" in pane.header_text.plain
        assert "**状态**：待跟进" in pane.detail_text.plain

    run(app, body, loaded=True)


@in_chinese
def test_the_events_columns_line_up_by_cells_with_chinese_types_and_statuses(tmp_path: Path):
    """约定 is 4 cells, 用户Todo and 情绪事件 8, 未完 and 完成 4: each row's text starts in
    one column (padding by len() would put 情绪事件's rows 4 cells further right)."""
    app = PaneHost(str(demo_store(tmp_path)), "events")

    async def body(pilot, app) -> None:
        pane = app.query_one(EventsPane)
        rows = rows_plain(pane)
        starts, types = set(), set()
        for n, row in enumerate(rows):
            event = pane.event_at(n)
            assert event is not None
            types.add(event[0].type)
            starts.add(cell_len(row[: row.index(event[0].content[:4])]))
        assert {"约定", "用户Todo", "情绪事件"} <= types and any("未完" in r for r in rows)
        assert len(starts) == 1

    run(app, body, loaded=True)


@in_chinese
def test_the_mood_table_lines_up_its_chinese_headers_by_cells(tmp_path: Path):
    app = PaneHost(str(demo_store(tmp_path)), "mood")

    async def body(pilot, app) -> None:
        head, first, *_rest = app.query_one(MoodPane).snapshots_text.plain.split("\n")
        assert "效价" in head and "备注" in head
        # the right-aligned 效价 ends where the numbers under it end
        end = cell_len(head[: head.index("效价") + 2])
        assert first.startswith("2026-")
        assert first[end - 1] in "0123456789" and first[end] == " "

    run(app, body, loaded=True)


def test_wrapped_breaks_chinese_by_cells_and_english_at_spaces():
    lines = wrapped("上下文在这里被截断了之后的内容", 10)
    assert lines == ["上下文在这", "里被截断了", "之后的内容"]
    assert wrapped("the cut is here and past it", 12) == ["the cut is", "here and", "past it"]
    mixed = wrapped("Agent 加载的文件 MEMORY.md 截断于第 200 行", 9)
    assert all(cell_len(line) <= 9 for line in mixed)
    assert wrapped("short", 20) == ["short"]


def test_padded_counts_cells_not_characters():
    assert padded("文件", 9) == "文件     " and cell_len(padded("文件", 9)) == 9
    assert padded("效价", 8, right=True) == "    效价"
    assert padded("file", 9) == f"{'file':<9}" and padded("valence", 8, right=True) == " valence"


@in_chinese
def test_an_agents_summary_is_never_translated_by_chance():
    # "Help" is a msgid of the app's own (帮助); as an agent's summary it is data
    item = QueueItem("dsh:1", "dsh", "fact", "L2/a.md", "Help", "pending/1.md")
    assert note(item, lambda _name: Style()).plain == "Help"
    assert "Help" in detail(item, QueueFace(), lambda _name: Style()).plain.split("\n")[1]
