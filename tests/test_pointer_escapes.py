"""An index line shaped like a pointer whose target leaves the root (`../…`, an absolute
path, `~`, a link out) is `path-escape` (SPEC §5), whether or not it names a .md file;
prose after an arrow stays `index-content`. Nothing outside the root is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli, tree_digest

from memtui.engine import open_store
from tests.helpers import ENV, TODAY_DATE

SECRET = "TOPSECRET-5c1e"


@pytest.fixture
def root(tmp_path: Path, store) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes").write_text(SECRET)
    (outside / "notes.md").write_text(SECRET)
    made = store({"user.md": "# 用户\n", "memory_course.md": "# 课程\n"})
    os.symlink(outside, made / "elsewhere")
    return made


def index_findings(root: Path, line: str) -> list[tuple[str, int | None]]:
    (root / "memory.md").write_text(f"# 索引\n\n## 学习\n- 课程 → memory_course.md\n{line}\n")
    found = open_store(root, TODAY_DATE).findings
    return [(f.code, f.line) for f in found if f.file == "memory.md"]


@pytest.mark.parametrize(
    "line",
    [
        "- 机密 → ../../etc/passwd",
        "- 机密 → /etc/passwd",
        "- 机密 → ../outside/notes",
        "- 机密 → ./../outside/notes",
        "- 机密 → ~/notes",
        "- 机密 → elsewhere/notes",  # a folder linked out of the root
        "- 机密 → 详见 /etc/shadow（全文）",
        "- 机密 → ../outside/notes.md",
    ],
)
def test_pointer_shaped_line_leading_out_is_path_escape(root, line):
    assert index_findings(root, line) == [("path-escape", 5)]


@pytest.mark.parametrize(
    "line",
    [
        "- 课程的进度很好，下周继续",  # no arrow: content
        "- 想法 → 还没有整理成文件",  # an arrow, then prose
        "- 链接 → https://example.com/a/b",  # a URL is no path in the store
    ],
)
def test_prose_in_the_index_stays_index_content(root, line):
    assert index_findings(root, line) == [("index-content", 5)]


def test_cli_reports_it_and_reads_nothing_outside(root):
    index_findings(root, "- 机密 → elsewhere/notes")
    before = tree_digest(root)
    result = run_cli("check", "--json", "--store", str(root), env=ENV)
    assert result.returncode == 1
    assert '"path-escape"' in result.stdout and SECRET not in result.stdout + result.stderr
    assert tree_digest(root) == before
