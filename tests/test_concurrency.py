"""memtui curating while the companion agent keeps writing: nothing either side writes is lost.

A REAL bash agent (the seed 003 template, run by tests/workers/seed_agent.py: one bash
process per event, `flock -x -w 10` on .memory.lock) appends ~300 events to
memory/events.md, while memtui runs transactions in a loop (tests/workers/memtui_loop.py):
flipping open events' **状态** by exact string replace, adding profile items, editing a
scratch file and rolling it back from its own snapshot. Once in-process, once as two
worker processes at the same time.

The template is the seed's, with base-10 arithmetic `$((10#${LAST_N:-0} + 1))` so that
numbering keeps working past E008 (the verbatim `$((${LAST_N:-0} + 1))` reads "008" as
bad octal, see tests/test_seed_template.py), and a distinct **内容** per run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from memtui.engine.store import open_store
from memtui.engine.write import journal
from tests.conftest import write_tree
from tests.helpers import needs_seed_tools
from tests.workers.memtui_loop import run_loop
from tests.workers.seed_agent import run_agent

REPO = Path(__file__).resolve().parents[1]
WORKERS = REPO / "tests" / "workers"
ENV = {**os.environ, "PYTHONPATH": str(REPO), "LC_ALL": "C.UTF-8"}
ENV.pop("MEMTUI_CRASH_AT", None)
HANG = 120  # seconds; a guard against hangs only

SEEDED = 10  # events the agent wrote before memtui starts
AGENT_RUNS = 300
HEADER = "# 事件记录\n"
PROFILE = "## 称呼\n- 小林\n\n## 备忘\n- 喜欢猫\n"
BLOCK = re.compile(
    r"\n### \[E(?P<num>\d{3})\] \d{4}-\d{2}-\d{2} · TYPE\n"
    r"\*\*类型\*\*：TYPE\n\*\*内容\*\*：(?P<content>[^\n]*)\n\*\*后续\*\*：FOLLOWUP\n"
    r"\*\*状态\*\*：(?P<status>待跟进|已完成)\n"
    r"\n### \[E000\] \d{4}-\d{2}-\d{2}T\d{2}:\d{2} · last_active\n"
)
TORN = {"event-duplicate-id", "event-missing-id", "unreadable", "txn-interrupted"}


pytestmark = needs_seed_tools


def make_store(tmp_path: Path, tags: list[str]) -> Path:
    root = write_tree(
        tmp_path / "store",
        {
            "memory/events.md": HEADER,
            "memory/user_profile.md": PROFILE,
            "memory/persona.md": "【在对话中形成的新细节】\n• [2026-11-01] 喜欢猫\n",
            **{f"memory/scratch-{tag}.md": f"scratch of {tag}\n" for tag in tags},
        },
    )
    assert run_agent(str(root), SEEDED, "seed") == []
    return root


def start_agent(root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKERS / "seed_agent.py"), str(root), str(AGENT_RUNS), "agent-run"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> str:
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"worker hung: {err}") from None
    assert proc.returncode == 0, err
    return out


def leftovers(root: Path) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if ".memtui-" in p.name or p.name.endswith((".tmp", ".part"))
    )


def check_store(root: Path, results: dict[str, dict]) -> None:
    """Everything the agent and every memtui worker wrote is there, once, and untorn."""
    for tag, got in results.items():
        assert got["conflicts"] == [], (tag, got["conflicts"])

    # events.md is the header, then whole agent blocks and nothing else: none torn
    text = (root / "memory/events.md").read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    assert HEADER + "".join(m.group(0) for m in blocks) == text
    total = SEEDED + AGENT_RUNS
    assert [int(m.group("num")) for m in blocks] == list(range(1, total + 1))
    expected = [f"seed-{i}" for i in range(1, SEEDED + 1)]
    expected += [f"agent-run-{i}" for i in range(1, AGENT_RUNS + 1)]
    assert [m.group("content") for m in blocks] == expected  # each event exactly once

    # every memtui flip is there, and nothing else was flipped
    flipped = [label for got in results.values() for label in got["flipped"]]
    assert len(flipped) == len(set(flipped))  # nobody flipped an event twice
    done = {f"E{m.group('num')}" for m in blocks if m.group("status") == "已完成"}
    assert done == set(flipped)
    assert flipped, "memtui flipped no event at all"
    assert any(int(label[1:]) > SEEDED for label in flipped), (
        "no flip of an event written meanwhile"
    )

    # every profile item, once, after the original text
    profile = (root / "memory/user_profile.md").read_text(encoding="utf-8")
    assert profile.startswith(PROFILE)
    items = profile[len(PROFILE) :].splitlines()
    assert sorted(items) == sorted(item for got in results.values() for item in got["items"])
    assert len(items) == len(set(items))

    # the edit-then-rollback pairs left each scratch file as it was, with the history kept
    for tag, got in results.items():
        assert got["rollbacks"] > 0
        scratch = root / f"memory/scratch-{tag}.md"
        assert scratch.read_text(encoding="utf-8") == f"scratch of {tag}\n"
        kept = list((root / ".history/memory" / f"scratch-{tag}.md").iterdir())
        assert len(kept) == 2 * got["rollbacks"]

    # one audit line per memtui commit (the agent writes none)
    lines = (root / ".history/audit.jsonl").read_text(encoding="utf-8").splitlines()
    audited = [json.loads(line)["txid"] for line in lines]
    commits = [txid for got in results.values() for txid in got["txids"]]
    assert sorted(audited) == sorted(commits)
    assert len(set(audited)) == len(audited)

    assert journal.pending(str(root)) == []
    assert leftovers(root) == []
    store = open_store(root)
    assert [f for f in store.findings if f.code in TORN] == []
    assert store.data.get("companion") is not None
    assert len([e for e in store.data.get("companion").events if not e.is_sentinel]) == total


def test_agent_and_memtui_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MEMTUI_WHO", "memtui-in-process")
    root = make_store(tmp_path, ["main"])
    agent = start_agent(root)
    try:
        got = run_loop(str(root), "main", 50, AGENT_RUNS, "agent-run")
    finally:
        finish(agent)
    check_store(root, {"main": got})
    assert len(got["txids"]) == 50 + 2 * 10
    audit = (root / ".history/audit.jsonl").read_text(encoding="utf-8").splitlines()
    assert {json.loads(line)["who"] for line in audit} == {"memtui-in-process"}


def test_agent_and_two_memtui_processes(tmp_path: Path):
    tags = ["w1", "w2"]
    root = make_store(tmp_path, tags)
    agent = start_agent(root)
    workers = {
        tag: subprocess.Popen(
            [
                sys.executable,
                str(WORKERS / "memtui_loop.py"),
                str(root),
                tag,
                "50",
                str(AGENT_RUNS),
                "agent-run",
            ],
            env={**ENV, "MEMTUI_WHO": f"memtui-{tag}"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in tags
    }
    try:
        results = {tag: json.loads(finish(proc)) for tag, proc in workers.items()}
    finally:
        for proc in workers.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        finish(agent)
    check_store(root, results)
    for got in results.values():
        assert len(got["txids"]) == 50 + 2 * 10
    audit = [json.loads(line) for line in (root / ".history/audit.jsonl").open(encoding="utf-8")]
    by_who = {tag: [a["txid"] for a in audit if a["who"] == f"memtui-{tag}"] for tag in tags}
    assert {tag: sorted(txids) for tag, txids in by_who.items()} == {
        tag: sorted(got["txids"]) for tag, got in results.items()
    }
