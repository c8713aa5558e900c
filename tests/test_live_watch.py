"""The app's watcher: the OS's change notifications tell it what the agent wrote (an
idle app costs nothing), only what the store reads counts, and where notifications
fail it falls back to polling."""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtui.ui import live

KNOWN = ("facts.md", "memories/MEMORY.md", "index.txt")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    for rel in KNOWN:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n", encoding="utf-8")
    (tmp_path / "logs").mkdir()
    (tmp_path / ".history").mkdir()
    return tmp_path


@contextlib.contextmanager
def watcher(
    root: Path, known: tuple[str, ...] = KNOWN, keep: Any = None
) -> Iterator[queue.Queue[tuple[str, ...]]]:
    """live.watch in a thread, as the app runs it; what it reports goes to the queue."""
    seen: queue.Queue[tuple[str, ...]] = queue.Queue()
    stop = threading.Event()
    files = (known, [f for f in known if "/" not in f])
    thread = threading.Thread(
        target=live.watch, args=(str(root), lambda: files, seen.put, stop, keep)
    )
    thread.start()
    try:
        yield seen
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive(), "the watcher did not stop when asked"


@pytest.fixture
def watching(home: Path) -> Iterator[queue.Queue[tuple[str, ...]]]:
    with watcher(home) as seen:
        yield seen


def next_change(seen: queue.Queue[tuple[str, ...]], wanted: str) -> tuple[str, ...]:
    """Changes until one names `wanted`."""
    while True:
        got = seen.get(timeout=10)
        if wanted in got:
            return got


def write_until_seen(seen: queue.Queue[tuple[str, ...]], home: Path, rel: str) -> None:
    """Write `rel` until the watcher reports it: a write before its watch is set up
    (the thread just started) is legitimately nobody's news."""
    for attempt in range(40):
        (home / rel).write_text(f"write {attempt}\n", encoding="utf-8")
        try:
            while rel not in seen.get(timeout=0.5):
                pass
            return
        except queue.Empty:
            continue
    raise AssertionError(f"{rel}: the watcher never reported the write")


def test_an_agents_write_is_reported(home, watching):
    write_until_seen(watching, home, "facts.md")  # the watch is up
    (home / "memories/MEMORY.md").write_text("y\n", encoding="utf-8")
    assert "memories/MEMORY.md" in next_change(watching, "memories/MEMORY.md")


def test_a_new_file_in_a_folder_the_store_reads_is_reported(home, watching):
    write_until_seen(watching, home, "facts.md")
    (home / "memories/USER.md").write_text("new\n", encoding="utf-8")
    next_change(watching, "memories/USER.md")


def test_writes_the_store_does_not_read_are_not_reported(home, watching):
    write_until_seen(watching, home, "facts.md")
    (home / "logs/agent.log").write_text("busy\n", encoding="utf-8")
    (home / ".history/audit.jsonl").write_text("{}\n", encoding="utf-8")
    (home / "index.txt").write_text("z\n", encoding="utf-8")  # a marker after them
    got = next_change(watching, "index.txt")
    assert "logs/agent.log" not in got and ".history/audit.jsonl" not in got
    assert watching.empty() or all("logs/" not in p for p in watching.get_nowait())


def test_read_paths_keeps_what_the_store_reads(home):
    paths = [str(home / p) for p in ("facts.md", "logs/a.log", ".history/x", "memories/new.md")]
    paths.append(os.path.join(str(home.parent), "elsewhere.md"))
    assert live.read_paths(str(home), paths, live.read_folders(KNOWN)) == (
        "facts.md",
        "memories/new.md",
    )


def test_without_notifications_it_polls(home, monkeypatch):
    import watchfiles

    def broken(*args, **kwargs):
        raise OSError(28, "inotify watch limit reached")

    monkeypatch.setattr(watchfiles, "watch", broken)
    with watcher(home) as seen:
        # the poller's first look is its baseline: write until a poll has seen one
        for attempt in range(20):
            (home / "facts.md").write_text(f"poll {attempt}\n" * 3, encoding="utf-8")
            try:
                got = seen.get(timeout=live.POLL * 4)
            except queue.Empty:
                continue
            assert "facts.md" in got
            break
        else:
            raise AssertionError("the poller never reported the write")


def test_an_agent_homes_own_files_do_not_reload_the_store(tmp_path):
    # a Hermes home: its database and pid file sit in the root beside config.yaml
    from memtui.engine.home import keeps
    from memtui.engine.store import open_store

    (tmp_path / "memories").mkdir()
    (tmp_path / "memories/MEMORY.md").write_text("a fact", encoding="utf-8")
    (tmp_path / "config.yaml").write_text("memory: {}\n", encoding="utf-8")
    (tmp_path / "state.db").write_bytes(b"SQLite format 3\x00")
    store = open_store(tmp_path)
    assert "hermes" in store.layouts and "state.db" not in store.files
    with watcher(tmp_path, store.files, lambda: keeps(store)) as seen:
        write_until_seen(seen, tmp_path, "config.yaml")
        (tmp_path / "state.db").write_bytes(b"SQLite format 3\x00 busy")
        (tmp_path / "gateway.pid").write_text("4242\n", encoding="utf-8")
        (tmp_path / "memories/MEMORY.md").write_text("a fact\n§\nanother", encoding="utf-8")
        reported: set[str] = set()
        while "memories/MEMORY.md" not in reported:  # every batch up to the memory's
            reported.update(seen.get(timeout=10))
        assert not reported & {"state.db", "gateway.pid"}
