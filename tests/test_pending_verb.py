"""`memtui pending` with nothing to list: it says which of the store's approval queues
are empty (dsh's candidates, Hermes' pending/memory/, OpenClaw's Memory Audit), or that
the store has no queue at all; never that a store with a queue "has no dsh layout"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write_tree
from tests.hostile_calls import cli

OPENCLAW = {"AGENTS.md": "# Agents\nBe brief.\n", "SOUL.md": "# Soul\nCurious.\n"}
HERMES = {"memories/MEMORY.md": "The user deploys on Fridays."}
DSH = {"index.txt": "# index\n", "facts.md": "## PYTHON_ENV\n- use a venv\n"}
CLAUDE = {
    "MEMORY.md": "- [user_role.md](user_role.md) — who the user is\n",
    "user_role.md": "---\nname: role\ndescription: the user's role\ntype: user\n---\nA dev.\n",
}


@pytest.mark.parametrize(
    ("files", "said"),
    [
        (OPENCLAW, "nothing to approve — the store's queue is empty (openclaw)"),
        (
            {**OPENCLAW, "memory/audit/suggestions.jsonl": ""},
            "nothing to approve — the store's queue is empty (openclaw)",
        ),
        (
            {**HERMES, "pending/memory/.keep": ""},
            "nothing to approve — the store's queue is empty (hermes)",
        ),
        (DSH, "nothing to approve — the store's queue is empty (dsh)"),
        ({**DSH, **HERMES}, "nothing to approve — the store's queues are empty (dsh, hermes)"),
        (CLAUDE, "this store has no approval queue (those of the dsh, hermes, openclaw layouts)"),
    ],
    ids=["openclaw", "openclaw-empty-log", "hermes", "dsh", "dsh+hermes", "claude"],
)
def test_pending_says_the_queues_are_empty(tmp_path: Path, capsys, files, said) -> None:
    root = write_tree(tmp_path / "store", files)
    code, out, err = cli(capsys, "--store", str(root), "pending")
    assert (code, out, err) == (0, said + "\n", "")


def _record(status: str, at: str) -> str:
    """One line of OpenClaw's log (memory-audit.ts appendSuggestion / appendStatus)."""
    return json.dumps(
        {
            "id": "ma_1",
            "status": status,
            "action": "add",
            "text": "likes tea",
            "target": {"kind": "agent-memory", "path": "MEMORY.md"},
            "updatedAt": at,
        }
    )


def test_an_openclaw_queue_whose_items_are_all_settled_says_it_is_empty(
    tmp_path: Path, capsys
) -> None:
    staged = _record("pending", "2026-11-28T10:00:00.000Z")
    settled = _record("applied", "2026-11-29T10:00:00.000Z")
    root = write_tree(tmp_path / "store", {**OPENCLAW, "memory/audit/suggestions.jsonl": staged})
    code, out, _ = cli(capsys, "--store", str(root), "pending")
    assert code == 0 and out.startswith("openclaw-audit:ma_1")  # listed while pending
    (root / "memory/audit/suggestions.jsonl").write_text(f"{staged}\n{settled}\n")
    code, out, err = cli(capsys, "--store", str(root), "pending")
    assert (code, out, err) == (
        0,
        "nothing to approve — the store's queue is empty (openclaw)\n",
        "",
    )
    code, out, _ = cli(capsys, "--store", str(root), "pending", "--json")
    assert (json.loads(out)["queue"], json.loads(out)["pending"]) == ([], [])


def test_dsh_filters_that_match_nothing_say_so(tmp_path: Path, capsys) -> None:
    root = write_tree(tmp_path / "store", DSH)
    code, out, err = cli(capsys, "--store", str(root), "pending", "--type", "sop")
    assert (code, out, err) == (
        0,
        "nothing to approve — no dsh candidate matches --type/--target\n",
        "",
    )
