"""What `memtui show` prints, given back to `memtui edit`, changes nothing: the same text is
a no-op, and `--raw` keeps control bytes exactly."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli, write_tree
from tests.helpers import ENV, TWO_EVENTS


def test_show_then_edit_unchanged_is_a_no_op(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", {"memory/events.md": TWO_EVENTS})
    shown = run_cli("show", "E001", "--store", str(root), env=ENV)
    assert shown.returncode == 0
    body = shown.stdout.split("\n", 1)[1]  # without show's header line
    text_file = write_tree(tmp_path, {"t.md": body}) / "t.md"
    got = run_cli("edit", "E001", "--text-file", str(text_file), "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    assert (root / "memory/events.md").read_text(encoding="utf-8") == TWO_EVENTS


def test_show_raw_then_edit_keeps_control_bytes(tmp_path: Path) -> None:
    topic = "# python\n\x1b[2J bell \x07 and \u009b31m\n"
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# idx\n\n## P\n- {py} → memory_python.md\n", "memory_python.md": topic},
    )
    shown = run_cli("show", "topic:python", "--raw", "--store", str(root), env=ENV)
    assert shown.returncode == 0 and shown.stdout == topic
    text_file = write_tree(tmp_path, {"t.md": shown.stdout}) / "t.md"
    got = run_cli(
        "edit", "topic:python", "--text-file", str(text_file), "--store", str(root), env=ENV
    )
    assert got.returncode == 0, got.stderr
    assert (root / "memory_python.md").read_text(encoding="utf-8") == topic
