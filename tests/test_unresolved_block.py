"""MEMORY.md's 【最近未解决事项】 block (SPEC §2), refreshed by `memtui index`: the block is
its list, replaced whole (loose or wrapped items too); the user's text around it, a bullet
they added, and prose that only mentions the marker stay as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli, write_tree
from tests.helpers import ENV, OPEN_EVENT, findings


def refreshed(
    tmp_path: Path, memory_md: str
) -> tuple[str, list[tuple[str, str, str | None, int | None]]]:
    root = write_tree(tmp_path / "c", {"memory/events.md": OPEN_EVENT, "MEMORY.md": memory_md})
    got = run_cli("index", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    return (root / "MEMORY.md").read_text(encoding="utf-8"), findings(root)


def test_refresh_keeps_the_users_text_after_the_list(tmp_path: Path) -> None:
    text, found = refreshed(
        tmp_path, "# MEMORY\n\n【最近未解决事项】\n- [E009] 旧\n\n其他内容保持不变。\n"
    )
    item = "- [E001] 约定 · 到期 2026-12-01 · 周末去看海\n"
    assert text == "# MEMORY\n\n【最近未解决事项】\n" + item + "\n其他内容保持不变。\n"
    assert not [f for f in found if f[0] == "unresolved-stale"]


def test_refresh_keeps_a_paragraph_and_the_next_section(tmp_path: Path) -> None:
    kept = "备注：这一段不是列表 [E005]\n\n## 其他\n保持\n"
    before = "# MEMORY\n\n## 【最近未解决事项】\n- [E009] 旧\n\n" + kept
    text, found = refreshed(tmp_path, before)
    assert kept in text
    assert "- [E001]" in text and "[E009]" not in text
    assert not [f for f in found if f[0] == "unresolved-stale"]  # [E005] in prose is not listed


def test_an_empty_block_gets_its_list_under_the_heading(tmp_path: Path) -> None:
    text, _ = refreshed(tmp_path, "# MEMORY\n\n## 【最近未解决事项】\n\n说明文字\n")
    assert text.startswith("# MEMORY\n\n## 【最近未解决事项】\n- [E001]")
    assert text.endswith("\n\n说明文字\n")


@pytest.mark.parametrize(
    "block",
    [
        "- [E009] 旧\n\n- [E008] 也旧\n",  # a loose list
        "- [E009] 旧，\n  接着上一行\n- [E008] 也旧\n",  # an item wrapped onto the next line
    ],
)
def test_refresh_replaces_a_loose_or_wrapped_list_whole(tmp_path: Path, block: str) -> None:
    text, found = refreshed(tmp_path, f"# MEMORY\n\n## 【最近未解决事项】\n{block}\n后记\n")
    assert "[E009]" not in text and "[E008]" not in text and "接着" not in text
    assert text.endswith("- [E001] 约定 · 到期 2026-12-01 · 周末去看海\n\n后记\n")
    assert not [f for f in found if f[0] == "unresolved-stale"]


def test_prose_mentioning_the_marker_is_not_the_block(tmp_path: Path) -> None:
    before = "# MEMORY\n\n提示：【最近未解决事项】由工具维护\n- keep me\n"
    text, _ = refreshed(tmp_path, before)
    assert text.startswith(before) and "## 【最近未解决事项】\n- [E001]" in text


def test_a_bullet_the_user_added_to_the_block_stays(tmp_path: Path) -> None:
    block = "- [E009] 旧\n- 我自己加的备注：别删\n  （第二行）\n"
    text, found = refreshed(tmp_path, f"# MEMORY\n\n【最近未解决事项】\n{block}\n尾\n")
    assert "[E009]" not in text
    assert (
        "- [E001] 约定 · 到期 2026-12-01 · 周末去看海\n- 我自己加的备注：别删\n  （第二行）\n\n尾\n"
        in text
    )
    assert not [f for f in found if f[0] == "unresolved-stale"]
