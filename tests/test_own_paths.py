"""memtui's own paths cannot lead it out of the store (SPEC §0: not through symlinks).

`.history`, the audit log, the journal folder, a snapshot folder and the lock file
are each made a link to somewhere outside the store. Every write verb then refuses
(or, where it writes nowhere near the link, works inside the store), and no byte
outside the store changes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from memtui.demo import write_demo
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import Unsafe
from tests.verb_calls import every_write_verb, memtui


def digest(folder: Path) -> dict[str, str]:
    """Every path under `folder` (links not followed) and what it holds."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "dir"
    return out


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("template") / "store"
    write_demo(root, size=1)
    return root


def store_with_link(tmp_path: Path, template: Path, link: str) -> tuple[Path, Path]:
    import shutil

    root = tmp_path / "store"
    shutil.copytree(template, root, symlinks=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "profile.sh").write_text("export PATH=/usr/bin\n")
    (outside / "audit.jsonl").write_text("")
    target = (
        outside / "audit.jsonl" if link.endswith(".jsonl") or link.endswith(".lock") else outside
    )
    path = root / link
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir():
        shutil.rmtree(path)
    path.unlink(missing_ok=True)
    path.symlink_to(target)
    return root, outside


LINKS = [".history", ".history/audit.jsonl", ".history/journal", ".memory.lock"]


@pytest.mark.parametrize("link", LINKS)
def test_every_write_verb_refuses_a_link_in_memtuis_own_paths(
    tmp_path: Path, template: Path, link: str
):
    root, outside = store_with_link(tmp_path, template, link)
    before = digest(outside)
    refused = 0
    for call in every_write_verb(root, tmp_path):
        got = memtui(root, *call)
        assert "Traceback" not in got.stderr and "internal error" not in got.stderr
        if got.returncode == 0:  # a call with nothing to do (its setup call was refused)
            assert "nothing to change" in got.stdout or "unchanged" in got.stdout, call
        else:
            assert got.returncode == 1, (call, got.stderr)
            refused += "symbolic link" in got.stderr
    assert refused >= 12  # every call that had something to write
    assert digest(outside) == before


def test_a_snapshot_folder_that_is_a_link_out_is_refused(tmp_path: Path, template: Path):
    root, outside = store_with_link(tmp_path, template, ".history/memory")
    before = digest(outside)
    refused = []
    for call in every_write_verb(root, tmp_path):
        got = memtui(root, *call)
        assert got.returncode in (0, 1), (call, got.stderr)
        if ".history/memory is a symbolic link" in got.stderr:
            refused.append(call[0])
    assert {"done", "archive", "add"} <= set(refused)  # those writing memory/events.md
    assert "accept" not in refused  # a dsh accept never snapshots memory/
    assert digest(outside) == before


def test_a_link_swapped_in_after_the_check_cannot_win(tmp_path: Path):
    """The folder is held as a descriptor: replacing it by a link afterwards changes
    nothing about where the next file goes."""
    root = tmp_path / "store"
    (root / ".history").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    dirs = Dirs(str(root))
    fd = dirs.own(".history")
    os.rename(root / ".history", root / ".history-moved")
    (root / ".history").symlink_to(outside)
    os.close(os.open("kept", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    dirs.close()
    assert list(outside.iterdir()) == []
    assert (root / ".history-moved" / "kept").exists()
    with pytest.raises(Unsafe, match="symbolic link"):
        Dirs(str(root)).own(".history")
