"""Search sees every file the store has, whatever the layout: a Claude memory in a nested
folder, Hermes' memories/ and approval queue, OpenClaw's audit queue below memory/ (the
folders only a layout reads), through grep's fast path and Python's own reading alike, in
the engine and the CLI. A folder no layout reads is not searched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine.search import search
from memtui.engine.store import open_store
from tests.conftest import run_cli, write_tree
from tests.helpers import ENV

NEEDLE = "a Needle in 针堆\n"
JSON_NEEDLE = NEEDLE.strip()  # as a JSON string value, written with ensure_ascii=False
# (query, regex): grep -i, grep (case-sensitive), Python (a non-ASCII folded query), a regex
QUERIES = [("needle", False), ("Needle", False), ("针堆", False), ("Nee+dle", True)]


def claude_memory(name: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {name} notes\ntype: project\n---\n{body}"


CLAUDE = {
    "MEMORY.md": "- [Deploy](deploy.md) — how we ship\n"
    "- [Nested](project/nested.md) — a memory in a folder\n"
    "- [Deeper](project/deeper/more.md) — two folders down\n",
    "deploy.md": claude_memory("deploy", "run make deploy\n"),
    "project/nested.md": claude_memory("nested", "first line\n" + NEEDLE),
    "project/deeper/more.md": claude_memory("more", NEEDLE),
    ".scratch/x.md": NEEDLE,  # hidden: neither recall nor memtui reads it
}
HERMES = {
    "memories/MEMORY.md": "the user deploys on Fridays\n§\n" + NEEDLE,
    "memories/USER.md": "prefers tea\n",
    "pending/memory/q1.json": json.dumps(
        {"target": "memory", "content": JSON_NEEDLE}, ensure_ascii=False
    )
    + "\n",
}
OPENCLAW = {
    "AGENTS.md": "# Agents\nbe kind\n",
    "SOUL.md": "# Soul\n",
    "memory/2026-11-28.md": "- met the team\n",
    "memory/audit/suggestions.jsonl": json.dumps(
        {"id": "s1", "text": JSON_NEEDLE}, ensure_ascii=False
    )
    + "\n",
}
WORKSPACE = {
    "memory.md": "# idx\n\n## P\n- {py} → memory_python.md\n",
    "memory_python.md": "py\n" + NEEDLE,
    "notes/x.md": NEEDLE,  # a folder the workspace layout does not read
}
STORES = {"claude": CLAUDE, "hermes": HERMES, "openclaw": OPENCLAW, "workspace": WORKSPACE}
EXPECTED = {
    "claude": {("project/nested.md", 7), ("project/deeper/more.md", 6)},
    "hermes": {("memories/MEMORY.md", 3), ("pending/memory/q1.json", 1)},
    "openclaw": {("memory/audit/suggestions.jsonl", 1)},
    "workspace": {("memory_python.md", 2)},
}


@pytest.mark.parametrize("layout", STORES)
@pytest.mark.parametrize(("query", "regex"), QUERIES)
def test_search_finds_the_needle_in_every_file_the_store_has(
    tmp_path: Path, layout: str, query: str, regex: bool
) -> None:
    root = write_tree(tmp_path / layout, STORES[layout])
    store = open_store(root)
    assert layout in store.layouts
    hits = {(h.file, h.line) for h in search(root, query, regex=regex)}
    assert hits == EXPECTED[layout]
    # exactly the files of the store holding it: no more (notes/, .scratch/), no fewer
    holding = {rel for rel in store.files if JSON_NEEDLE in (root / rel).read_text("utf-8")}
    assert {file for file, _ in hits} == holding


def test_cli_search_shows_a_nested_claude_memory(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "memory", CLAUDE)
    got = run_cli("search", "needle", "--json", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    hits = {(h["file"], h["line"], h["column"]) for h in json.loads(got.stdout)["hits"]}
    assert hits == {("project/nested.md", 7, 3), ("project/deeper/more.md", 6, 3)}
    text = run_cli("search", "针堆", "--store", str(root), env=ENV)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == [
        "project/deeper/more.md:6:13: a Needle in 针堆",
        "project/nested.md:7:13: a Needle in 针堆",
    ]
