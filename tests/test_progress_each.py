"""A change made of one change per item (the app's archive of a selection) as one bulk
change: the total first, done after each, and a stop asked between two leaves whole
changes done and the rest untouched (write/progress.each)."""

from __future__ import annotations

from memtui.engine.write import progress
from memtui.engine.write.transaction import Receipt


def _receipt(item: str) -> Receipt:
    return Receipt(f"tx-{item}", "archive", (), False, {"summary": item})


def test_each_tells_the_total_first_and_how_many_are_done_after_each():
    seen: list[progress.Progress] = []
    with progress.reporting(seen.append):
        got = progress.each(["a", "b", "c"], _receipt)
    assert [r.txid for r in got] == ["tx-a", "tx-b", "tx-c"]
    assert [(p.done, p.total) for p in seen] == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert not any("stopped" in r.details for r in got)


def test_a_stop_asked_ends_it_between_two_and_says_so_in_the_last_receipt():
    changed: list[str] = []

    def change(item: str) -> Receipt:
        changed.append(item)
        return _receipt(item)

    seen: list[progress.Progress] = []
    with progress.reporting(seen.append, stop=lambda: seen[-1].done >= 2):
        got = progress.each(["a", "b", "c", "d"], change)
    assert changed == ["a", "b"]  # the rest never started
    assert got[-1].details["stopped"] == {"done": 2, "left": 2}


def test_a_stop_asked_before_the_first_still_makes_one():
    """Asked before anything ran (a stale ^x): the first change is whole, as a chunk is."""
    with progress.reporting(lambda _p: None, stop=lambda: True):
        got = progress.each(["a", "b"], _receipt)
    assert [r.txid for r in got] == ["tx-a"]
    assert got[0].details["stopped"] == {"done": 1, "left": 1}
