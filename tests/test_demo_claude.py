"""The demo's Claude Code memory folder (claude/, beside the seed layouts): one of
each claude finding at its line, and the seed store beside it does not see it."""

from __future__ import annotations

from pathlib import Path

from memtui.engine.store import open_store
from tests.conftest import run_cli
from tests.ui_helpers import demo_store

CLAUDE_CODES = {
    "index-truncated",
    "index-line-long",
    "pointer-missing",
    "pointer-duplicate",
    "index-content",
    "topic-orphan",
    "memory-type",
    "memory-description",
    "recall-cutoff",
    "path-escape",
}


def test_the_demo_claude_folder_holds_one_of_each_finding(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")
    store = open_store(root / "claude")
    assert store.layouts == ("claude",)
    codes = [f.code for f in store.findings]
    assert sorted(codes) == sorted(CLAUDE_CODES)
    [cut] = [f for f in store.findings if f.code == "index-truncated"]
    assert cut.line == 201
    seeds = open_store(root)
    assert "claude" not in seeds.layouts
    assert not [f for f in seeds.files if f.startswith("claude/")]


def test_add_memory_from_the_cli(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "claude"
    body = tmp_path / "body.md"
    body.write_text("Freeze.\n**Why:** release.\n**How to apply:** hold merges.\n")
    got = run_cli(
        "add", "memory", "project_freeze.md", "--type", "project", "--description",
        "merge freeze from March 5", "--body-file", str(body), "--store", str(root),
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert "not loaded" in got.stdout  # the index was past its cut already
    text = (root / "project_freeze.md").read_text()
    assert text.startswith("---\nname: project_freeze\ndescription: merge freeze from March 5\n")
    refused = run_cli("add", "memory", "x.md", "--type", "mood", "--description", "d",
                      "--body-file", str(body), "--store", str(root))  # fmt: skip
    assert refused.returncode == 2 and not (root / "x.md").exists()
