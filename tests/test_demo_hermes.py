"""The demo's Hermes home (hermes/, beside the seed layouts): MEMORY.md near its limit,
a queue with one of every refusal, writes that apply, and a read-only skill."""

from __future__ import annotations

from pathlib import Path

from memtui.engine.queue import items
from memtui.engine.store import open_store
from tests.conftest import run_cli
from tests.ui_helpers import demo_store


def test_the_demo_hermes_home_has_every_refusal_and_writes_that_apply(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")
    store = open_store(root / "hermes")

    assert store.layouts == ("hermes",)
    codes = sorted(f.code for f in store.findings)
    assert codes == [
        "char-limit",
        "entry-injection",
        "pending-bad-record",
        "pending-over-limit",
        "pending-stale",
        "pending-stale",
    ]
    queue = items(store)
    problems = " ".join(i.problem or "" for i in queue)
    for kind in ("stale", "ambiguous", "over the limit", "threat scan", "not JSON"):
        assert kind in problems
    assert len([i for i in queue if i.approvable]) == 4
    assert [i.id for i in queue if i.read_only] == ["hermes-pending:skills/b7d41e09"]
    assert "hermes" not in open_store(root).layouts


def test_every_approvable_demo_write_applies(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo") / "hermes"
    ids = [i.id for i in items(open_store(root)) if i.approvable]

    result = run_cli("accept", *ids, "--store", str(root))

    assert result.returncode == 0, result.stderr
    assert not [i for i in items(open_store(root)) if i.approvable]
