"""The command line contract (SPEC §6), through the real `python -m memtui`."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TODAY, run_cli, tree_digest, write_tree

from memtui import __version__
from memtui.cli import main
from tests.helpers import CANDIDATE, DSH_INDEX, ENV, INDEX_TXT, MOOD, REPO

EVENTS = """\
# 事件记录

### [E001] 2026-11-20 · 约定
**类型**：约定
**内容**：周末一起去看展
**情绪强度**：⭐⭐⭐
**状态**：待跟进
**到期日**：2026-12-01

### [E002] 2026-11-25 · 情绪事件
**类型**：情绪事件
**内容**：项目上线很开心
**情绪强度**：⭐⭐⭐⭐
**状态**：已完成

### [E003] 2026-11-10 · 约定
**类型**：约定
**内容**：答应提醒他续签护照
**情绪强度**：⭐⭐
**状态**：待跟进
**到期日**：2026-11-20

### [E000] 2026-11-29T21:40 · last_active
"""

SUMMARY = """\
# MEMORY

## 【最近未解决事项】
- [E003] 约定 · 到期 2026-11-20 · 答应提醒他续签护照
- [E001] 约定 · 到期 2026-12-01 · 周末一起去看展
"""

FACTS = """\
# Facts

## PYTHON_ENV
- the venv lives in /opt/app/.venv

## HOSTS
- Homelab rack is in the closet
- the homelab UPS lasts 20 min
- Été: the cabin router is 192.168.8.1
"""

WITHOUT_EVIDENCE = """\
---
id: 20261129-0008
entry_type: sop
target: backup
source_session: s-1f3a
created_at: 2026-11-29T22:00:00+08:00
---
# Backup
1. run restic
"""

COURSE = """\
# 课程笔记
- 第三章学完了
- Rust 所有权：借用检查器很严格
- 下次复习借用规则
"""

STORE: dict[str, str | bytes] = {
    "memory.md": "# 记忆索引\n\n## 学习\n- 课程进度 → memory_course.md\n",
    "user.md": "# 用户\n\n## 称呼\n- 老王\n",
    "memory_course.md": COURSE,
    "memory/events.md": EVENTS,
    "memory/mood_state.md": MOOD,
    ".mood_state_aux": "last_decay_written_at: 2026-11-28T20:00\nconsecutive_g4c_count: 2\n",
    "MEMORY.md": SUMMARY,
    "index.txt": INDEX_TXT,
    "facts.md": FACTS,
    "sops/deploy.md": "# Deploy\n1. git pull\n2. systemctl restart app\n",
    "pending/20261129-0007.md": CANDIDATE,
    "pending/20261129-0008.md": WITHOUT_EVIDENCE,
}

DSH_ONLY: dict[str, str | bytes] = {
    "index.txt": "[RULES] r\n# --- auto ---\n[FACTS] HOME_FACTS\n# --- end auto ---\n",
    "facts.md": "## HOME_FACTS\n- this store lives in ~/.dsh/memory\n",
}


def cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None):
    res = run_cli(*args, cwd=cwd, env={**ENV, **(env or {})})
    assert "Traceback" not in res.stdout + res.stderr, res.stderr
    return res


def fast(capsys, *args: str, today: str = TODAY):
    """The same CLI in-process (main's return value is the exit status): for quick checks."""
    capsys.readouterr()
    old = os.environ.get("MEMTUI_TODAY")
    os.environ["MEMTUI_TODAY"] = today
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    finally:
        if old is None:
            del os.environ["MEMTUI_TODAY"]
        else:
            os.environ["MEMTUI_TODAY"] = old
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    return subprocess.CompletedProcess(args, code, out, err)


def one_json(text: str):
    """Exactly one JSON value and nothing but whitespace after it."""
    data, end = json.JSONDecoder().raw_decode(text)
    assert text[end:].strip() == "", text[end:]
    return data


@pytest.fixture
def root(store) -> Path:
    return store(STORE)


# --- which store ---------------------------------------------------------------


def test_store_option(root):
    res = cli("check", "--json", "--store", str(root))
    assert res.returncode == 0, res.stderr
    assert one_json(res.stdout)["root"] == os.path.realpath(root)


def test_store_option_before_the_verb(root):
    after = cli("check", "--json", "--store", str(root))
    before = cli("--store", str(root), "check", "--json")
    assert before.returncode == after.returncode == 0
    assert one_json(before.stdout) == one_json(after.stdout)
    listed = cli("--store", str(root), "list", "--layout", "dsh")
    assert listed.returncode == 0 and "fact:HOSTS" in listed.stdout


def test_store_option_with_equals_sign_before_the_verb(root):
    res = cli(f"--store={root}", "check", "--json")
    assert res.returncode == 0, res.stderr
    assert one_json(res.stdout)["root"] == os.path.realpath(root)


def test_current_folder_is_used_when_it_is_a_store(root, tmp_path):
    home = write_tree(tmp_path / "home", {f".dsh/memory/{k}": v for k, v in DSH_ONLY.items()})
    res = cli("check", "--json", cwd=root, env={"HOME": str(home)})
    assert res.returncode == 0, res.stderr
    assert one_json(res.stdout)["root"] == os.path.realpath(root)


def test_home_dsh_memory_is_used_otherwise(tmp_path):
    home = write_tree(tmp_path / "home", {f".dsh/memory/{k}": v for k, v in DSH_ONLY.items()})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    res = cli("check", "--json", cwd=elsewhere, env={"HOME": str(home)})
    assert res.returncode == 0, res.stderr
    data = one_json(res.stdout)
    assert data["root"] == os.path.realpath(home / ".dsh" / "memory")
    assert data["layouts"] == ["dsh"]
    hits = cli("search", "lives in", cwd=elsewhere, env={"HOME": str(home)})
    assert hits.returncode == 0 and "facts.md:2:" in hits.stdout


@pytest.mark.parametrize("argv", [("check",), ("list", "--json"), ("search", "x"), ()])
def test_no_store_anywhere_is_a_call_error(tmp_path, argv):
    home = tmp_path / "home"
    home.mkdir()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    res = cli(*argv, cwd=cwd, env={"HOME": str(home)})
    assert res.returncode == 2
    assert "memtui demo" in res.stderr
    assert res.stdout == ""
    assert list(cwd.iterdir()) == [] and list(home.iterdir()) == []


def test_store_path_that_does_not_exist(tmp_path):
    res = cli("list", "--store", str(tmp_path / "nope"))
    assert res.returncode == 2 and "nope" in res.stderr


# Every verb with no positional of its own takes the store as PATH too, as linters do.
PATH_VERBS = [
    ("check",),
    ("check", "--json"),
    ("list",),
    ("events", "--open"),
    ("mood",),
    ("pending",),
    ("log",),
    ("context",),
    ("index", "--dry-run"),
    ("maintain",),
]


@pytest.mark.parametrize("argv", PATH_VERBS, ids=" ".join)
def test_a_verb_takes_the_store_as_a_path_the_same_as_store(capsys, root, argv):
    by_option = fast(capsys, *argv, "--store", str(root))
    by_path = fast(capsys, *argv, str(root))
    assert by_path.returncode == by_option.returncode, by_path.stderr
    # maintain's dry run stamps its report with the second it runs: the two may differ
    assert untimed(by_path.stdout) == untimed(by_option.stdout)
    assert untimed(by_path.stderr) == untimed(by_option.stderr)


def untimed(text: str) -> str:
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", "<time>", text)


def test_every_verb_with_store_takes_a_path_or_says_it_takes_store_only():
    from memtui.cli import build_parser
    from memtui.cli.store_arg import STORE_ONLY

    verbs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    with_path, store_only = [], []
    for name, sub in verbs.choices.items():
        if any("--store" in a.option_strings for a in sub._actions):
            positionals = [a.dest for a in sub._actions if not a.option_strings]
            if positionals == ["store_path"]:
                with_path.append(name)
            else:
                assert sub.epilog == STORE_ONLY and "store_path" not in positionals, name
                store_only.append(name)
    assert {a[0] for a in PATH_VERBS} | {"serve"} == set(with_path)
    assert {"show", "search", "accept", "reject", "edit", "fix", "undo", "add"} <= set(store_only)
    assert "--store PATH only" in run_cli("show", "--help").stdout


def test_a_path_after_an_id_is_no_store(capsys, root):
    got = fast(capsys, "show", "E001", str(root))  # ambiguous: the store is --store only
    assert got.returncode == 2 and "unrecognized arguments" in got.stderr


def test_two_different_stores_are_a_wrong_call(capsys, root, tmp_path):
    before = tree_digest(root)
    got = fast(capsys, "check", str(root), "--store", str(tmp_path))
    assert got.returncode == 2 and "two stores given" in got.stderr
    assert fast(capsys, "check", str(root), "--store", str(root)).returncode == 0
    assert fast(capsys, "check", str(tmp_path / "nope")).returncode == 2
    assert tree_digest(root) == before


def test_add_topic_takes_store_after_the_kind(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# idx\n\n## Projects\n- {old} → memory_old.md\n", "memory_old.md": "x\n"},
    )
    body = write_tree(tmp_path, {"b.txt": "the body\n"}) / "b.txt"
    args = ["--section", "Projects", "--description", "new one", "--body-file", str(body)]
    got = run_cli("add", "topic", "newtopic", *args, "--store", str(root), cwd=tmp_path, env=ENV)
    assert got.returncode == 0, got.stderr
    assert (root / "memory_newtopic.md").read_text() == "the body\n"
    assert "- new one → memory_newtopic.md" in (root / "memory.md").read_text()


def test_add_fact_takes_store_after_the_kind(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "d", {"index.txt": DSH_INDEX, "facts.md": "## ENV\n- a\n"})
    got = run_cli(
        "add", "fact", "ENV", "b", "--evidence", "seen", "--store", str(root), "--dry-run",
        cwd=tmp_path, env=ENV,
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert (root / "facts.md").read_text() == "## ENV\n- a\n"  # a dry run


# --- calls ---------------------------------------------------------------------------


def test_version():
    res = cli("--version")
    assert res.returncode == 0
    assert res.stdout.strip() == f"memtui {__version__}"


@pytest.mark.parametrize(
    "argv",
    [
        ("frobnicate", "--store", "{root}"),
        ("check", "--bogus", "--store", "{root}"),
        ("list", "--layout", "nope", "--store", "{root}"),
        ("show", "--store", "{root}"),  # ENTRY missing
        ("search", "--store", "{root}"),  # QUERY missing
        ("events", "--open=yes", "--store", "{root}"),
    ],
)
def test_wrong_calls_exit_2(root, argv):
    before = tree_digest(root)
    res = cli(*(a.format(root=root) for a in argv))
    assert res.returncode == 2, (argv, res.stdout, res.stderr)
    assert res.stderr.strip()
    assert tree_digest(root) == before


# --- show -------------------------------------------------------------------------------


def event_block(label: str) -> str:
    start = EVENTS.index(f"### [{label}]")
    stop = EVENTS.find("\n### ", start)
    return EVENTS[start : stop + 1]


def test_show_event_by_bare_and_full_id(capsys, root):
    outs = {
        ref: fast(capsys, "show", ref, "--store", str(root)) for ref in ("E002", "event:E002", "E2")
    }
    for ref, res in outs.items():
        assert res.returncode == 0, (ref, res.stderr)
    assert outs["E002"].stdout == outs["event:E002"].stdout == outs["E2"].stdout
    head, _, body = outs["E002"].stdout.partition("\n")
    line = EVENTS[: EVENTS.index("### [E002]")].count("\n") + 1
    assert head.startswith("# event:E002") and f"memory/events.md:{line}" in head
    assert body.strip("\n") == event_block("E002").strip("\n")
    assert "E001" not in body and "E003" not in body


def test_show_json_event(root):
    res = cli("show", "event:E003", "--json", "--store", str(root))
    assert res.returncode == 0
    data = one_json(res.stdout)
    assert data["id"] == "event:E003" and data["file"] == "memory/events.md"
    assert data["text"] == event_block("E003")
    assert data["event"]["open"] is True and data["event"]["due"] == "2026-11-20"


def test_show_fact_section(root):
    res = cli("show", "fact:HOSTS", "--store", str(root))
    assert res.returncode == 0
    assert "## HOSTS" in res.stdout and "- the homelab UPS lasts 20 min" in res.stdout
    assert "PYTHON_ENV" not in res.stdout


def test_show_pending_by_id_and_bare_id(capsys, root):
    full = fast(capsys, "show", "pending:20261129-0007", "--store", str(root))
    bare = fast(capsys, "show", "20261129-0007", "--store", str(root))
    assert full.returncode == bare.returncode == 0
    assert full.stdout == bare.stdout
    assert "- activate the venv before pytest" in full.stdout
    assert 'evidence: "pytest -q → 41 passed"' in full.stdout
    data = one_json(fast(capsys, "show", "20261129-0008", "--json", "--store", str(root)).stdout)
    assert data["candidate"]["acceptable"] is False


def test_show_whole_file_exactly(root):
    res = cli("show", "file:facts.md", "--store", str(root))
    assert res.returncode == 0
    assert res.stdout.split("\n", 1)[1] == FACTS
    data = one_json(cli("show", "file:facts.md", "--json", "--store", str(root)).stdout)
    assert data["text"] == FACTS and data["file"] == "facts.md"


def test_show_missing_entry(capsys, root):
    for ref in ("event:E999", "fact:NOPE", "pending:nope", "file:nope.md", "sop:nope"):
        res = fast(capsys, "show", ref, "--store", str(root))
        assert res.returncode == 1, ref
        assert ref.split(":")[1] in res.stderr and "no entry" in res.stderr, res.stderr
        assert res.stdout == ""


def test_show_file_outside_the_root_is_refused(root, tmp_path):
    (tmp_path / "outside.md").write_text("OUTSIDE-SECRET-42\n")
    for ref in ("file:../outside.md", f"file:{tmp_path / 'outside.md'}", "file:../outside"):
        res = cli("show", ref, "--store", str(root))
        assert res.returncode == 1, ref
        assert "OUTSIDE-SECRET-42" not in res.stdout + res.stderr


def test_any_file_resolves_as_file_path_even_a_topic(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# idx\n\n## P\n- {py} → memory_python.md\n", "memory_python.md": "py\n"},
    )
    got = run_cli("show", "file:memory_python.md", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    assert got.stdout.endswith("py\n")
    assert run_cli("show", "file:nope.md", "--store", str(root), env=ENV).returncode == 1


# --- check ---------------------------------------------------------------------------------


def test_check_json_contract(store):
    files = dict(STORE)
    files["memory.md"] += "- 丢失 → memory_missing.md\n"  # pointer-missing: error
    files["memory_orphan.md"] = "# 孤儿\n"  # topic-orphan: warning
    root = store(files)
    res = cli("check", "--json", "--store", str(root))
    assert res.returncode == 1
    data = one_json(res.stdout)
    assert isinstance(data, dict) and {"root", "layouts", "findings"} <= set(data)
    assert data["root"] == os.path.realpath(root)
    assert set(data["layouts"]) == {"workspace", "companion", "dsh"}
    rank = {"error": 0, "warning": 1, "info": 2}
    ranks = [rank[f["level"]] for f in data["findings"]]
    assert ranks == sorted(ranks), "errors first, then warnings, then info"
    for f in data["findings"]:
        assert set(f) == {"code", "level", "file", "line", "message"}
        assert isinstance(f["code"], str) and isinstance(f["message"], str) and f["message"]
        if f["file"] is not None:
            assert not os.path.isabs(f["file"]) and ".." not in f["file"].split("/")
            assert (root / f["file"]).exists(), f
        if f["line"] is not None:
            assert isinstance(f["line"], int) and f["line"] >= 1
    got = {(f["code"], f["level"], f["file"], f["line"]) for f in data["findings"]}
    assert ("pointer-missing", "error", "memory.md", 5) in got
    assert ("topic-orphan", "warning", "memory_orphan.md", None) in got
    overdue_line = EVENTS[: EVENTS.index("### [E003]")].count("\n") + 1
    assert ("event-overdue", "warning", "memory/events.md", overdue_line) in got
    assert ("pending-no-evidence", "warning", "pending/20261129-0008.md", 1) in got


def test_check_exit_status(root):
    # the fixture store has warnings (overdue, no evidence) but no errors
    res = cli("check", "--store", str(root))
    assert res.returncode == 0
    assert "event-overdue" in res.stdout and "pending-no-evidence" in res.stdout
    assert cli("check", "--strict", "--store", str(root)).returncode == 1
    assert cli("check", "--strict", "--json", "--store", str(root)).returncode == 1


def test_check_on_a_clean_store_exits_0_even_strict(store):
    files = {k: v for k, v in STORE.items() if not k.startswith("pending/")}
    files["MEMORY.md"] = SUMMARY
    root = store(files)
    res = cli(
        "check", "--strict", "--json", "--store", str(root), env={"MEMTUI_TODAY": "2026-11-15"}
    )
    assert res.returncode == 0, res.stdout
    assert [f for f in one_json(res.stdout)["findings"] if f["level"] != "info"] == []


# --- list, events, mood, pending ---------------------------------------------------------------


def test_list_layout_dsh(root):
    res = cli("list", "--layout", "dsh", "--json", "--store", str(root))
    assert res.returncode == 0
    entries = one_json(res.stdout)["entries"]
    assert entries and {e["layout"] for e in entries} == {"dsh"}
    ids = {e["id"] for e in entries}
    assert {"fact:PYTHON_ENV", "fact:HOSTS", "sop:deploy"} <= ids
    assert {"pending:20261129-0007", "pending:20261129-0008"} <= ids
    text = cli("list", "--layout", "dsh", "--store", str(root)).stdout.splitlines()
    assert sorted(line.split("\t")[0] for line in text) == sorted(ids)


def test_list_everything(root):
    entries = one_json(cli("list", "--json", "--store", str(root)).stdout)["entries"]
    ids = {e["id"] for e in entries}
    assert {"topic:course", "event:E001", "event:E002", "event:E003", "sop:deploy"} <= ids
    assert "event:E000" not in ids  # sentinels are not entries
    for e in entries:
        assert not os.path.isabs(e["file"])
        assert e["line"] is None or e["line"] >= 1


def test_events_open_and_overdue(capsys, root):
    def ids(*flags: str, today: str = TODAY) -> list[str]:
        res = fast(capsys, "events", *flags, "--json", "--store", str(root), today=today)
        assert res.returncode == 0
        return [e["id"] for e in one_json(res.stdout)["events"]]

    assert ids() == ["event:E001", "event:E002", "event:E003"]
    assert ids("--open") == ["event:E001", "event:E003"]
    assert ids("--overdue") == ["event:E003"]
    assert ids("--overdue", today="2026-12-05") == ["event:E001", "event:E003"]
    assert ids("--overdue", today="2026-11-15") == []
    data = one_json(fast(capsys, "events", "--json", "--store", str(root)).stdout)
    assert data["last_active"] == "2026-11-29T21:40"
    assert {e["id"]: e["overdue"] for e in data["events"]} == {
        "event:E001": False,
        "event:E002": False,
        "event:E003": True,
    }
    text = fast(capsys, "events", "--overdue", "--store", str(root)).stdout
    assert "E003" in text and "OVERDUE" in text and "E001" not in text


def test_mood_json(capsys, root):
    res = fast(capsys, "mood", "--json", "--store", str(root))
    assert res.returncode == 0
    mood = one_json(res.stdout)["mood"]
    assert (mood["valence"], mood["energy"]) == (0.15, 0.55)
    assert [s["time"] for s in mood["snapshots"]] == ["2026-11-29T21:40", "2026-11-28T20:00"]
    assert [s["source"] for s in mood["snapshots"]] == ["conversation", "decay"]
    assert mood["consecutive_g4c_count"] == 2 and mood["healing_guard_on"] is True
    text = fast(capsys, "mood", "--store", str(root)).stdout
    assert "0.15" in text and "guard: on" in text


def test_pending_json(capsys, root):
    res = fast(capsys, "pending", "--json", "--store", str(root))
    assert res.returncode == 0
    cands = {c["id"]: c for c in one_json(res.stdout)["pending"]}
    assert set(cands) == {"pending:20261129-0007", "pending:20261129-0008"}
    good, bad = cands["pending:20261129-0007"], cands["pending:20261129-0008"]
    assert good["acceptable"] is True and good["evidence"] == "pytest -q → 41 passed"
    assert good["source_seqs"] == [12, 13] and good["target"] == "PYTHON_ENV"
    assert bad["acceptable"] is False and not bad["evidence"]
    text = fast(capsys, "pending", "--store", str(root)).stdout
    assert "no evidence" in text


# --- search ------------------------------------------------------------------------------------


def hits(capsys, root: Path, *argv: str) -> list[tuple[str, int, int, str]]:
    res = fast(capsys, "search", *argv, "--json", "--store", str(root))
    assert res.returncode == 0, res.stderr
    return [(h["file"], h["line"], h["column"], h["text"]) for h in one_json(res.stdout)["hits"]]


def test_search_cjk_line_and_column(capsys, root):
    got = hits(capsys, root, "借用")
    assert got == [
        ("memory_course.md", 3, 12, "- Rust 所有权：借用检查器很严格"),
        ("memory_course.md", 4, 7, "- 下次复习借用规则"),
    ]
    text = fast(capsys, "search", "借用", "--store", str(root)).stdout.splitlines()
    assert text == [
        "memory_course.md:3:12: - Rust 所有权：借用检查器很严格",
        "memory_course.md:4:7: - 下次复习借用规则",
    ]
    # the column counts characters in the line, the same way for every line
    for _file, line, column, line_text in got:
        assert line_text[column - 1 :].startswith("借用")
        assert COURSE.splitlines()[line - 1] == line_text


def test_search_smart_case(capsys, root):
    lower = hits(capsys, root, "homelab")
    assert [(f, n) for f, n, _, _ in lower] == [("facts.md", 7), ("facts.md", 8)]
    assert [(f, n, c) for f, n, c, _ in hits(capsys, root, "Homelab")] == [("facts.md", 7, 3)]
    assert [(f, n, c) for f, n, c, _ in hits(capsys, root, "-s", "homelab")] == [("facts.md", 8, 7)]
    assert hits(capsys, root, "HOMELAB") == []
    # non-ASCII: a lower-case query ignores case too
    assert [(f, n, c) for f, n, c, _ in hits(capsys, root, "été")] == [("facts.md", 9, 3)]
    assert hits(capsys, root, "-s", "été") == []


def test_search_regex(capsys, root):
    got = hits(capsys, root, "--regex", r"\bthe \w+ UPS")
    assert [(f, n, c) for f, n, c, _ in got] == [("facts.md", 8, 3)]
    got = hits(capsys, root, "--regex", "E00[13]")
    assert {(f, n) for f, n, _, _ in got} >= {("memory/events.md", 3), ("MEMORY.md", 4)}
    assert all("E002" not in t for _, _, _, t in got)
    got = hits(capsys, root, "--regex", "借用.则")
    assert got == [("memory_course.md", 4, 7, "- 下次复习借用规则")]


@pytest.mark.parametrize("query", ["(", "[a-", "*x", "(?P<n>a)(?P<n>b)"])
def test_search_bad_regex_is_a_call_error(capsys, root, query):
    res = fast(capsys, "search", "--regex", query, "--store", str(root))
    assert res.returncode == 2
    assert "regular expression" in res.stderr
    assert res.stdout == ""


def test_search_empty_query_is_a_call_error(capsys, root):
    res = fast(capsys, "search", "", "--store", str(root))
    assert res.returncode == 2 and res.stderr.strip()


def test_search_stays_in_the_store_files(capsys, store, tmp_path):
    files = dict(STORE)
    files.update(
        {
            ".history/facts.md/20261128T120000Z.1": "- zebra-marker in history\n",
            ".history/audit.jsonl": '{"op": "zebra-marker"}\n',
            "notes/todo.md": "- zebra-marker in an unknown folder\n",
            ".git/COMMIT_EDITMSG": "zebra-marker\n",
            "archive/sops/old-deploy.md": "# zebra-marker archived sop\n",
            "sops/deploy.md": "# Deploy\n1. zebra-marker step\n",
        }
    )
    root = store(files)
    (tmp_path / "outside.md").write_text("zebra-marker outside\n")
    (root / "sops" / "link.md").symlink_to(tmp_path / "outside.md")
    found = {f for f, _, _, _ in hits(capsys, root, "zebra-marker")}
    assert found == {"archive/sops/old-deploy.md", "sops/deploy.md"}
    found = {f for f, _, _, _ in hits(capsys, root, "--regex", "zebra-mark.r")}
    assert found == {"archive/sops/old-deploy.md", "sops/deploy.md"}


def test_search_json_shape(root):
    res = cli("search", "看展", "--json", "--store", str(root))
    assert res.returncode == 0
    data = one_json(res.stdout)
    assert data["root"] == os.path.realpath(root) and data["query"] == "看展"
    assert data["hits"], data
    for h in data["hits"]:
        assert set(h) == {"file", "line", "column", "text"}
        assert not os.path.isabs(h["file"]) and h["line"] >= 1 and h["column"] >= 1
    assert ("memory/events.md", 5) in {(h["file"], h["line"]) for h in data["hits"]}


def test_search_no_hits_exits_0_with_no_output(capsys, root):
    res = fast(capsys, "search", "nothing-like-this-anywhere", "--store", str(root))
    assert res.returncode == 0 and res.stdout == ""


# --- reading never writes, and a closed pipe is quiet -----------------------------------------


def test_read_verbs_never_write(capsys, root):
    before = tree_digest(root)
    for argv in (
        ("check",),
        ("list",),
        ("show", "E001"),
        ("search", "借用"),
        ("events",),
        ("mood",),
        ("pending",),
    ):
        assert fast(capsys, *argv, "--store", str(root)).returncode == 0, argv
    assert tree_digest(root) == before


def test_closed_pipe_is_quiet(store, tmp_path):
    sections = "".join(f"## S{i:05d}\n- fact number {i} about the pipe\n" for i in range(5000))
    root = store({"index.txt": "[RULES] r\n", "facts.md": sections})
    script = """
set +e
cd "$REPO"
for verb in "list" "search pipe" "show file:facts.md" "check"; do
  "$PY" -m memtui $verb --store "$ROOT" 2>"$ERRDIR/err" | head -1 >/dev/null
  echo "STATUS $verb:${PIPESTATUS[0]}"
  cat "$ERRDIR/err"
done
"""
    env = {
        **os.environ,
        **ENV,
        "MEMTUI_TODAY": TODAY,
        "PY": sys.executable,
        "ROOT": str(root),
        "REPO": str(REPO),
        "ERRDIR": str(tmp_path),
    }
    res = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert "Traceback" not in res.stdout + res.stderr, res.stdout
    assert "Exception ignored" not in res.stdout, res.stdout
    assert "internal error" not in res.stdout, res.stdout
    statuses = dict(
        line[7:].rsplit(":", 1) for line in res.stdout.splitlines() if line.startswith("STATUS ")
    )
    assert set(statuses) == {"list", "search pipe", "show file:facts.md", "check"}, res.stdout
    for verb, status in statuses.items():
        assert status in ("0", "141"), (verb, status, res.stdout)
