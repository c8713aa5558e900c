"""What a layout declares is honoured with no change to the engine core: a third
party's layout (tests/tiny_layout.py), registered as an entry point would register it,
brings its own finding codes and levels, thresholds and their memtui.toml keys, fixes,
usual places, bare ids, edit and generated file; a code it forgot to declare is named,
never a crash of `check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memtui.engine.layouts as registry
from memtui.cli import main
from memtui.engine.findings import SHARED, all_codes
from memtui.engine.layouts.entry_points import EntryPoint
from memtui.engine.store import open_store
from memtui.engine.write.transaction import Conflict
from tests.tiny_layout import GENERATED


def _clear() -> None:
    registry.detectors.cache_clear()
    registry._layout.cache_clear()


@pytest.fixture
def tiny(monkeypatch):
    """The tiny layout registered beside the built-in ones."""
    found = (
        *registry._entry_points(),
        EntryPoint("tiny", "tests.tiny_layout:TinyDetection", "tests"),
    )
    _clear()
    monkeypatch.setattr(registry, "_entry_points", lambda: found)
    yield
    monkeypatch.undo()
    _clear()


def store(tmp_path: Path, text: str, toml: str | None = None) -> Path:
    root = tmp_path / "s"
    root.mkdir()
    (root / "TINY.md").write_text(text)
    if toml is not None:
        (root / "memtui.toml").write_text(toml)
    return root


def test_its_code_has_its_declared_level_and_is_listed_with_every_code(tiny, tmp_path):
    opened = open_store(store(tmp_path, "a\nb\nc\nd\n"))
    assert opened.layouts == ("tiny",)
    [found] = opened.findings
    assert (found.code, found.level, found.layout) == ("tiny-long", "warning", "tiny")
    codes = all_codes()
    assert codes["tiny-long"] == ("warning", "TINY.md over its line threshold")
    assert SHARED.items() <= codes.items() and "event-overdue" in codes


def test_its_threshold_is_read_and_set_by_its_own_key_in_memtui_toml(tiny, tmp_path):
    root = store(tmp_path, "a\nb\nc\nd\n", "[thresholds]\ntiny_max_lines = 10\nnope = 1\n")
    opened = open_store(root)
    assert opened.config.thresholds.tiny_max_lines == 10
    assert [f.message for f in opened.findings] == ["memtui.toml: unknown threshold 'nope'"]


def test_a_code_it_did_not_declare_is_an_error_naming_it_not_a_crash(tiny, tmp_path, capsys):
    root = store(tmp_path, "oops\n")
    [found] = open_store(root).findings
    assert (found.code, found.level) == ("tiny-oops", "error")
    assert "'tiny-oops' is not declared by the tiny layout" in found.message
    assert main(["check", "--json", "--store", str(root)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [f["code"] for f in out["findings"]] == ["tiny-oops"]


def test_its_entry_is_edited_through_its_own_edit_with_read_back(tiny, tmp_path):
    from memtui.engine.ops.edit import edit_entry

    root = store(tmp_path, "old\n")
    receipt = edit_entry(str(root), "tiny:note", "new", seen_text="old\n")
    assert (root / "TINY.md").read_text() == "new\n"
    assert [c.path for c in receipt.changes] == ["TINY.md"]  # one transaction's change
    with pytest.raises(Conflict, match="changed since you read it"):
        edit_entry(str(root), "tiny:note", "newer", seen_text="old\n")
    assert (root / "TINY.md").read_text() == "new\n"


def test_a_bare_id_it_claims_and_its_usual_places_are_asked(tiny, tmp_path, monkeypatch):
    from memtui.engine.layouts import bare_kind
    from memtui.engine.stores import looked, places

    assert bare_kind("tiny-1") == "tiny"
    assert bare_kind("E020") == "event" and bare_kind("x.md") == "claude"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert str(tmp_path / ".tiny") in places(str(tmp_path), {})
    assert "~/.tiny" in looked()


def test_memtui_index_rebuilds_what_it_generates_in_the_one_operation(tiny, tmp_path):
    from memtui.engine.ops.generated import rebuild

    root = store(tmp_path, "a\nb\n")
    assert rebuild(root, dry_run=True) is not None
    assert not (root / GENERATED).exists()
    assert rebuild(root) is not None
    assert (root / GENERATED).read_text() == "2"
    assert rebuild(root) is None  # current: nothing written


def test_without_it_registered_its_store_is_no_store_and_its_key_unknown(tmp_path):
    from memtui.engine.config import load_config

    assert "tiny-long" not in all_codes()
    assert load_config("[thresholds]\ntiny_max_lines = 1\n").problems == (
        "memtui.toml: unknown threshold 'tiny_max_lines'",
    )
