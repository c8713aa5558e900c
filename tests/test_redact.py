"""Redacting a `secret` in place: only its value's characters change, a JSON file stays
JSON, the placeholder is flagged by nothing, no output prints the value; undone byte for
byte; refused with nothing written when the file changed since the check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine import open_store
from memtui.engine.fixes import plan, plan_all
from memtui.engine.ops.common import Refused
from memtui.engine.ops.undo import undo
from memtui.engine.scan.injection import find_injections
from memtui.engine.scan.redact import placeholder, secrets_in
from memtui.engine.scan.secrets import find_secrets, kinds
from tests.conftest import write_tree
from tests.planted_stores import AWS, GH, HERMES_QUEUED, QUEUED, STORES, finding_at, make, memory
from tests.verb_calls import memtui


@pytest.mark.parametrize("layout", sorted(STORES))
def test_redact_changes_only_the_value_and_undo_puts_it_back(tmp_path: Path, layout: str) -> None:
    root = make(tmp_path, layout)
    rel, line = STORES[layout][1]
    before, raw = memory(root), (root / rel).read_bytes()
    store = open_store(str(root))
    fix = plan(store, finding_at(root, "secret", rel, line))

    fix.run(False)
    got = (root / rel).read_bytes()
    redacted = {GH: "GitHub token", AWS: "AWS access key"}  # every secret of the line
    for value, kind in redacted.items():
        raw = raw.replace(value.encode(), placeholder(kind).encode())
    assert got == raw
    after = open_store(str(root))
    assert not [
        f for f in after.findings if f.code == "secret" and f.file == rel and f.line == line
    ]
    assert GH.encode() not in got

    undo(str(root))
    assert memory(root) == before


def test_the_placeholder_of_every_kind_is_flagged_by_no_detector() -> None:
    for kind in kinds():
        text = f"key: {placeholder(kind)}\n"
        assert find_secrets(text) == [] and find_injections(text) == [], kind


def test_a_queued_write_stays_valid_json_once_redacted(tmp_path: Path) -> None:
    root = make(tmp_path, "hermes")
    fix = plan(open_store(str(root)), finding_at(root, "secret", HERMES_QUEUED, 1))
    fix.run(False)
    record = json.loads((root / HERMES_QUEUED).read_text(encoding="utf-8"))
    assert record["payload"]["content"] == "the deploy key is [REDACTED:GitHub token]"
    assert {k: v for k, v in record.items() if k != "payload"} == {
        k: v for k, v in QUEUED.items() if k != "payload"
    }


def test_two_secrets_on_a_line_go_together_and_the_second_finding_is_covered(
    tmp_path: Path,
) -> None:
    root = make(tmp_path, "workspace")
    store = open_store(str(root))
    found = [f for f in store.findings if f.code == "secret"]
    assert len(found) == 2  # the GitHub token and the AWS key of line 3
    fixes = plan_all(store, found)
    assert len(fixes) == 1 and fixes[0].covers == (found[1],)
    fixes[0].run(False)
    text = (root / "memory_deploy.md").read_bytes().decode("utf-8")
    line = "Token: [REDACTED:GitHub token], key [REDACTED:AWS access key]"
    assert text == f"\ufeff# Deploy\n\n{line}\nno final newline"


def test_a_private_key_block_is_redacted_whole(tmp_path: Path) -> None:
    key = (
        "-----BEGIN RSA PRIVATE KEY-----\r\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2mZ8c\r\n"
        "q8JZbX9w2Lr6Y5o0K3d5nVvQ0nYb1s2T4u6v8w0\r\n-----END RSA PRIVATE KEY-----"
    )
    files = dict(STORES["claude"][0])
    files["deploy.md"] = f"---\nname: d\ndescription: d\ntype: project\n---\nkey:\n{key}\nafter\n"
    root = write_tree(tmp_path / "s", files)
    store = open_store(str(root))
    assert [s.kind for s in secrets_in(files["deploy.md"])] == ["private key"]
    plan(store, finding_at(root, "secret", "deploy.md", 7)).run(False)
    text = (root / "deploy.md").read_text(encoding="utf-8")
    assert (
        text
        == "---\nname: d\ndescription: d\ntype: project\n---\nkey:\n[REDACTED:private key]\nafter\n"
    )


def test_redact_is_refused_when_the_agent_wrote_the_file_since_the_check(tmp_path: Path) -> None:
    root = make(tmp_path, "claude")
    store = open_store(str(root))
    fix = plan(store, finding_at(root, "secret", "deploy.md", 6))
    with (root / "deploy.md").open("ab") as f:
        f.write(b"the agent appended this\n")
    before = memory(root)
    with pytest.raises(Refused, match="changed since it was checked"):
        fix.run(False)
    assert memory(root) == before and not (root / ".history").exists()


def test_the_cli_never_prints_the_secret(tmp_path: Path) -> None:
    root = make(tmp_path, "hermes")
    shown = [
        memtui(root, "check"),
        memtui(root, "check", "--json"),
        memtui(root, "fix"),
        memtui(root, "fix", "secret"),  # the dry run's diff
        memtui(root, "fix", "secret", "--json"),
        memtui(root, "fix", "secret", "--apply"),
        memtui(root, "log", "--json"),
    ]
    for got in shown:
        assert got.returncode in (0, 1), got.stderr
        assert GH not in got.stdout + got.stderr
    assert "[REDACTED:GitHub token]" in shown[3].stdout and "********" in shown[3].stdout
    assert GH.encode() not in (root / ".history" / "audit.jsonl").read_bytes()
