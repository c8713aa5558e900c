"""Hermes as it is today (issue 25 item 7): the `.bak.<ts>` copies its drift guard
writes are the file's history, never memory or findings; config.yaml's `memory:`
switches say which blocks reach the prompt; an external `memory.provider` runs
alongside the files, which stay loaded.

Restated from NousResearch/hermes-agent: tools/memory_tool.py
(MemoryStore._detect_external_drift: `path.with_suffix(path.suffix + f".bak.{ts}")`,
ts = int(time.time()), written before a replace, remove or batch is refused);
agent/system_prompt.py (`if agent._memory_enabled:` the MEMORY.md block, `if
agent._user_profile_enabled:` the USER.md block, then the external provider's block,
"additive to built-in"); agent/agent_init.py ("Memory provider plugin (external — one
at a time, alongside built-in)"); hermes_cli/config.py (memory_enabled and
user_profile_enabled default to True, provider to "").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtui.engine.context import context_of
from memtui.engine.entries import iter_entries
from memtui.engine.layouts import layout
from memtui.engine.ops.history import diff, rollback, snapshots
from memtui.engine.store import layouts_at, open_store
from tests.conftest import write_tree
from tests.hostile_calls import reads

DELIM = "\n§\n"
MEMORY = DELIM.join(["Project uses pnpm", "CI runs on GitHub Actions"])
DRIFTED = MEMORY + "\nappended by a shell, no separator"
TS = 1764500000  # int(time.time()) when the guard took its copy: 2025-11-30 10:53:20 UTC


def home(tmp_path: Path, config: str = "", **extra: str) -> Path:
    files = {"memories/MEMORY.md": MEMORY, "memories/USER.md": "Name: Ada", **extra}
    if config:
        files["config.yaml"] = config
    return write_tree(tmp_path / "hermes", files)


def loaded(root: Path) -> dict[str, Any]:
    return {cf.file: cf for cf in context_of(open_store(root))["hermes"]}


def summary(root: Path) -> list[str]:
    store = open_store(root)
    return layout("hermes").summary(store.data["hermes"])


# --- the drift guard's copies are history ----------------------------------------------


def test_the_drift_guards_copies_are_the_files_history_newest_first(tmp_path):
    bak = {
        f"memories/MEMORY.md.bak.{TS}": DRIFTED,
        f"memories/MEMORY.md.bak.{TS + 60}": MEMORY + "x",
        f"memories/USER.md.bak.{TS}": "Name: Ada\nappended",
    }
    root = home(tmp_path, **bak)
    got = snapshots(str(root), "memories/MEMORY.md")
    assert [s.name for s in got] == [f"MEMORY.md.bak.{TS + 60}", f"MEMORY.md.bak.{TS}"]
    assert got[1].time == "2025-11-30 10:53:20 UTC"
    assert got[1].kept_by == "hermes" and got[1].size == len(DRIFTED.encode())
    assert [s.name for s in snapshots(str(root), "memories/USER.md")] == [f"USER.md.bak.{TS}"]
    assert "appended by a shell" in diff(str(root), "memories/MEMORY.md", f"MEMORY.md.bak.{TS}")


def test_the_copies_are_neither_entries_nor_findings_nor_loaded(tmp_path):
    clean = home(tmp_path / "a")
    root = home(tmp_path / "b", **{f"memories/MEMORY.md.bak.{TS}": DRIFTED})
    store = open_store(root)
    assert [e.id for e in iter_entries(store)] == [e.id for e in iter_entries(open_store(clean))]
    assert not any(".bak." in (f.file or "") for f in store.findings)
    assert not any(".bak." in rel for rel in store.files)
    assert not any(".bak." in cf.file for cf in context_of(store)["hermes"])


def test_rolling_back_to_a_copy_keeps_the_files_mode_and_is_itself_undoable(tmp_path):
    root = home(tmp_path, **{f"memories/MEMORY.md.bak.{TS}": DRIFTED})
    path = root / "memories/MEMORY.md"
    path.chmod(0o600)  # Hermes' mkstemp file
    rollback(str(root), "memories/MEMORY.md", f"MEMORY.md.bak.{TS}")
    assert path.read_text(encoding="utf-8") == DRIFTED
    assert path.stat().st_mode & 0o777 == 0o600
    newest = snapshots(str(root), "memories/MEMORY.md")[0]
    assert newest.kept_by == "memtui"  # the version replaced, kept by memtui
    rollback(str(root), "memories/MEMORY.md", newest.name)
    assert path.read_text(encoding="utf-8") == MEMORY


@pytest.mark.parametrize(
    "name", ["MEMORY.md.bak.", "MEMORY.md.bak.12ab", "MEMORY.md.bak.123456789012345", "X.bak.1"]
)
def test_names_the_guard_never_writes_are_no_history(tmp_path, name):
    root = home(tmp_path, **{f"memories/{name}": "x"})
    assert snapshots(str(root), "memories/MEMORY.md") == []


def test_memtui_history_lists_the_copies_with_who_kept_them(tmp_path, capsys):
    root = home(tmp_path, **{f"memories/MEMORY.md.bak.{TS}": DRIFTED})
    got = reads(
        capsys, root, ("history", "--json", "memories/MEMORY.md"), ("history", "memories/MEMORY.md")
    )
    snaps = json.loads(got["history --json memories/MEMORY.md"][1])["snapshots"]
    assert [(s["name"], s["kept_by"]) for s in snaps] == [(f"MEMORY.md.bak.{TS}", "hermes")]
    assert f"MEMORY.md.bak.{TS}" in got["history memories/MEMORY.md"][1]
    assert "(kept by hermes)" in got["history memories/MEMORY.md"][1]


def test_a_home_whose_memories_hold_other_files_too_is_still_hermes(tmp_path):
    files = {"memories/MEMORY.md": "one", "memories/notes.md": "x", "README.md": "a repo"}
    root = write_tree(tmp_path / "h", files)
    assert layouts_at(str(root)) == ("hermes",)


def test_a_memories_folder_with_the_guards_copies_is_still_hermes(tmp_path):
    root = write_tree(
        tmp_path / "h", {"memories/MEMORY.md": "x", f"memories/MEMORY.md.bak.{TS}": "y"}
    )
    assert layouts_at(str(root)) == ("hermes",)


# --- what config.yaml says is loaded ------------------------------------------------------


def test_by_default_both_files_are_loaded_and_no_provider_is_named(tmp_path):
    got = loaded(home(tmp_path))
    assert all(cf.text and not cf.cut for cf in got.values())
    assert not any("provider" in line for line in summary(home(tmp_path / "b")))


def test_a_file_switched_off_is_said_not_loaded_instead_of_shown(tmp_path):
    root = home(tmp_path, "memory:\n  user_profile_enabled: false\n")
    got = loaded(root)
    user = got["memories/USER.md"]
    assert (user.text, user.first_unloaded_line) == ("", 1)
    assert "memory.user_profile_enabled is false" in user.note
    assert got["memories/MEMORY.md"].text.startswith("═")  # the other still is
    said = " ".join(summary(root))
    assert "USER.md 1 entries" in said and "not loaded" in said


def test_the_char_limit_of_a_file_not_loaded_says_so_and_is_only_info(tmp_path):
    big = DELIM.join(f"entry {n} " + "x" * 90 for n in range(25))  # past 2,200
    on = home(
        tmp_path / "on", "memory:\n  memory_char_limit: 2200\n", **{"memories/MEMORY.md": big}
    )
    off = home(
        tmp_path / "off", "memory:\n  memory_enabled: false\n", **{"memories/MEMORY.md": big}
    )
    [warned] = [f for f in open_store(on).findings if f.code == "char-limit"]
    [said] = [f for f in open_store(off).findings if f.code == "char-limit"]
    assert warned.level == "error" and "not loaded" not in warned.message
    assert said.level == "info" and "memory.memory_enabled is false" in said.message


@pytest.mark.parametrize("provider", ["honcho", "  mem0  ", "hindsight"])
def test_an_external_provider_runs_alongside_the_files_which_stay_loaded(tmp_path, provider):
    root = home(tmp_path, f"memory:\n  provider: {provider}\n")
    got = loaded(root)
    assert all(cf.text and not cf.cut for cf in got.values())  # Hermes still loads them
    name = provider.strip()
    assert all(f"memory.provider is {name!r}" in cf.note for cf in got.values())
    assert any(f"{name!r}, an external provider" in line for line in summary(root))


@pytest.mark.parametrize("config", ["memory:\n  provider: ''\n", "memory:\n  provider: null\n"])
def test_an_empty_provider_is_none(tmp_path, config):
    assert not any("provider" in cf.note for cf in loaded(home(tmp_path, config)).values())
