"""Exit codes and messages for what a user can get wrong or a store can hold (SPEC §6):
another file's snapshot given to rollback, ids of a bulk verb partly refused, files
nested 100,000 deep, numbers of 5,000 digits. Each is exit 1 (or 2 for a wrong call)
with a message naming the file, never "internal error", and nothing is changed."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from conftest import run_cli, tree_digest, write_tree

from memtui.cli import main
from memtui.engine import open_store
from tests.helpers import ENV, INDEX_TXT, TODAY_DATE, candidate

FACTS = "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n"
EVENTS = (
    "### [E001] 2026-11-20 · 约定\n**类型**：约定\n**状态**：待跟进\n**到期日**：2026-12-01\n\n"
    "### [E000] 2026-11-29T21:40 · last_active\n"
)
GOOD = ("20261129-0001", "20261129-0002")
NO_EVIDENCE = "20261129-0003"
BIG = "9" * 5000
DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000
LOCK = ".memory.lock"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files: dict[str, str | bytes] = {
        "index.txt": INDEX_TXT,
        "facts.md": FACTS,
        "memory_stats.json": '{"facts": 1}\n',
        "memory/events.md": EVENTS,
    }
    for cid in GOOD:
        files[f"pending/{cid}.md"] = candidate(cid, body=f"- fact from {cid}\n")
    files[f"pending/{NO_EVIDENCE}.md"] = candidate(NO_EVIDENCE, evidence=None)
    return write_tree(tmp_path / "s", files)


def cli(root: Path, *args: str):
    result = run_cli(*args, "--store", str(root), env=ENV)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    return result


def unchanged_but_lock(root: Path, before: dict[str, str]) -> None:
    """A refusal under the lock may leave the (empty) lock file: it is never deleted."""
    assert {k: v for k, v in tree_digest(root).items() if k != LOCK} == before


# --- rollback and diff take only the file's own snapshots -----------------------------


def test_rollback_refuses_another_files_snapshot(root):
    assert cli(root, "accept", GOOD[0]).returncode == 0  # snapshots facts.md, stats, index
    (other,) = (root / ".history" / "memory_stats.json").iterdir()
    own = next((root / ".history" / "facts.md").iterdir())
    before = tree_digest(root)
    for given in (f".history/memory_stats.json/{other.name}", str(other)):
        result = cli(root, "rollback", "facts.md", "--to", given)
        assert result.returncode == 1
        assert f"{given} is not a snapshot of facts.md" in result.stderr
        assert "nothing changed" in result.stderr
        assert tree_digest(root) == before
        assert cli(root, "diff", "facts.md", given).returncode == 1
    for given in (own.name, f".history/facts.md/{own.name}", str(own)):  # its own: fine
        result = cli(root, "rollback", "facts.md", "--to", given, "--dry-run")
        assert result.returncode == 0, result.stderr


# --- a bulk verb with refused ids -----------------------------------------------------


def test_accept_with_some_ids_refused_exits_1_listing_both(root):
    result = cli(root, "accept", *GOOD, NO_EVIDENCE, "no-such-id")
    assert result.returncode == 1
    for cid in GOOD:  # applied: listed on stdout, and done
        assert cid in result.stdout
        assert (root / "archive/pending" / f"{cid}.md").exists()
    assert f"refused {NO_EVIDENCE}: has no evidence" in result.stderr
    assert "refused no-such-id: is not a pending item of this store" in result.stderr
    assert "2 refused" in result.stderr
    assert NO_EVIDENCE not in result.stdout and "no-such-id" not in result.stdout
    assert (root / "pending" / f"{NO_EVIDENCE}.md").exists()


def test_reject_with_some_ids_refused_exits_1_and_json_stays_json(root):
    result = cli(root, "reject", GOOD[0], "no-such-id", "--reason", "duplicate", "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["receipts"][0]["details"]["rejected"] == [GOOD[0]]
    assert "refused no-such-id" in result.stderr


def test_every_id_refused_exits_1_and_changes_nothing(root):
    before = tree_digest(root)
    result = cli(root, "accept", NO_EVIDENCE, "no-such-id")
    assert result.returncode == 1 and "2 refused" in result.stderr
    unchanged_but_lock(root, before)


# --- what a store file can hold: findings on the read side, refusals on the write side --


@pytest.mark.parametrize(
    ("rel", "text", "code", "verb"),
    [
        ("memory-meta.json", DEEP_ARRAY, "json-invalid", ("accept", GOOD[0])),
        ("memory_stats.json", DEEP_OBJECT, "json-invalid", ("accept", GOOD[0])),
        ("maintenance-report.json", DEEP_OBJECT, "json-invalid", ("maintain", "--apply")),
        ("file_access_stats.json", DEEP_ARRAY, "json-invalid", None),
        ("file_access_stats.json", f'{{"facts.md": {{"reads": {BIG}}}}}', "json-invalid", None),
        (
            f"pending/{GOOD[0]}.md",
            candidate(GOOD[0]).replace("---\n", f"---\ndeep: {DEEP_ARRAY}\n", 1),
            "pending-bad-frontmatter",
            ("accept", GOOD[0]),
        ),
        (
            f"pending/{GOOD[0]}.md",
            candidate(GOOD[0]).replace("source_seqs: [12, 13]", f"source_seqs: [{BIG}]"),
            "pending-bad-frontmatter",
            ("accept", GOOD[0]),
        ),
        ("memtui.toml", f"a = {DEEP_ARRAY}\n", "config-invalid", None),
        ("memtui.toml", f"[thresholds]\nmax_file_bytes = {BIG}\n", "config-invalid", None),
    ],
    ids=[
        "deep-meta",
        "deep-stats",
        "deep-report",
        "deep-heat",
        "huge-heat",
        "deep-front-matter",
        "huge-front-matter",
        "deep-toml",
        "huge-toml",
    ],
)
def test_nested_or_huge_content_is_a_finding_and_a_clean_refusal(root, rel, text, code, verb):
    (root / rel).write_text(text)
    before = tree_digest(root)
    checked = cli(root, "check", "--json")
    assert checked.returncode == 1 if code != "config-invalid" else checked.returncode in (0, 1)
    found = {(f["code"], f["file"]): f["message"] for f in json.loads(checked.stdout)["findings"]}
    assert (code, rel) in found
    assert "sys.set_int_max_str_digits" not in found[(code, rel)]
    for args in (("list",), ("pending",), ("events",)):
        assert cli(root, *args).returncode == 0
    if verb:
        result = cli(root, *verb)
        named = f"candidate {GOOD[0]}" if rel.startswith("pending/") else rel
        assert result.returncode == 1 and named in result.stderr
        assert "sys.set_int_max_str_digits" not in result.stderr  # words, not Python's hint
    unchanged_but_lock(root, before)


def test_five_thousand_digit_numbers_in_companion_files(root):
    (root / "memory/events.md").write_text(
        f"### [E{BIG}] 2026-11-21 · 情绪事件\n**情绪强度**：{BIG}\n\n" + EVENTS
    )
    (root / "MEMORY.md").write_text(f"## 【最近未解决事项】\n- [E{BIG}] 旧的\n")
    (root / ".mood_state_aux").write_text(f"consecutive_g4c_count: {BIG}\n")
    before = tree_digest(root)
    store = open_store(root, TODAY_DATE)
    codes = {(f.code, f.line) for f in store.findings}
    assert ("event-missing-id", 1) in codes and ("event-stars", 1) in codes
    assert ("unresolved-stale", 1) in codes
    for args in (("check",), ("events",), ("events", "--json"), ("mood",), ("list",)):
        assert cli(root, *args).returncode in (0, 1), args
    assert "⭐×" in cli(root, "events").stdout  # a count, not 5,000 stars
    assert tree_digest(root) == before


@pytest.mark.parametrize("ref", [f"E{BIG}", f"event:E{BIG}", f"L{BIG}", f"E001#{BIG}"])
def test_five_thousand_digit_event_id_on_the_command_line(root, ref):
    before = tree_digest(root)
    for args in (("done", ref), ("show", ref), ("archive", ref)):
        result = cli(root, *args)
        assert result.returncode == 1, args
        assert "5,000-digit number names no event" in result.stderr
    assert tree_digest(root) == before


# --- the last resort: an OS error in words, naming the file ----------------------------


def test_an_os_error_reaching_main_is_named_in_plain_words(root, monkeypatch, capsys):
    from memtui.layouts.dsh import ops as dsh

    def read_only(*_args, **_kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(root / "facts.md"))

    monkeypatch.setattr(dsh, "accept", read_only)
    assert main(["accept", GOOD[0], "--store", str(root)]) == 1
    err = capsys.readouterr().err
    assert f"{root / 'facts.md'}: the file system is read-only; nothing was changed" in err
    assert "internal error" not in err


@pytest.mark.parametrize("verb", [["accept"], ["reject", "--reason", "no"]])
def test_an_unknown_id_on_a_store_without_dsh_is_no_pending_item(tmp_path: Path, verb) -> None:
    claude = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "- [Tea](tea.md) — green tea\n",
            "tea.md": "---\nname: tea\ndescription: green tea\ntype: user\n---\nTea.\n",
        },
    )
    before = tree_digest(claude)
    got = run_cli(verb[0], "foo", *verb[1:], "--store", str(claude))
    assert got.returncode == 1, got.stderr
    assert "foo is not a pending item of this store (see `memtui pending`)" in got.stderr
    assert "no longer" not in got.stderr and "Traceback" not in got.stderr
    unchanged_but_lock(claude, before)
