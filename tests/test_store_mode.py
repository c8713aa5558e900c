"""The store's mode (for a new lock file and a new audit log): scanned once per
transaction, through folder descriptors, and the same answer as stat'ing every memory
file by its path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.engine.paths import discover
from memtui.engine.write import modes
from memtui.engine.write.transaction import Transaction
from tests.conftest import write_tree

FILES = ("index.txt", "facts.md", "sops/a.md", "sops/b.md", "pending/c.md", "archive/sops/d.md")


def _by_path(root: str) -> int:
    """The rule as it was first written: os.stat of every scanned file by its path."""
    found = []
    for rel in discover(root)[0].files:
        try:
            found.append(os.stat(os.path.join(root, rel)).st_mode)
        except OSError:
            continue
    return modes.private_mode(found) & ~modes.umask() | 0o600


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    file_modes=st.lists(
        st.sampled_from([0o600, 0o640, 0o644, 0o604, 0o660, 0o666, 0o400, 0o200]),
        min_size=len(FILES),
        max_size=len(FILES),
    ),
    link=st.booleans(),
)
def test_store_mode_equals_a_stat_of_every_file_by_its_path(
    tmp_path_factory: pytest.TempPathFactory, file_modes: list[int], link: bool
):
    root = write_tree(tmp_path_factory.mktemp("store"), dict.fromkeys(FILES, "x\n"))
    for rel, mode in zip(FILES, file_modes, strict=True):
        (root / rel).chmod(mode)
    if link:  # a link inside the root is followed, as os.stat follows it
        (root / "sops" / "e.md").symlink_to("../facts.md")
    assert modes.store_mode(str(root)) == _by_path(str(root))


def test_a_missing_folder_or_file_counts_for_nothing(tmp_path: Path):
    root = write_tree(tmp_path / "s", {"index.txt": "x\n", "facts.md": "x\n"})
    (root / "facts.md").chmod(0o600)
    (root / "sops").mkdir()
    (root / "sops" / "gone.md").symlink_to("missing.md")  # a dangling link: no stat
    assert modes.store_mode(str(root)) == _by_path(str(root)) == 0o600


def test_a_first_write_scans_the_store_once_for_its_lock_file_and_audit_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = write_tree(tmp_path / "s", {"index.txt": "[RULES] x\n", "facts.md": "# F\n"})
    (root / "facts.md").chmod(0o600)
    scans: list[str] = []
    real = modes.store_mode
    monkeypatch.setattr(modes, "store_mode", lambda r: scans.append(r) or real(r))
    with Transaction(str(root), "edit") as tx:
        tx.read("index.txt")
        tx.write("index.txt", b"[RULES] y\n")
        tx.commit()
    assert len(scans) == 1
    # both as private as the most private memory file, as when each scanned on its own
    assert (root / ".memory.lock").stat().st_mode & 0o777 == 0o600
    assert (root / ".history" / "audit.jsonl").stat().st_mode & 0o777 == 0o600
