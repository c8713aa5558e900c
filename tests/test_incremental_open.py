"""open_store(previous=...): the app's reload takes unchanged files from the last
snapshot instead of reading and parsing them again. The result must equal a fresh
open after any change, and a file rewritten within the same timestamp tick must
never be mistaken for unchanged."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.demo import write_demo
from memtui.engine import rawfile, textfile
from memtui.engine.store import Store, open_store
from tests.helpers import TODAY_DATE

Change = Callable[[Path], None]


@pytest.fixture
def no_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written a moment ago count as settled, so the reuse path runs in tests.
    (The changes below all alter a file's size, inode or mtime, so none hides.)"""
    monkeypatch.setattr(rawfile, "RACY_NS", 0)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "store"
    write_demo(root, size=1, today=TODAY_DATE)
    return root


def opened(root: Path, previous: Store | None = None) -> Store:
    return open_store(root, today=TODAY_DATE, previous=previous, reopen=True)


def append(rel: str, text: str) -> Change:
    def change(root: Path) -> None:
        with open(root / rel, "a", encoding="utf-8") as f:
            f.write(text)

    return change


def replace(rel: str, old: str, new: str) -> Change:
    """An atomic rewrite (a new inode), as the agent's writer and memtui do."""

    def change(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{rel} holds no {old!r}: the change would change nothing"
        tmp = path.with_name(path.name + ".tmp-test")
        tmp.write_text(text.replace(old, new, 1), encoding="utf-8")
        os.replace(tmp, path)

    return change


def remove(rel: str) -> Change:
    return lambda root: (root / rel).unlink()


def first(root: Path, folder: str, holding: str = "") -> str:
    """The first file of `folder` (by name) whose text holds `holding`."""
    for name in sorted(os.listdir(root / folder)):
        if holding in (root / folder / name).read_text(encoding="utf-8"):
            return f"{folder}/{name}"
    raise AssertionError(f"no file in {folder}/ holds {holding!r}")


CHANGES: dict[str, Callable[[Path], Change]] = {
    "event appended": lambda r: append("memory/events.md", "\n### [E900] 2026-11-28 · plan\n"),
    "candidate broken": lambda r: replace(first(r, "pending"), "entry_type:", "entry_type: [\n#"),
    "candidate removed": lambda r: remove(first(r, "pending")),
    "candidate added": lambda r: (
        lambda root: (root / "pending/new-one.md").write_text(
            "---\nid: new-one\nentry_type: fact\ntarget: Tools\nevidence: ran it\n---\nA fact\n"
        )
    ),
    "sop retitled": lambda r: replace(
        first(r, "sops", "\ntitle:"), "\ntitle:", "\ntitle: Renamed —"
    ),
    "facts duplicated": lambda r: append("facts.md", "\n## Again\n- a fact\n- a fact\n"),
    "meta json broken": lambda r: append("memory-meta.json", "}"),
    "config lowers a cap": lambda r: (
        lambda root: (root / "memtui.toml").write_text("[thresholds]\nindex_block_lines = 100\n")
    ),
    "file made unreadable": lambda r: lambda root: (root / "facts.md").write_bytes(b"\xff\xfe"),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_reopen_after_a_change_equals_a_fresh_open(
    name: str, demo: Path, tmp_path: Path, no_racy_window: None
) -> None:
    root = tmp_path / "store"
    shutil.copytree(demo, root)
    before = opened(root)
    CHANGES[name](root)(root)
    fresh = open_store(root, today=TODAY_DATE)
    assert opened(root, previous=before) == fresh
    assert fresh != before  # the change is one a reopen has to see


def test_the_lowered_cap_is_a_threshold_that_bites(demo: Path, tmp_path: Path) -> None:
    """ "config lowers a cap" above changes what memory.md is judged by, not just a file."""
    root = tmp_path / "store"
    shutil.copytree(demo, root)

    def size_finding() -> set[tuple[str, str]]:
        return {(f.code, f.level) for f in opened(root).findings if f.code == "index-size"}

    assert size_finding() == {("index-size", "warning")}  # near its cap of 180 lines
    CHANGES["config lowers a cap"](root)(root)
    assert size_finding() == {("index-size", "error")}  # over the lowered cap of 100
    assert not opened(root).config.problems  # a known threshold, not an unknown key


def test_unchanged_files_are_reused_not_parsed(
    demo: Path, tmp_path: Path, no_racy_window: None
) -> None:
    root = tmp_path / "store"
    shutil.copytree(demo, root)
    before = opened(root)
    append("memory/events.md", "\n### [E900] 2026-11-28 · plan\n")(root)
    after = opened(root, previous=before)
    assert after.data.get("dsh") is not None and before.data.get("dsh") is not None
    assert (
        after.data.get("dsh").candidates[0].meta is before.data.get("dsh").candidates[0].meta
    )  # not parsed again
    assert after.texts["facts.md"] is before.texts["facts.md"]  # not read again
    assert after.texts["memory/events.md"] is not before.texts["memory/events.md"]
    assert after.findings == opened(root).findings


def test_a_same_size_rewrite_with_its_mtime_put_back_is_not_missed(tmp_path: Path) -> None:
    """Rewritten in place, same size, its mtime restored to the nanosecond (as
    `touch -r` or `rsync -t` leave it): the change time still tells."""
    root = tmp_path / "store"
    write_demo(root, size=1, today=TODAY_DATE)
    before = opened(root)
    path = root / "facts.md"
    info = path.stat()
    text = path.read_text(encoding="utf-8")
    changed = text.replace("-", "+", 1)
    assert len(changed) == len(text) and changed != text
    with open(path, "r+", encoding="utf-8") as f:
        f.write(changed)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = opened(root, previous=before)
    assert after.texts["facts.md"].text == changed


def test_a_file_changed_within_the_racy_window_is_never_vouched_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Linux stamps files from a coarse clock, so two writes a few ms apart can share
    every time: a file changed under RACY_NS ago gets no stamp and is read again."""
    path = tmp_path / "f.md"
    path.write_text("x\n")
    info = path.stat()
    changed_at = max(info.st_mtime_ns, info.st_ctime_ns)
    monkeypatch.setattr(rawfile.time, "time_ns", lambda: changed_at + rawfile.RACY_NS - 1)
    assert textfile.stamp_of(info) is None
    assert not textfile.unchanged(str(path), 0)
    monkeypatch.setattr(rawfile.time, "time_ns", lambda: changed_at + rawfile.RACY_NS)
    stamp = textfile.stamp_of(info)
    assert stamp is not None and textfile.unchanged(str(path), stamp)


def test_another_store_or_other_settings_share_nothing(
    demo: Path, tmp_path: Path, no_racy_window: None
) -> None:
    root = tmp_path / "store"
    shutil.copytree(demo, root)
    other = opened(demo)
    mine = opened(root, previous=other)  # another root: nothing taken from it
    assert all(mine.texts[rel] is not other.texts[rel] for rel in mine.texts)


EDITABLE = ["memory/events.md", "facts.md", "index.txt", "MEMORY.md", "memory-meta.json"]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(EDITABLE), st.integers(0, 10_000), st.binary(max_size=40)),
        min_size=1,
        max_size=4,
    )
)
def test_random_edits_reopen_as_a_fresh_open(
    demo: Path, no_racy_window: None, edits: list[tuple[str, int, bytes]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "store"
        shutil.copytree(demo, root)
        previous = opened(root)
        for rel, at, data in edits:
            path = root / rel
            raw = path.read_bytes()
            at = at % (len(raw) + 1)
            path.write_bytes(raw[:at] + data + raw[at:])  # any bytes: broken UTF-8 too
            fresh = opened(root)
            again = opened(root, previous=previous)
            assert again == fresh
            previous = again


TAILS = {
    "a new event": "\n### [E901] 2026-11-28 · plan\n**状态**：待跟进\n",
    "the last line continued": " and more",
    "fields of the last event": "**到期日**：2026-12-01\n",
    "a section heading": "\n## Later\n",
    "half a heading": "\n##",
    "a heading completed": "\n##",  # then "# x" below: "### x"
}


@pytest.mark.parametrize("name", sorted(TAILS))
def test_events_appended_parse_only_the_tail_and_equal_a_fresh_open(
    name: str, demo: Path, tmp_path: Path, no_racy_window: None
) -> None:
    root = tmp_path / "store"
    shutil.copytree(demo, root)
    events = root / "memory" / "events.md"
    before = opened(root)
    append("memory/events.md", TAILS[name])(root)
    middle = opened(root, previous=before)
    assert middle == open_store(root, today=TODAY_DATE)
    if name == "a heading completed":
        append("memory/events.md", "# [E902] 2026-11-28 · plan\n")(root)
        after = opened(root, previous=middle)
        assert after == open_store(root, today=TODAY_DATE)
        assert (
            after.data.get("companion") is not None
            and after.data.get("companion").events[-1].label == "E902"
        )
        middle = after
    assert middle.data.get("companion") is not None
    tf = middle.texts["memory/events.md"]
    assert tf.text == events.read_text(encoding="utf-8")
    # every event reads the new text, so the old one is not kept alive
    assert all(e.source is tf for e in middle.data.get("companion").events)
