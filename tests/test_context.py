"""What the agent loads at session start (SPEC §3c), for every layout: the files
their documents say are injected, exactly as given, the cut and the first line
past it; `memtui context` and `--json` say the same."""

from __future__ import annotations

import json
from pathlib import Path

from memtui.engine.context import context_of
from memtui.engine.store import open_store
from tests.conftest import run_cli, write_tree
from tests.ui_helpers import demo_store


def _files(root: Path) -> dict[str, list[tuple[str, int | None]]]:
    return {
        name: [(cf.file, cf.first_unloaded_line) for cf in files]
        for name, files in context_of(open_store(root)).items()
    }


def test_the_seed_layouts_load_what_their_documents_say(tmp_path: Path) -> None:
    assert _files(demo_store(tmp_path / "demo")) == {
        "workspace": [
            ("soul.md", None),
            ("user.md", None),
            ("agent.md", None),
            ("memory.md", None),
        ],
        "companion": [
            ("MEMORY.md", None),
            ("memory/persona.md", None),
            ("memory/user_profile.md", None),
            ("memory/mood_state.md", None),
        ],
        "dsh": [("memory_management_sop.md", None), ("index.txt", None)],
    }


def test_the_workspace_index_is_loaded_up_to_its_200_line_bootstrap_limit(tmp_path: Path) -> None:
    lines = "".join(f"- topic {i} → memory_t{i}.md\n" for i in range(1, 206))
    root = write_tree(tmp_path / "w", {"memory.md": lines, "soul.md": "# soul\n"})
    [soul, index] = context_of(open_store(root))["workspace"]
    assert (soul.file, soul.cut, soul.text) == ("soul.md", False, "# soul\n")
    assert (index.first_unloaded_line, index.lines) == (201, 200)
    assert index.text == "".join(lines.splitlines(keepends=True)[:200])


def test_cli_context_json_has_the_spec_shape_and_text_marks_the_cut(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "claude"
    got = run_cli("context", "--json", "--store", str(root))
    assert got.returncode == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["root"] == str(root.resolve())
    [layout] = data["layouts"]
    [index] = layout["files"]
    assert set(index) == {"file", "cut", "first_unloaded_line", "loaded", "text"}
    assert set(index["loaded"]) == {"lines", "bytes", "chars"}
    assert (index["cut"], index["first_unloaded_line"], index["loaded"]["lines"]) == (
        True,
        201,
        200,
    )
    # 200 lines, then the warning paragraph Claude appends after its cut (memdir.ts)
    assert (
        index["loaded"]["bytes"] == len(index["text"].encode()) and index["text"].count("\n") == 201
    )
    assert index["text"].split("\n")[-1].startswith("> WARNING: MEMORY.md is ")
    text = run_cli("context", "--store", str(root))
    assert text.returncode == 0 and "-- cut here:" in text.stdout and "line 201" in text.stdout
