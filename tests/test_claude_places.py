"""`memtui stores` finds Claude Code memory folders where Claude's own paths.ts puts
them: moved by `autoMemoryDirectory` (settings read in Claude's order, `~/` expanded,
a bad settings file skipped), by `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`, and the team
memory stores `CLAUDE_MEMORY_STORES` names, synced into `team/<mount>/` of the memory
folder (claude/places.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine import stores
from memtui.layouts.claude import places
from tests.conftest import run_cli, write_tree
from tests.test_stores import temporary_home

FOLDER = {
    "MEMORY.md": "- [Role](user_role.md) — backend engineer\n",
    "user_role.md": "---\nname: Role\ndescription: the role\ntype: user\n---\nBackend.\n",
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CLAUDE_CONFIG_DIR", "CLAUDE_MEMORY_STORES", "CLAUDE_CODE_REMOTE_MEMORY_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", raising=False)
    monkeypatch.setattr(places, "MANAGED_DEFAULT", str(tmp_path / "etc-claude-code"))
    monkeypatch.setattr(places, "MANAGED", {})
    return temporary_home(tmp_path, monkeypatch)


def _settings(path: Path, **values: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values))


def _found() -> list[str]:
    return [s.path for s in stores.stores() if "claude" in s.layouts]


def test_a_folder_moved_by_the_user_settings_is_found_with_tilde_expanded(home: Path) -> None:
    moved = write_tree(home / "notes" / "claude-memory", FOLDER)
    _settings(home / ".claude" / "settings.json", autoMemoryDirectory="~/notes/claude-memory/")
    assert _found() == [str(moved)]
    listed = run_cli("stores", "--json", env={"HOME": str(home)})
    assert listed.returncode == 0 and str(moved) in listed.stdout


def test_policy_then_local_then_project_then_user_first_set_wins(
    home: Path, tmp_path: Path
) -> None:
    local, user = (write_tree(tmp_path / n, FOLDER) for n in ("local", "user"))
    cwd = Path.cwd()
    _settings(cwd / ".claude" / "settings.local.json", autoMemoryDirectory=str(local))
    _settings(home / ".claude" / "settings.json", autoMemoryDirectory=str(user))
    assert _found() == [str(local)]
    policy = write_tree(tmp_path / "policy", FOLDER)
    _settings(tmp_path / "etc-claude-code" / "managed-settings.json", autoMemoryDirectory="/x")
    _settings(
        tmp_path / "etc-claude-code" / "managed-settings.d" / "10-memory.json",
        autoMemoryDirectory=str(policy),
    )
    assert _found() == [str(policy)]  # a drop-in overrides the managed file


def test_a_bad_settings_file_is_skipped_and_a_bad_path_refused(home: Path, tmp_path: Path) -> None:
    cwd = Path.cwd()
    (cwd / ".claude").mkdir()
    (cwd / ".claude" / "settings.local.json").write_text("{ not json")
    (cwd / ".claude" / "settings.json").write_bytes(b"\xff\xfe")
    moved = write_tree(tmp_path / "moved", FOLDER)
    _settings(home / ".claude" / "settings.json", autoMemoryDirectory=str(moved))
    assert _found() == [str(moved)]
    for bad in ("relative/dir", "~", "~/..", "/", 7):
        _settings(home / ".claude" / "settings.json", autoMemoryDirectory=bad)
        assert places.memory_dir_setting(str(home), {}) is None, bad
    assert _found() == []


def test_the_cowork_override_and_the_team_stores_are_found(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cowork = write_tree(tmp_path / "cowork", FOLDER)
    team = write_tree(cowork / "team" / "platform", FOLDER)  # synced from /stores/platform
    other = write_tree(cowork / "team" / "docs-x", FOLDER)  # mount given
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", str(cowork))
    named = ["/stores/platform/", {"path": "/stores/abc", "mount": "docs-x", "mode": "ro"}]
    monkeypatch.setenv("CLAUDE_MEMORY_STORES", json.dumps(named))
    assert _found() == [str(cowork), str(team), str(other)]
    for refused in ("[not json", json.dumps([*named, {"mode": "ro"}]), json.dumps(["a/b"])):
        monkeypatch.setenv("CLAUDE_MEMORY_STORES", refused)  # Claude refuses it whole
        assert _found() == [str(cowork)]


def test_claude_config_dir_moves_the_projects(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "cfg"
    project = write_tree(config / "projects" / "-home-ada-x" / "memory", FOLDER)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert _found() == [str(project)]
