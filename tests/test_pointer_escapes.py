"""An index line shaped like a pointer whose target leaves the root (`../…`, an absolute
path, `~`, a link out) is `path-escape` (SPEC §5), whether or not it names a .md file;
prose after an arrow stays `index-content`. Nothing outside the root is read. Both
indexes: the workspace's memory.md (`- topic → file`) and Claude's MEMORY.md (links)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_cli, tree_digest

from memtui.engine import open_store
from tests.helpers import ENV, TODAY_DATE

SECRET = "TOPSECRET-5c1e"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    made = tmp_path / "outside"
    made.mkdir()
    (made / "notes").write_text(SECRET)
    (made / "notes.md").write_text(SECRET)
    return made


@pytest.fixture
def root(outside: Path, store) -> Path:
    made = store({"user.md": "# 用户\n", "memory_course.md": "# 课程\n"})
    os.symlink(outside, made / "elsewhere")
    return made


def file_findings(root: Path, name: str, text: str) -> list[tuple[str, int | None]]:
    (root / name).write_text(text)
    return [(f.code, f.line) for f in open_store(root, TODAY_DATE).findings if f.file == name]


def index_findings(root: Path, line: str) -> list[tuple[str, int | None]]:
    return file_findings(
        root, "memory.md", f"# 索引\n\n## 学习\n- 课程 → memory_course.md\n{line}\n"
    )


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


@pytest.fixture
def claude_root(tmp_path: Path, outside: Path) -> Path:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "user_role.md").write_text("---\ndescription: d\ntype: user\n---\nbody\n")
    os.symlink(outside, root / "elsewhere")
    os.symlink(outside / "notes", root / "leak")
    return root


def claude_index_findings(root: Path, line: str) -> list[tuple[str, int | None]]:
    return file_findings(root, "MEMORY.md", f"- [Role](user_role.md) — the role\n{line}\n")


@pytest.mark.parametrize(
    "line",
    [
        "- [Escape](../../../etc/passwd) — hook",
        "- [Abs](/etc/passwd) — hook",
        "- [Home](~/notes) — hook",
        "- [Dir](elsewhere/notes) — a folder linked out",
        "- [Leak](leak) — a file linked out",
        "- [Escaped](%2e%2e/outside/notes) — hook",
        "- [Twice](notes.txt) and [out](../outside/notes)",
        "- [AbsMd](/etc/x.md) — hook",
    ],
)
def test_a_claude_link_leading_out_is_path_escape(claude_root, line):
    assert claude_index_findings(claude_root, line) == [("path-escape", 2)]


@pytest.mark.parametrize(
    "line",
    ["- [Docs](https://example.com/etc/passwd) — hook", "- [Notes](notes.txt) — inside"],
)
def test_a_claude_link_inside_or_to_the_web_stays_index_content(claude_root, line):
    assert claude_index_findings(claude_root, line) == [("index-content", 2)]
