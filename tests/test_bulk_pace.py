"""How large a chunk of a bulk accept is: the part of a chunk's cost that grows with the
store (the books it rewrites whole) is paid at most once per as much planning, and a
rest smaller than that joins the chunk instead of paying it again (dsh_chunks.stop)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from memtui.layouts.dsh import chunks as dsh_chunks
from memtui.layouts.dsh import ops as dsh
from memtui.layouts.dsh.chunks import Pace, stop
from tests.conftest import write_tree
from tests.helpers import candidate


def _store(root: Path, count: int = 12) -> Path:
    files: dict[str, str | bytes] = {
        "index.txt": "[RULES] x\n# --- auto ---\n# --- end auto ---\n",
        "facts.md": "# Facts\n\n## A\n- one\n",
        "memory_stats.json": "{}\n",
    }
    for i in range(count):
        cid = f"20261130-{i:04d}"
        files[f"pending/{cid}.md"] = candidate(cid, "AB"[i % 2], f"- fact {i}\n")
    return write_tree(root, files)


def test_a_rest_smaller_than_the_books_cost_joins_the_chunk():
    one_second_ago = time.monotonic() - 1.0  # ten planned: 0.1 s each
    pace = Pace(fixed=0.5 / dsh_chunks.PLAN_PER_BOOKS, per_write=0.0)  # plan 0.5 s a chunk
    assert not stop(10, one_second_ago, pace, 0, None, 0.8, left=4)  # 0.4 s of rest
    assert stop(10, one_second_ago, pace, 0, None, 0.8, left=5)  # 0.5 s: a chunk of its own
    assert stop(10, one_second_ago, pace, 0, 10, 0.8, left=4)  # a chunk size given caps it


def test_a_chunk_plans_a_multiple_of_what_its_books_take():
    """The books are at most a third of a bulk: planning goes on to twice their time."""
    two_seconds_ago = time.monotonic() - 2.0
    pace = Pace(fixed=1.5, per_write=0.0)  # 2 s planned: more than 1.5, less than 3
    assert not stop(10, two_seconds_ago, pace, 0, None, 0.8, left=1000)
    assert stop(10, two_seconds_ago, Pace(fixed=0.9, per_write=0.0), 0, None, 0.8, left=1000)


def test_a_chunk_never_plans_past_what_an_agent_waits_for_the_lock():
    long_ago = time.monotonic() - dsh_chunks.LONGEST
    assert stop(10, long_ago, Pace(fixed=3600.0, per_write=0.0), 0, None, 0.8, left=1)
    assert not stop(0, long_ago, Pace(fixed=3600.0, per_write=0.0), 0, None, 0.8)  # not empty


def test_the_first_guess_of_the_fixed_part_grows_with_the_books(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(dsh_chunks, "SECONDS_PER_BOOK_BYTE", 0.001)
    root = write_tree(tmp_path / "s", {"facts.md": "x" * 600, "memory-meta.json": "y" * 400})
    assert Pace.for_books(str(root), ("facts.md", "memory-meta.json", "index.txt")).fixed == 1.0
    assert Pace.for_books(str(root), ("index.txt",)).fixed == Pace.fixed  # no books: the floor


def test_the_fixed_part_is_learnt_from_the_time_the_books_took():
    pace = Pace(fixed=0.05, per_write=0.001)
    pace.learn(2.0, 100, books=0.5)
    assert pace.fixed == 0.5 * dsh_chunks.BOOKS_SHARE
    assert pace.per_write == pytest.approx(0.01)  # (2.0 - 1.0) / 100, within 10x of before


@pytest.fixture
def books_cost_an_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first chunk guesses no fixed part (it stops after one candidate at
    chunk_seconds=0); every commit then shows books that took an hour to plan."""
    monkeypatch.setattr(Pace, "for_books", classmethod(lambda cls, *_: cls(0.0, 0.0)))
    learn = Pace.learn
    monkeypatch.setattr(Pace, "learn", lambda self, s, w, books=None: learn(self, s, w, 3600.0))


@pytest.mark.usefixtures("books_cost_an_hour")
def test_a_bulk_accept_pays_the_books_once_for_a_rest_that_costs_less(tmp_path: Path):
    """After the first chunk, the books cost more than planning all the rest: the rest is
    one chunk, not eleven."""
    root = _store(tmp_path / "s")
    receipts = dsh.accept(str(root), all_pending=True, chunk_seconds=0.0)
    assert [len(r.details["accepted"]) for r in receipts] == [1, 11]
    assert not list((root / "pending").glob("*.md"))
    facts = (root / "facts.md").read_text(encoding="utf-8")
    assert all(f"- fact {i}\n" in facts for i in range(12))


@pytest.mark.usefixtures("books_cost_an_hour")
def test_a_chunk_size_given_still_caps_every_chunk(tmp_path: Path):
    root = _store(tmp_path / "s")
    receipts = dsh.accept(str(root), all_pending=True, chunk_seconds=0.0, chunk_size=5)
    assert [len(r.details["accepted"]) for r in receipts] == [1, 5, 5, 1]
