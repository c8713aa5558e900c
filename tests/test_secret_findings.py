"""The `secret` finding (issue 27): provider-format keys found by detect-secrets' plugins
and memtui's own (engine/scan), each at its line and span, in every layout's files; the
value never printed by `check` in any format; clean memory text gives none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from memtui.engine.scan.secrets import find_secrets
from memtui.engine.store import open_store

# Made-up values in each provider's format (none was ever issued), with the kind the
# finding names. Assembled from parts so no scanner of this repository trips on them.
KEYS = {
    "AWS access key": "AKIA" + "Q3VZ7LMN4XPR2TYB",
    "GitHub token": "ghp_" + "Xk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2",
    "OpenAI API key": "sk-proj-" + "Hq7Rt2Wz9Lm4Xc8Vb1Nk5Pj3Sd6Fg0Ty2Uo",
    "Anthropic API key": "sk-ant-api03-"
    + "Rf8Tg2Yh6Uj0Ik4Ol8Pz2Xc6Vb0Nm4Qw8Er2Ty6Ui0Op4As8Df2Gh-AA",
    "Slack token": "xoxb-" + "2048602941-1234567890123-Wq8Er4Ty2Ui6Op0As4Df8Gh2J",
    "Stripe key": "sk_live_" + "51Lq8Wz3Xc7Vb2Nm6Kj4Hg9Fd1Sa5Qw",
    "Google API key": "AIza" + "SyB8dK3mQ7vX2nL9pR4tW6yZ1cF5hJ0gE3u",
    "Twilio key": "SK" + "4f9a2c7e1b8d3f6a0c5e9b2d7f4a1c8e",
    "SendGrid API key": "SG."
    + "Qw8Er4Ty2Ui6Op0As4Df8G"
    + "."
    + "Hj2Kl6Zx0Cv4Bn8Mq2We6Rt0Yu4Io8Pa2Sd6Fg0Hj4K",
    "npm token": "npm_" + "Zx8Cv4Bn2Mq6We0Rt4Yu8Io2Pa6Sd0Fg4Hj8K",
    "JSON web token": "eyJhbGciOiJIUzI1NiJ9."
    + "eyJzdWIiOiJhZ2VudCJ9."
    + "c2lnbmF0dXJlLWhlcmUtMTIzNDU2",
    "Hugging Face token": "hf_" + "Qw8Er4Ty2Ui6Op0As4Df8Gh2Jk6Lz0Xc4Vb8",
}
PASSWORD = "Tr0ub4dor-" + "x9"


@pytest.mark.parametrize("kind", KEYS)
def test_each_provider_format_is_found_at_its_line_and_span(kind: str) -> None:
    value = KEYS[kind]
    text = f"# Notes\n\n- the {kind.lower()} for staging is {value} (rotate monthly)\n"
    (hit,) = find_secrets(text)
    line = text.split("\n")[hit.line - 1]
    assert (hit.line, hit.kind, line[hit.start : hit.stop]) == (3, kind, value)


def test_a_password_in_a_url_is_found_as_the_password_alone() -> None:
    text = f"db: postgres://app:{PASSWORD}@db.internal:5432/main\n"
    (hit,) = find_secrets(text)
    assert (hit.kind, text[hit.start : hit.stop]) == ("password in a URL", PASSWORD)


def test_a_private_key_block_is_a_hit_on_each_of_its_lines() -> None:
    block = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nAAAA\n"
    text = f"keys:\n{block}-----END OPENSSH PRIVATE KEY-----\nafter\n"
    hits = find_secrets(text)
    assert [(h.line, h.kind) for h in hits] == [(n, "private key") for n in (2, 3, 4, 5)]
    assert text.split("\n")[1][hits[0].start : hits[0].stop].startswith("-----BEGIN")


CLEAN = [
    "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the cache",  # a git SHA
    "session 123e4567-e89b-12d3-a456-426614174000 closed",  # a UUID
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==)",  # base64 image data
    "set OPENAI_API_KEY=sk-... in .env, never here",  # a placeholder
    "example: ANTHROPIC_API_KEY=sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXX",
    "connect with postgres://user:<password>@host/db or https://u:${PASS}@h",
    "the risk-adjusted return; task-management-and-planning-notes-for-this-quarter",
    "call `curl -H 'Authorization: Bearer $GITHUB_TOKEN' https://api.github.com`",
    "host key SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8 (ed25519)",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop",
    "spec: https://docs.google.com/document/d/1aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdEf/edit",
    "端口 5432，密码在 1Password 里，不写进记忆",
]


@pytest.mark.parametrize("text", CLEAN)
def test_clean_memory_text_holds_no_secret(text: str) -> None:
    assert find_secrets(text) == []


def _store_with_secrets(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """A workspace store: memory.md lists a topic file holding one key per line."""
    lines = [f"- {kind}: {value}" for kind, value in KEYS.items()]
    lines.append(f"- db: postgres://app:{PASSWORD}@db.internal/main")
    topic = "# Keys left here by mistake\n\n" + "\n".join(lines) + "\n"
    root = write_tree(
        tmp_path / "store",
        {
            "memory.md": "# 索引\n\n## 工作\n- 部署 → memory_deploy.md\n",
            "memory_deploy.md": topic,
        },
    )
    at = {value: n for n, value in enumerate(topic.split("\n"), 1)}
    return root, {v: next(n for line, n in at.items() if v in line) for v in KEYS.values()}


def test_check_finds_every_key_at_its_line_as_an_error_naming_its_kind(tmp_path: Path) -> None:
    root, line_of = _store_with_secrets(tmp_path)
    found = [f for f in open_store(root).findings if f.code == "secret"]
    assert {(f.file, f.line) for f in found} >= {("memory_deploy.md", n) for n in line_of.values()}
    assert all(f.level == "error" for f in found)
    for kind, value in KEYS.items():
        (f,) = [f for f in found if f.line == line_of[value]]
        assert kind.lower() in f.message.lower() and value not in f.message


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_no_output_of_check_holds_a_secrets_bytes(tmp_path: Path, fmt: str) -> None:
    root, _ = _store_with_secrets(tmp_path)
    res = run_cli("check", "--format", fmt, "--store", str(root))
    assert res.returncode == 1, res.stderr
    out = res.stdout + res.stderr
    assert "secret" in out
    for value in [*KEYS.values(), PASSWORD]:
        assert value not in out, value
    if fmt == "sarif":
        (rule,) = [
            r
            for r in json.loads(res.stdout)["runs"][0]["tool"]["driver"]["rules"]
            if r["id"] == "secret"
        ]
        assert "revoke" in rule["help"]["text"]


def test_a_private_key_block_is_one_finding_and_the_next_block_another(tmp_path: Path) -> None:
    key = "OPENSSH PRIVATE KEY-----\n"
    block = f"-----BEGIN {key}b3BlbnNzaC1rZXktdjEAAAA\n-----END {key}"
    topic = f"# Keys\n{block}{block}after\n"
    root = write_tree(
        tmp_path / "store",
        {"memory.md": "# 索引\n- 部署 → memory_deploy.md\n", "memory_deploy.md": topic},
    )
    found = [f for f in open_store(root).findings if f.code == "secret"]
    assert [(f.file, f.line) for f in found] == [("memory_deploy.md", 2), ("memory_deploy.md", 5)]


def test_a_secret_in_a_queued_write_is_found_in_its_record(tmp_path: Path) -> None:
    key = KEYS["GitHub token"]
    root = write_tree(
        tmp_path / "home",
        {
            "memories/MEMORY.md": "Prefers ruff\n§\nDeploys on Fridays",
            "pending/memory/0b0b0b01.json": json.dumps(
                {"action": "add", "target": "memory", "content": f"CI token {key}"}
            ),
        },
    )
    store = open_store(root)
    assert "hermes" in store.layouts
    (f,) = [f for f in store.findings if f.code == "secret"]
    assert (f.file, f.line, f.level) == ("pending/memory/0b0b0b01.json", 1, "error")
