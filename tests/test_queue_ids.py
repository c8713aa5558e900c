"""A queued item named as its agent names it (SPEC §6): the bare id Hermes' `/memory
pending` shows (`a1b2c3d4`) or an OpenClaw suggestion's (`ma_add`) works for accept,
reject and show, as a dsh candidate's bare id always has; an id two queues of one root
share is refused with both full ids listed, and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import tree_digest, write_tree
from tests.helpers import candidate
from tests.hostile_calls import cli


def hermes_record(rid: str, content: str) -> str:
    """write_approval.stage_write's record of a staged add."""
    payload = {"action": "add", "target": "memory", "content": content, "old_text": None}
    record = {"id": rid, "subsystem": "memory", "action": "add", "summary": "add"}
    return json.dumps({**record, "origin": "foreground", "created_at": 1764500000.0,
                       "payload": payload})  # fmt: skip


HERMES = {
    "memories/MEMORY.md": "Project alpha uses uv",
    "pending/memory/a1b2c3d4.json": hermes_record("a1b2c3d4", "Prefers ruff"),
    "pending/memory/b2c3d4e5.json": hermes_record("b2c3d4e5", "Likes tabs"),
}
AT = "2026-11-28T06:10:00.000Z"
SUGGESTION = {"id": "ma_add", "status": "pending", "action": "add", "text": "- likes tea",
              "target": {"kind": "agent-memory", "path": "MEMORY.md", "workspaceDir": "/w"},
              "createdAt": AT, "updatedAt": AT}  # fmt: skip
OPENCLAW = {
    "AGENTS.md": "# AGENTS.md\n",
    "MEMORY.md": "# MEMORY.md\n",
    "memory/audit/suggestions.jsonl": json.dumps(SUGGESTION) + "\n",
}
DSH = {"index.txt": "# index\n", "facts.md": "## PYTHON_ENV\n- use a venv\n"}


def run(capsys, root: Path, *argv: str) -> tuple[int, str, str]:
    return cli(capsys, "--store", str(root), *argv)


def test_hermes_bare_ids_accept_reject_and_show(tmp_path: Path, capsys) -> None:
    root = write_tree(tmp_path / ".hermes", HERMES)
    code, out, _ = run(capsys, root, "show", "a1b2c3d4")
    assert code == 0 and out.startswith("# hermes-pending:a1b2c3d4 ")
    assert run(capsys, root, "accept", "a1b2c3d4")[0] == 0
    assert run(capsys, root, "reject", "b2c3d4e5", "--reason", "no tabs")[0] == 0
    assert (root / "memories/MEMORY.md").read_text() == "Project alpha uses uv\n§\nPrefers ruff"
    assert list((root / "pending/memory").glob("*.json")) == []


def test_an_openclaw_suggestion_by_its_bare_id(tmp_path: Path, capsys) -> None:
    root = write_tree(tmp_path / "ws", OPENCLAW)
    code, out, _ = run(capsys, root, "show", "ma_add")
    assert code == 0 and out.startswith("# openclaw-audit:ma_add ")
    code, _, err = run(capsys, root, "accept", "ma_add")
    assert code == 0, err
    assert (root / "MEMORY.md").read_text() == "# MEMORY.md\n\n- likes tea\n"


def test_an_id_two_queues_share_is_refused_naming_both(tmp_path: Path, capsys) -> None:
    root = write_tree(
        tmp_path / "both",
        {
            **DSH,
            **HERMES,
            "pending/a1b2c3d4.md": candidate("a1b2c3d4"),
            "pending/20261129-0007.md": candidate("20261129-0007"),
        },
    )
    before = tree_digest(root)
    for argv in (("accept", "a1b2c3d4"), ("reject", "a1b2c3d4", "--reason", "x"),
                 ("show", "a1b2c3d4")):  # fmt: skip
        code, out, err = run(capsys, root, *argv)
        assert code == 1 and out == "", (argv, err)
        assert "pending:a1b2c3d4, hermes-pending:a1b2c3d4" in err and "full id" in err, err
    assert tree_digest(root) == before
    assert run(capsys, root, "accept", "hermes-pending:a1b2c3d4")[0] == 0  # the full id works
    assert run(capsys, root, "accept", "20261129-0007")[0] == 0  # a candidate's, held alone
    assert "- activate the venv" in (root / "facts.md").read_text()
