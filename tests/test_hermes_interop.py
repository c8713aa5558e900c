"""Every file memtui writes in a Hermes home survives Hermes' own reading and its drift
guard, and memtui refuses to touch a file Hermes would refuse to rewrite.

Hermes' rules are restated here from NousResearch/hermes-agent `tools/memory_tool.py`
(MemoryStore), not taken from memtui's code:
- `_read_file`: `[e.strip() for e in raw.split("\\n§\\n")]`, empty ones dropped
  (nothing at all when `raw.strip()` is empty);
- `load_from_disk` / `_reload_target`: `list(dict.fromkeys(entries))`;
- `_write_file`: `"\\n§\\n".join(entries)`, no trailing newline;
- `_detect_external_drift`: drift when `raw.strip() != join(parsed)` or when one
  parsed entry is longer than the file's whole character limit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.engine.ops import archive, restore
from memtui.engine.ops.common import Refused
from memtui.engine.store import open_store
from memtui.layouts.hermes.ops import add_entry, edit_entry
from memtui.layouts.hermes.rules import split_entries
from tests.conftest import run_cli, tree_digest, write_tree

DELIM = "\n§\n"
MEMORY_LIMIT = 2200  # MemoryStore.__init__ default for MEMORY.md


def hermes_read(raw: str) -> list[str]:
    """MemoryStore._read_file."""
    if not raw.strip():
        return []
    return [e for e in (e.strip() for e in raw.split(DELIM)) if e]


def hermes_drifts(raw: str, limit: int) -> bool:
    """MemoryStore._detect_external_drift (True: Hermes refuses replace/remove)."""
    if not raw.strip():
        return False
    parsed = [e.strip() for e in raw.split(DELIM) if e.strip()]
    return raw.strip() != DELIM.join(parsed) or max(len(e) for e in parsed) > limit


def survives(raw: str, limit: int = MEMORY_LIMIT) -> bool:
    return not hermes_drifts(raw, limit)


def home(tmp_path: Path, memory: str, user: str | None = None) -> Path:
    files = {"memories/MEMORY.md": memory}
    if user is not None:
        files["memories/USER.md"] = user
    return write_tree(tmp_path / "hermes", files)


def memory_text(root: Path) -> str:
    return (root / "memories/MEMORY.md").read_text(encoding="utf-8")


# --- what memtui writes survives Hermes ------------------------------------------------


ENTRIES = ["User runs Arch Linux with zsh", "Project X uses uv,\nnot pip", "Deploys on Fridays"]


def test_an_edit_changes_only_its_entry_and_hermes_reads_exactly_the_new_entries(tmp_path):
    root = home(tmp_path, DELIM.join(ENTRIES))

    edit_entry(str(root), "hermes:memory#2", "Project X uses uv 0.5\n(never pip)\n")

    raw = memory_text(root)
    assert hermes_read(raw) == [ENTRIES[0], "Project X uses uv 0.5\n(never pip)", ENTRIES[2]]
    assert survives(raw)
    assert raw.startswith(ENTRIES[0] + DELIM) and raw.endswith(DELIM + ENTRIES[2])


def test_an_added_entry_is_appended_as_hermes_adds_it(tmp_path):
    root = home(tmp_path, DELIM.join(ENTRIES) + "\n")  # a trailing newline Hermes tolerates

    add_entry(str(root), "memory", "  Prefers tabs  ")

    raw = memory_text(root)
    assert hermes_read(raw) == [*ENTRIES, "Prefers tabs"]
    assert survives(raw)


def test_archive_then_restore_gives_back_the_same_entries_in_their_places(tmp_path):
    original = DELIM.join(ENTRIES)
    root = home(tmp_path, original)

    receipt = archive(str(root), "hermes:memory#2")
    after_archive = memory_text(root)
    restore(str(root), receipt.details["archived"])

    assert hermes_read(after_archive) == [ENTRIES[0], ENTRIES[2]]
    assert survives(after_archive)
    assert memory_text(root) == original  # byte for byte
    assert not (root / "memories/archived.jsonl").exists()  # nothing left behind


def test_the_archive_is_somewhere_hermes_does_not_read_and_keeps_the_entry(tmp_path):
    root = home(tmp_path, DELIM.join(ENTRIES))

    archive(str(root), "hermes:memory#1")

    lines = (root / "memories/archived.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    assert (record["target"], record["index"], record["text"]) == ("memory", 1, ENTRIES[0])
    assert ENTRIES[0] not in memory_text(root)  # Hermes reads MEMORY.md and USER.md only


entry_text = (
    st.text(
        st.characters(
            whitelist_categories=("L", "N", "P", "S", "Zs"),
            whitelist_characters="\n\t",
            blacklist_characters="§",
        ),
        min_size=1,
        max_size=40,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    entries=st.lists(entry_text, min_size=1, max_size=6, unique=True),
    pick=st.integers(min_value=0, max_value=5),
    new=entry_text,
)
def test_edits_of_any_hermes_file_survive_its_parse_and_drift_guard(tmp_path, entries, pick, new):
    root = tmp_path / f"h{abs(hash((tuple(entries), pick, new)))}"
    write_tree(root, {"memories/MEMORY.md": DELIM.join(entries)})
    n = pick % len(entries)
    expected = [*entries]
    expected[n] = new.strip()
    if len(set(expected)) != len(expected):
        return  # a duplicate is Hermes' own dedupe case, covered by the layout tests

    edit_entry(str(root), f"hermes:memory#{n + 1}", new)

    raw = memory_text(root)
    assert hermes_read(raw) == expected
    assert survives(raw)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b c", "\n", " ", "§", "\n§\n", "\n\n§\n"]), max_size=12))
def test_memtui_reads_the_entries_hermes_reads(parts):
    raw = "".join(parts)
    assert split_entries(raw) == hermes_read(raw)


# --- a file Hermes would refuse is refused, nothing changed ----------------------------


DRIFTING = {
    "blank line after a separator": "first entry\n§\n\nsecond entry",
    "an entry longer than the limit": "short\n§\n" + "free text appended " * 200,
}


@pytest.mark.parametrize("raw", DRIFTING.values(), ids=DRIFTING.keys())
def test_a_change_to_a_file_hermes_would_refuse_is_refused(tmp_path, raw):
    assert hermes_drifts(raw, MEMORY_LIMIT)
    root = home(tmp_path, raw)
    text = tmp_path / "new.txt"
    text.write_text("short, edited\n", encoding="utf-8")
    before = tree_digest(root)

    edited = run_cli("--store", str(root), "edit", "hermes:memory#1", "--text-file", str(text))
    archived = run_cli("--store", str(root), "archive", "hermes:memory#1")

    for result in (edited, archived):
        assert result.returncode == 1, result.stderr
        assert "Hermes would refuse" in result.stderr
        assert "Traceback" not in result.stderr
    assert {k: v for k, v in tree_digest(root).items() if not k.endswith(".lock")} == {
        k: v for k, v in before.items() if not k.endswith(".lock")
    }


def test_an_edit_that_holds_a_separator_line_is_refused(tmp_path):
    root = home(tmp_path, DELIM.join(ENTRIES))
    before = memory_text(root)

    with pytest.raises(Refused, match="Hermes would read 4 entries"):
        edit_entry(str(root), "hermes:memory#1", "one\n§\ntwo")

    assert memory_text(root) == before


def test_memtui_lists_the_entries_hermes_loads_in_a_crlf_file(tmp_path):
    root = home(tmp_path, "one\r\n§\r\ntwo\r\nlines\r\n§\r\nthree")

    store = open_store(root)

    data = store.data["hermes"]
    assert list(data.file("memory").entries) == ["one", "two\nlines", "three"]
    assert data.file("memory").drift is None


def test_the_command_line_verbs_leave_files_hermes_reads_as_meant(tmp_path):
    root = home(tmp_path, DELIM.join(ENTRIES), user="Name: Ana")
    text = tmp_path / "new.txt"
    text.write_text("Deploys happen on Tuesdays\n", encoding="utf-8")

    steps = [
        ("edit", "hermes:memory#3", "--text-file", str(text)),
        ("add", "hermes", "user", "Prefers short answers"),
        ("archive", "hermes:memory#1"),
    ]
    for argv in steps:
        result = run_cli("--store", str(root), *argv)
        assert result.returncode == 0, result.stderr

    raw = memory_text(root)
    assert hermes_read(raw) == [ENTRIES[1], "Deploys happen on Tuesdays"]
    assert survives(raw)
    user = (root / "memories/USER.md").read_text(encoding="utf-8")
    assert hermes_read(user) == ["Name: Ana", "Prefers short answers"] and survives(user, 1375)
    archived = json.loads((root / "memories/archived.jsonl").read_text(encoding="utf-8"))
    restored = run_cli("--store", str(root), "restore", f"hermes-archived:{archived['id']}")
    assert restored.returncode == 0, restored.stderr
    assert hermes_read(memory_text(root)) == [ENTRIES[0], ENTRIES[1], "Deploys happen on Tuesdays"]
