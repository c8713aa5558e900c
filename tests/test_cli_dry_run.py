"""`--dry-run` on every write verb: the diff the change would make is printed and not a
byte is written (no lock file, no snapshot, no audit line). Each verb is then run for
real, so the next one finds what it needs (a restore its archived entry, a rollback
its snapshot) and the printed diff is checked against what the real run wrote."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import tree_digest
from tests.ui_helpers import demo_store
from tests.verb_calls import every_write_verb, memtui


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_store(tmp_path_factory.mktemp("dry") / "demo")


def dry_form(call: list[str]) -> list[str]:
    """The call with --dry-run; `maintain` is a dry run unless --apply (README)."""
    if call[0] == "maintain":
        return [arg for arg in call if arg != "--apply"]
    return [*call, "--dry-run"]


def changed_files(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The store's own files (not memtui's bookkeeping) that a real run changed."""
    paths = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    return {p for p in paths if not p.startswith(".history") and p != ".memory.lock"}


def test_dry_run_on_every_write_verb_prints_the_diff_and_writes_nothing(
    template: Path, tmp_path: Path
) -> None:
    root = tmp_path / "store"
    shutil.copytree(template, root, symlinks=True)
    for call in every_write_verb(root, tmp_path):
        before = tree_digest(root)
        dry = memtui(root, *dry_form(call))
        assert dry.returncode == 0, (call, dry.stderr)
        assert tree_digest(root) == before, f"{call} --dry-run wrote"
        assert "Traceback" not in dry.stdout + dry.stderr
        real = memtui(root, *call)
        assert real.returncode == 0, (call, real.stderr)
        after = tree_digest(root)
        changed = changed_files(before, after)
        assert changed, f"{call} changed nothing"
        for rel in changed:
            if rel in before and rel in after:  # rewritten: its diff was printed
                assert f"--- a/{rel}" in dry.stdout, (call, rel, dry.stdout)
            else:  # moved (archive, accept, restore) or new: the dry run named it
                assert Path(rel).stem in dry.stdout, (call, rel, dry.stdout)
