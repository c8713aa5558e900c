"""memtui's own paths cannot lead it out of the store (SPEC §0: not through symlinks).

`.history`, the audit log, the journal folder, a snapshot folder and the lock file
are each made a link to somewhere outside the store, and so are the layouts' own
files that memtui writes (Hermes' per-file lock and archive, Claude's archive folder).
Every write verb of every layout then refuses (or, where it writes nowhere near the
link, works inside the store), and no byte outside the store changes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from memtui.demo import write_demo
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import Unsafe
from tests.verb_calls import STORES, bind, every_write_verb, memtui


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


def store_with_link(
    tmp_path: Path, template: Path, link: str, folder: str = ""
) -> tuple[Path, Path]:
    """A copy of the demo's store in `folder` (STORES) with `link` made a link out."""
    import shutil

    root = tmp_path / "store"
    shutil.copytree(template / folder if folder else template, root, symlinks=True)
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


@pytest.mark.parametrize("folder", STORES, ids=lambda f: f or "seed")
@pytest.mark.parametrize("link", LINKS)
def test_every_write_verb_refuses_a_link_in_memtuis_own_paths(
    tmp_path: Path, template: Path, link: str, folder: str
):
    root, outside = store_with_link(tmp_path, template, link, folder)
    before = digest(outside)
    refused = 0
    calls = every_write_verb(root, tmp_path)
    for call in calls:
        got = memtui(root, *bind(call, root))
        assert "Traceback" not in got.stderr and "internal error" not in got.stderr
        if got.returncode == 0:  # a call with nothing to do (its setup call was refused)
            assert "nothing to change" in got.stdout or "unchanged" in got.stdout, call
        else:
            assert got.returncode == 1, (call, got.stderr)
            refused += "symbolic link" in got.stderr
    # every call that had something to write: not a restore, rollback or undo of what
    # an earlier refused call would have written, nor the seed's index and maintain
    assert refused >= (12 if not folder else len(calls) - 3)
    assert digest(outside) == before


# A snapshot folder made a link out: the verbs that snapshot a file below it, and one
# that never does.
SNAPSHOT_LINKS = [
    ("", ".history/memory", {"done", "archive", "add"}, "accept"),  # memory/events.md
    ("hermes", ".history/memories", {"accept", "edit", "add", "archive"}, None),
    ("openclaw", ".history/memory", {"accept", "reject"}, "edit"),  # the audit log
]


@pytest.mark.parametrize(("folder", "link", "verbs", "never"), SNAPSHOT_LINKS)
def test_a_snapshot_folder_that_is_a_link_out_is_refused(
    tmp_path: Path, template: Path, folder: str, link: str, verbs: set[str], never: str | None
):
    root, outside = store_with_link(tmp_path, template, link, folder)
    before = digest(outside)
    refused = []
    for call in every_write_verb(root, tmp_path):
        got = memtui(root, *bind(call, root))
        assert got.returncode in (0, 1), (call, got.stderr)
        if f"{link} is a symbolic link" in got.stderr:
            refused.append(call[0])
    assert verbs <= set(refused), refused
    assert never not in refused  # (the seed's dsh accept never snapshots memory/)
    assert digest(outside) == before


# The layouts' own files that memtui writes: Hermes' per-file lock (taken as Hermes
# takes it) and its archive, Claude's archive folder; with the verbs each must stop.
LAYOUT_LINKS = [
    ("hermes", "memories/MEMORY.md.lock", {"accept", "edit", "archive"}),
    ("hermes", "memories/archived.jsonl", {"archive"}),
    ("claude", ".archive", {"archive"}),
]


@pytest.mark.parametrize(("folder", "link", "verbs"), LAYOUT_LINKS)
def test_a_layouts_own_file_that_is_a_link_out_is_refused(
    tmp_path: Path, template: Path, folder: str, link: str, verbs: set[str]
):
    root, outside = store_with_link(tmp_path, template, link, folder)
    before = digest(outside)
    refused = set()
    for call in every_write_verb(root, tmp_path):
        got = memtui(root, *bind(call, root))
        assert "Traceback" not in got.stderr and "internal error" not in got.stderr
        assert got.returncode in (0, 1), (call, got.stderr)
        if got.returncode == 1 and link in got.stderr:
            refused.add(call[0])
    assert verbs <= refused, refused
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
