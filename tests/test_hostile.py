"""Hostile input: every kind of bad file a store can hold, through open_store and the real CLI.

For each case: the right finding (code, level, file, line), the exit status of SPEC §6,
never a traceback, never a byte of the store changed or a file added, never a raw
terminal control character in text output, always valid JSON in --json output, and
nothing outside the root read.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TODAY, run_cli, tree_digest, write_tree

from memtui.engine import open_store
from memtui.engine.config import Thresholds
from tests.helpers import CANDIDATE, ENV, INDEX_TXT, MOOD, with_changes
from tests.hostile_calls import cli

# C0 controls but tab and newline, DEL, C1: none may reach a terminal raw.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SECRET = "TOPSECRET-7f3a9c"

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

### [E000] 2026-11-29T21:40 · last_active
"""

SUMMARY = """\
# MEMORY

## 【最近未解决事项】
- [E001] 约定 · 到期 2026-12-01 · 周末一起去看展
"""

FACTS = """\
# Facts

## PYTHON_ENV
- the venv lives in /opt/app/.venv

## HOSTS
- db runs on 10.0.0.5
"""

BASE: dict[str, str | bytes] = {
    "memory.md": "# 记忆索引\n\n## 学习\n- 课程进度 → memory_course.md\n",
    "user.md": "# 用户\n\n## 称呼\n- 老王\n",
    "memory_course.md": "# 课程\n- 第三章学完了\n",
    "memory/events.md": EVENTS,
    "memory/mood_state.md": MOOD,
    "MEMORY.md": SUMMARY,
    "index.txt": INDEX_TXT,
    "facts.md": FACTS,
    "sops/deploy.md": "# Deploy\n1. git pull\n2. systemctl restart app\n",
    "pending/20261129-0007.md": CANDIDATE,
}

# The read verbs, text and JSON; each hostile store goes through all of them.
VERBS: list[tuple[str, ...]] = [
    ("check",),
    ("check", "--json"),
    ("check", "--strict"),
    ("list",),
    ("list", "--json"),
    ("events",),
    ("events", "--json"),
    ("mood",),
    ("mood", "--json"),
    ("pending",),
    ("pending", "--json"),
]


@pytest.fixture(autouse=True)
def _no_debug(monkeypatch):
    monkeypatch.delenv("MEMTUI_DEBUG", raising=False)


def all_paths(root: Path) -> set[str]:
    """Every path below root, folders included (tree_digest skips empty folders)."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


def assert_sane(argv: tuple[str, ...], code: int, out: str, err: str) -> None:
    where = " ".join(argv)
    assert "Traceback" not in out + err, where
    assert "internal error" not in err, (where, err)
    assert code in (0, 1, 2), where
    assert not CONTROL.search(err), (where, err)
    if "--json" in argv and out:
        json.loads(out)  # valid JSON, whatever the store holds (check exits 1 with JSON too)
    else:
        bad = CONTROL.search(out)
        assert bad is None, (where, out[max(0, bad.start() - 40) : bad.end() + 40])


def sweep(
    capsys,
    root: Path,
    shows: tuple[str, ...] = (),
    queries: tuple[str, ...] = (),
) -> dict[str, tuple[int, str, str]]:
    """Every read verb on `root`; asserts the invariants; returns results by argv."""
    before, paths = tree_digest(root), all_paths(root)
    calls = [*VERBS]
    for entry in shows:
        calls += [("show", entry), ("show", entry, "--json")]
    for query in queries:
        calls += [("search", query), ("search", query, "--json")]
        calls += [("search", "--regex", re.escape(query))]
    results = {}
    for argv in calls:
        code, out, err = cli(capsys, *argv, "--store", str(root))
        assert_sane(argv, code, out, err)
        results[" ".join(argv)] = (code, out, err)
    assert tree_digest(root) == before, "a read verb changed the store"
    assert all_paths(root) == paths, "a read verb created something in the store"
    # exit status per SPEC §6 (main's return value is the process's exit status)
    levels = {f["level"] for f in json.loads(results["check --json"][1])["findings"]}
    assert results["check"][0] == results["check --json"][0] == (1 if "error" in levels else 0)
    assert results["check --strict"][0] == (1 if levels & {"error", "warning"} else 0)
    for key in ("list", "list --json", "events", "mood", "pending", "pending --json"):
        assert results[key][0] == 0, key
    return results


def findings(root: Path) -> set[tuple[str, str, str | None, int | None]]:
    return {(f.code, f.level, f.file, f.line) for f in open_store(root).findings}


def codes(root: Path) -> set[str]:
    return {f.code for f in open_store(root).findings}


def check_subprocess(root: Path) -> dict:
    """`memtui check --json` in a real process: exit 1 iff errors."""
    before, paths = tree_digest(root), all_paths(root)
    res = run_cli("check", "--json", "--store", str(root), env=ENV)
    assert "Traceback" not in res.stdout + res.stderr
    data = json.loads(res.stdout)
    levels = {f["level"] for f in data["findings"]}
    assert res.returncode == (1 if "error" in levels else 0), res.stderr
    assert tree_digest(root) == before and all_paths(root) == paths
    return data


def make(store, changes: dict[str, str | bytes | None] | None = None) -> Path:
    """BASE with some files replaced; a value of None drops the file."""
    return store(with_changes(BASE, changes))


# --- the baseline ----------------------------------------------------------


def test_base_store_is_clean(store, capsys):
    root = store(BASE)
    assert set(open_store(root).layouts) == {"workspace", "companion", "dsh"}
    assert not [f for f in open_store(root).findings if f.level != "info"]
    data = check_subprocess(root)
    assert data["findings"] == []
    sweep(capsys, root, shows=("E001", "fact:HOSTS"), queries=("看展",))


# --- unreadable files: binary, not UTF-8, over the size limit ---------------


def test_binary_file_is_unreadable(store, capsys):
    root = make(store, {"sops/deploy.md": b"# Deploy\n\x00\x01\x02\x1b[2J binary\n"})
    assert ("unreadable", "error", "sops/deploy.md", None) in findings(root)
    [f] = [f for f in open_store(root).findings if f.code == "unreadable"]
    assert "binary" in f.message
    res = sweep(capsys, root, shows=("sop:deploy", "file:sops/deploy.md"), queries=("binary",))
    code, out, err = res["show sop:deploy"]
    assert code == 1 and "binary" in err and out == ""
    code, out, _ = res["show sop:deploy --json"]
    data = json.loads(out)
    assert data["text"] is None and "binary" in data["unreadable"]
    assert json.loads(res["search binary --json"][1])["hits"] == []
    assert check_subprocess(root)


def test_events_not_utf8_is_unreadable(store, capsys):
    bad = b"\xff\xfe# \xe4\xba\x8b\xe4\xbb\xb6\n\n### [E001] 2026-11-20 \xb7 \xc0\xaf\n"
    root = make(store, {"memory/events.md": bad})
    got = findings(root)
    assert ("unreadable", "error", "memory/events.md", None) in got
    [f] = [f for f in open_store(root).findings if f.code == "unreadable"]
    assert "UTF-8" in f.message
    assert "companion" in open_store(root).layouts  # still detected, shown as unreadable
    res = sweep(capsys, root, shows=("file:memory/events.md",), queries=("E001",))
    code, _out, err = res["show file:memory/events.md"]
    assert code == 1 and "UTF-8" in err
    assert res["events"][0] == 0
    check_subprocess(root)


def test_search_skips_a_file_that_is_not_utf8(store, capsys):
    """SPEC §0: a file that is not valid UTF-8 is shown as unreadable, not as text."""
    root = make(store, {"memory/events.md": b"\xff\xfe needle-in-latin1 \xe9t\xe9\n"})
    code, out, _ = cli(capsys, "search", "needle-in-latin1", "--json", "--store", str(root))
    assert code == 0
    assert json.loads(out)["hits"] == []


def test_file_over_the_size_limit(store, capsys):
    files = {
        "memtui.toml": "[thresholds]\nmax_file_bytes = 100\n",
        "index.txt": "[RULES] r\n# --- auto ---\n[FACTS] BIG\n# --- end auto ---\n",
        "facts.md": "## BIG\n" + "".join(f"- oversized fact number {i}\n" for i in range(20)),
    }
    root = store(files)
    assert open_store(root).config.thresholds.max_file_bytes == 100
    assert ("unreadable", "error", "facts.md", None) in findings(root)
    [f] = [f for f in open_store(root).findings if f.code == "unreadable"]
    assert "limit" in f.message
    res = sweep(capsys, root, shows=("file:facts.md",), queries=("oversized",))
    assert res["show file:facts.md"][0] == 1
    check_subprocess(root)


def test_search_respects_the_configured_size_limit(store, capsys):
    """A file `check` calls unreadable (over max_file_bytes) is not searched either."""
    root = store(
        {
            "memtui.toml": "[thresholds]\nmax_file_bytes = 100\n",
            "index.txt": "[RULES] r\n# --- auto ---\n[FACTS] BIG\n# --- end auto ---\n",
            "facts.md": "## BIG\n" + "- oversized fact\n" * 20,
        }
    )
    code, out, _ = cli(capsys, "search", "oversized", "--json", "--store", str(root))
    assert code == 0
    assert json.loads(out)["hits"] == []


def test_huge_single_line_within_a_raised_limit(store, capsys):
    big = "- " + "a" * 5_000_000 + "NEEDLE\n"
    root = make(
        store,
        {
            "memtui.toml": "[thresholds]\nmax_file_bytes = 10000000\n",
            "facts.md": "## PYTHON_ENV\n" + big + "\n## HOSTS\n- db\n",
        },
    )
    s = open_store(root)
    assert "unreadable" not in {f.code for f in s.findings}
    [section] = [x for x in s.data.get("dsh").fact_sections if x.name == "PYTHON_ENV"]
    assert section.facts[0][0] == 2 and section.facts[0][1].endswith("NEEDLE")
    code, out, _ = cli(capsys, "search", "NEEDLE", "--json", "--store", str(root))
    assert code == 0
    [hit] = json.loads(out)["hits"]
    assert (hit["file"], hit["line"], hit["column"]) == ("facts.md", 2, 5_000_003)
    code, out, _ = cli(capsys, "show", "fact:PYTHON_ENV", "--store", str(root))
    assert code == 0 and out.count("a") >= 5_000_000
    before = tree_digest(root)
    assert cli(capsys, "check", "--store", str(root))[0] == 0
    assert tree_digest(root) == before


# --- symlinks out of the root ----------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the store holding a recognisable secret."""
    out = tmp_path / "outside"
    write_tree(
        out,
        {
            "secret.md": f"# {SECRET}\n- {SECRET} password\n",
            "events.md": f"### [E001] 2026-11-20 · 约定\n**内容**：{SECRET}\n",
            "mood_state.md": f"valence: 0.1\nenergy: 0.2\nnote: {SECRET}\n",
            "persona.md": f"{SECRET}\n",
            "cand.md": (
                f"---\nid: leak\nentry_type: fact\ntarget: X\nevidence: e\n---\n- {SECRET}\n"
            ),
            "sub/deep.md": f"{SECRET}\n",
        },
    )
    return out


def assert_no_secret(results: dict[str, tuple[int, str, str]]) -> None:
    for argv, (_, out, err) in results.items():
        if argv.startswith("search") and argv.endswith("--json"):
            out = json.dumps(json.loads(out)["hits"])  # the query itself is echoed
        assert SECRET not in out + err, argv
        assert "root:x:0:0" not in out + err, argv


def test_symlinked_sop_to_etc_passwd(store, capsys):
    root = make(store)
    (root / "sops" / "evil.md").symlink_to("/etc/passwd")
    got = findings(root)
    assert ("path-escape", "error", "sops/evil.md", None) in got
    s = open_store(root)
    assert "sops/evil.md" not in s.files and "sops/evil.md" not in s.texts
    res = sweep(capsys, root, shows=("sop:evil", "file:sops/evil.md"), queries=("root",))
    assert res["show sop:evil"][0] == 1
    assert res["show file:sops/evil.md"][0] == 1
    assert_no_secret(res)
    data = check_subprocess(root)
    assert any(f["code"] == "path-escape" and f["file"] == "sops/evil.md" for f in data["findings"])


def test_symlinked_pending_dir_leads_outside(store, outside, capsys):
    root = make(store, {"pending/20261129-0007.md": None})
    (outside / "pend").mkdir()
    (outside / "cand.md").rename(outside / "pend" / "20261129-0099.md")
    (root / "pending").symlink_to(outside / "pend")
    got = findings(root)
    assert ("path-escape", "error", "pending", None) in got
    assert open_store(root).data.get("dsh").candidates == ()
    res = sweep(capsys, root, shows=("pending:leak", "20261129-0099"), queries=(SECRET,))
    assert res["show pending:leak"][0] == 1
    assert_no_secret(res)


def test_memory_dir_is_a_symlink_outside(store, outside, capsys):
    files = {k: v for k, v in BASE.items() if not k.startswith("memory/")}
    root = store(files)
    (root / "memory").symlink_to(outside)
    s = open_store(root)
    assert ("path-escape", "error", "memory", None) in findings(root)
    assert not any(f.startswith("memory/") for f in s.files)
    assert s.data.get("companion") is None or s.data.get("companion").events == ()
    res = sweep(
        capsys,
        root,
        shows=("E001", "file:memory/events.md", "file:memory/secret.md"),
        queries=(SECRET,),
    )
    assert_no_secret(res)


def test_nothing_outside_the_root_is_ever_shown(store, outside, capsys):
    meta_heat = json.dumps(
        {"../outside/secret.md": {"reads": 3}, "/etc/passwd": {"reads": 1}, "facts.md": {}}
    )
    index = "# 记忆索引\n\n## 学习\n- 课程进度 → memory_course.md\n- 泄露 → ../outside/secret.md\n"
    leak = (
        "---\nid: leak\nentry_type: sop\ntarget: ../../outside/secret\n"
        'evidence: "ran it"\n---\n- body\n'
    )
    root = make(
        store,
        {"memory.md": index, "file_access_stats.json": meta_heat, "pending/leak.md": leak},
    )
    (root / "sops" / "evil.md").symlink_to(outside / "secret.md")
    (root / "memory_leak.md").symlink_to(outside / "secret.md")
    (root / ".mood_state_aux").symlink_to(outside / "secret.md")
    (root / "memory" / "persona.md").symlink_to(outside / "persona.md")
    (root / "archive" / "sops").mkdir(parents=True)
    (root / "archive" / "sops" / "old.md").symlink_to(outside / "secret.md")
    (root / "archive" / "leak").symlink_to(outside / "sub")
    got = findings(root)
    for rel in ("sops/evil.md", "memory_leak.md", ".mood_state_aux", "memory/persona.md"):
        assert ("path-escape", "error", rel, None) in got, rel
    assert ("path-escape", "error", "archive/sops/old.md", None) in got
    assert ("path-escape", "error", "archive/leak", None) in got
    assert ("path-escape", "error", "memory.md", 5) in got
    assert ("path-escape", "error", "pending/leak.md", None) in got
    assert any(f[0] == "path-escape" and f[2] == "file_access_stats.json" for f in got), (
        "read stats naming files outside the root"
    )
    res = sweep(
        capsys,
        root,
        shows=(
            "sop:evil",
            "topic:leak",
            "file:sops/evil.md",
            "file:../outside/secret.md",
            "file:" + str(outside / "secret.md"),
            "file:archive/leak/deep.md",
            "file:archive/sops/old.md",
            "pending:leak",
        ),
        queries=(SECRET,),
    )
    assert_no_secret(res)
    for entry in ("sop:evil", "topic:leak", "file:../outside/secret.md"):
        assert res[f"show {entry}"][0] == 1, entry
    cands = json.loads(res["pending --json"][1])["pending"]
    [leak] = [c for c in cands if c["id"] == "pending:leak"]
    assert leak["acceptable"] is False
    # the same through real processes
    for argv in (("search", SECRET), ("show", "file:../outside/secret.md"), ("list",)):
        proc = run_cli(*argv, "--store", str(root), env=ENV)
        assert SECRET not in proc.stdout + proc.stderr, argv
        assert "Traceback" not in proc.stderr
    check_subprocess(root)


def test_symlink_loop_and_dangling_link_are_harmless(store, capsys):
    root = make(store)
    (root / "sops" / "loop.md").symlink_to("loop.md")
    (root / "sops" / "dangling.md").symlink_to("nowhere.md")
    (root / "facts2.md").symlink_to("facts2.md")
    s = open_store(root)
    assert "sops/loop.md" not in s.texts and "sops/dangling.md" not in s.texts
    sweep(capsys, root, shows=("sop:loop", "sop:dangling"), queries=("git",))


def test_fifo_in_the_store_does_not_hang(store, capsys):
    root = make(store, {"facts.md": None})
    os.mkfifo(root / "facts.md")
    os.mkfifo(root / "pending" / "fifo.md")
    os.mkfifo(root / "memory" / "persona.md")
    s = open_store(root)
    assert "facts.md" not in s.texts
    sweep(capsys, root, shows=("file:facts.md", "pending:fifo"), queries=("x",))
    check_subprocess(root)


# --- references that lead out ---------------------------------------------


def test_index_pointers_outside_the_root(store, capsys):
    index = (
        "# 记忆索引\n"
        "\n"
        "## 学习\n"
        "- 课程进度 → memory_course.md\n"
        "- x → ../../etc/passwd.md\n"
        "- y → /etc/x.md\n"
        "→ 详见 ../user.md（偏好）\n"
    )
    root = make(store, {"memory.md": index})
    got = findings(root)
    assert ("path-escape", "error", "memory.md", 5) in got
    assert ("path-escape", "error", "memory.md", 6) in got
    assert ("path-escape", "error", "memory.md", 7) in got
    # reported, not followed: no "missing" claim about files outside
    assert not {f for f in got if f[0] == "pointer-missing"}
    res = sweep(capsys, root, shows=("topic:course",), queries=("passwd",))
    assert_no_secret(res)
    check_subprocess(root)


def test_candidate_target_outside_the_root(store, capsys):
    cand = (
        "---\nid: 20261129-0008\nentry_type: sop\ntarget: ../../x\n"
        'evidence: "ran deploy twice"\n---\n# steps\n'
    )
    root = make(store, {"pending/20261129-0008.md": cand})
    assert ("path-escape", "error", "pending/20261129-0008.md", None) in findings(root)
    [c] = [c for c in open_store(root).data.get("dsh").candidates if c.id == "20261129-0008"]
    assert not c.valid
    res = sweep(capsys, root, shows=("20261129-0008",))
    cands = json.loads(res["pending --json"][1])["pending"]
    [got] = [x for x in cands if x["id"] == "pending:20261129-0008"]
    assert got["acceptable"] is False


# --- broken JSON ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "line"),
    [
        pytest.param("memory-meta.json", '{"entries": ', 1, id="meta-truncated"),
        pytest.param("memory-meta.json", "[1, 2, 3]", None, id="meta-list"),
        pytest.param("memory-meta.json", '{"entries": ["fact:X"]}', None, id="entries-list"),
        pytest.param("memory-meta.json", '{"entries": {"fact:X": 3}}', None, id="entry-number"),
        pytest.param("memory-meta.json", "[" * 100_000, None, id="meta-deep-list"),
        pytest.param("memory_stats.json", '"just a string"', None, id="stats-string"),
        pytest.param(
            "memory_stats.json", '{"facts": 1' + "0" * 5000 + "}", None, id="stats-5000-digits"
        ),
        pytest.param("maintenance-report.json", "\n\n{,}", 3, id="report-bad-line-3"),
        pytest.param("file_access_stats.json", '{"facts.md": 7}', None, id="heat-number"),
        pytest.param("file_access_stats.json", '{"a": ' * 50_000, None, id="heat-deep-object"),
        pytest.param(
            "file_access_stats.json", '{"facts.md": {"reads": "many"}}', None, id="heat-reads-text"
        ),
    ],
)
def test_broken_json(store, capsys, name, content, line):
    root = make(store, {name: content})
    got = [f for f in open_store(root).findings if f.code == "json-invalid"]
    assert [(f.level, f.file) for f in got] == [("error", name)]
    if line is not None:
        assert got[0].line == line
    assert got[0].line is None or got[0].line >= 1
    res = sweep(capsys, root, shows=(f"file:{name}", "fact:HOSTS"))
    assert res[f"show file:{name} --json"][0] == 0
    assert json.loads(res[f"show file:{name} --json"][1])["text"] == content


# --- broken front matter ----------------------------------------------------


@pytest.mark.parametrize(
    "front",
    [
        pytest.param("id: [unclosed\nentry_type: fact\n", id="not-yaml"),
        pytest.param("- a\n- b\n", id="list"),
        pytest.param("just a string\n", id="string"),
        pytest.param(
            "id: x\nentry_type: fact\ntarget: T\nevidence: e\nk: " + "[" * 100_000 + "\n",
            id="deeply-nested",
        ),
        pytest.param("entry_type: memo\ntarget: T\nevidence: e\n", id="bad-type"),
        pytest.param("entry_type: fact\nevidence: e\n", id="no-target"),
        pytest.param("!!python/object/apply:os.system [echo pwned]\n", id="python-tag"),
        pytest.param("a: *undefined\n", id="undefined-alias"),
    ],
)
def test_broken_candidate_front_matter(store, capsys, front):
    root = make(store, {"pending/20261129-0009.md": f"---\n{front}---\n- body\n"})
    got = findings(root)
    assert ("pending-bad-frontmatter", "error", "pending/20261129-0009.md", 1) in got
    [c] = [
        c
        for c in open_store(root).data.get("dsh").candidates
        if c.file == "pending/20261129-0009.md"
    ]
    assert not c.valid
    res = sweep(capsys, root, shows=("pending:20261129-0009", "20261129-0009"))
    assert "broken front matter" in res["pending"][1]
    cands = json.loads(res["pending --json"][1])["pending"]
    assert [x["acceptable"] for x in cands if x["file"] == "pending/20261129-0009.md"] == [False]


def test_front_matter_without_closing_fence(store, capsys):
    root = make(store, {"pending/20261129-0009.md": "---\nid: x\nentry_type: fact\n- body\n"})
    assert ("pending-bad-frontmatter", "error", "pending/20261129-0009.md", 1) in findings(root)
    sweep(capsys, root, shows=("20261129-0009",))


def test_front_matter_alias_bomb_stays_small(store, capsys):
    """YAML aliases ("billion laughs") must not blow up memory or --json output."""
    levels = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 6):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        levels.append(f"a{i}: &a{i} [{refs}]")
    front = (
        "id: bomb\nentry_type: fact\ntarget: HOSTS\nevidence: e\n"
        + "\n".join(levels)
        + "\nsource_seqs: *a5\n"
    )
    root = make(store, {"pending/bomb.md": f"---\n{front}---\n- body\n"})
    assert (root / "pending" / "bomb.md").stat().st_size < 2000
    for argv in (("pending", "--json"), ("show", "pending:bomb", "--json")):
        code, out, err = cli(capsys, *argv, "--store", str(root))
        assert_sane(argv, code, out, err)
        assert len(out) < 200_000, f"{' '.join(argv)} printed {len(out)} characters"


def test_sop_front_matter_broken_is_reported_not_fatal(store, capsys):
    root = make(store, {"sops/deploy.md": "---\ntitle: [oops\n---\n# Deploy\n"})
    assert ("sop-bad-frontmatter", "warning", "sops/deploy.md", 1) in findings(root)
    res = sweep(capsys, root, shows=("sop:deploy",))
    assert "title: [oops" in res["show sop:deploy"][1]


# --- companion values ---------------------------------------------------------


def test_events_with_impossible_dates(store, capsys):
    events = (
        "# 事件记录\n"  # 1
        "\n"
        "### [E001] 2026-02-30 · 约定\n"  # 3
        "**类型**：约定\n"
        "**内容**：二月三十日\n"
        "**状态**：待跟进\n"
        "**到期日**：2026-13-01\n"
        "\n"
        "### [E002] tomorrow · 情绪事件\n"  # 9
        "**类型**：情绪事件\n"
        "**情绪强度**：⭐⭐⭐\n"
        "**状态**：已完成\n"
        "\n"
        "### [E003] 2026-11-20 · 约定\n"  # 14
        "**类型**：约定\n"
        "**状态**：待跟进\n"
        "**到期日**：tomorrow\n"
        "\n"
        "### [E004] 2026-11-21T25:61 · 用户Todo\n"  # 19
        "**状态**：已完成\n"
        "\n"
        "### [E000] 2026-11-29T21:40 · last_active\n"
    )
    root = make(store, {"memory/events.md": events, "MEMORY.md": None})
    got = findings(root)
    bad_lines = {f[3] for f in got if f[0] == "event-bad-date"}
    assert bad_lines == {3, 9, 14, 19}
    assert all(f[1] == "error" and f[2] == "memory/events.md" for f in got if "date" in f[0])
    msgs = [f.message for f in open_store(root).findings if f.code == "event-bad-date"]
    assert sum("2026-13-01" in m for m in msgs) == 1
    res = sweep(capsys, root, shows=("E001", "E002"))
    assert res["check"][0] == 1


def test_events_stars_and_odd_headings(store, capsys):
    events = (
        "### [E001] 2026-11-20 · 情绪事件\n"  # 1
        "**情绪强度**：⭐⭐⭐⭐⭐⭐⭐\n"
        "**状态**：已完成\n"
        "### [E002] 2026-11-21 · 情绪事件\n"  # 4
        "**情绪强度**：none\n"
        "**状态**：已完成\n"
        "### [Exyz] 2026-11-22 · 情绪事件\n"  # 7
        "### [E99999999999999999999999] 2026-11-22 · 约定\n"  # 8
        "**到期日**：2026-12-01\n"
        "### [E001] 2026-11-23 · 情绪事件\n"  # 10
        "**状态**：已完成\n"
    )
    root = make(store, {"memory/events.md": events, "MEMORY.md": None})
    got = findings(root)
    assert ("event-stars", "error", "memory/events.md", 1) in got
    assert ("event-stars", "error", "memory/events.md", 4) in got
    assert ("event-missing-id", "error", "memory/events.md", 7) in got
    assert ("event-duplicate-id", "error", "memory/events.md", 10) in got
    assert ("sentinel-missing", "info", "memory/events.md", None) in got
    sweep(capsys, root, shows=("E001", "E001#2", "event:E001"))


def test_mood_values_that_are_not_numbers(store, capsys):
    mood = (
        "valence: high\n"  # 1
        "energy: 0.5\n"
        "\n"
        "### 2026-11-29T21:40 · source=conversation\n"  # 4
        "valence: abc\n"
        "energy: NaN\n"
        "note: \x1b[31mred\x1b[0m\n"
        "\n"
        "### 2026-11-28T20:00 · source=decay\n"  # 9
        "valence: 1e400\n"
        "energy: -0.0\n"
        "\n"
        "### 2026-11-27T20:00 · source=conversation\n"  # 13
        "valence: \n"
        "energy: 7\n"
    )
    root = make(store, {"memory/mood_state.md": mood})
    got = findings(root)
    ranges = {(f[1], f[2], f[3]) for f in got if f[0] == "mood-range"}
    assert ("error", "memory/mood_state.md", 1) in ranges
    assert ("error", "memory/mood_state.md", 4) in ranges
    assert ("error", "memory/mood_state.md", 9) in ranges
    assert ("error", "memory/mood_state.md", 13) in ranges
    res = sweep(capsys, root)
    data = json.loads(res["mood --json"][1])["mood"]
    assert data["valence"] is None and data["snapshots"][0]["valence"] is None
    assert "\x1b" not in res["mood"][1]


def test_mood_aux_garbage(store, capsys):
    root = make(
        store,
        {
            ".mood_state_aux": "last_decay_written_at: \x1b]52;c;ZXZpbA==\x07\n"
            "consecutive_g4c_count: ∞\n"
        },
    )
    res = sweep(capsys, root)
    assert res["mood"][0] == 0


# --- memtui.toml --------------------------------------------------------------


def config_findings(root: Path) -> list:
    return [f for f in open_store(root).findings if f.code == "config-invalid"]


@pytest.mark.parametrize(
    "toml",
    [
        pytest.param("[thresholds\nl1_warn_lines = 2\n", id="no-parse"),
        pytest.param("[thresholds]\nl1_warn_lines = \n", id="no-value"),
        pytest.param("[thresholds]\nl1_warn_lines = 2\nl1_warn_lines = 3\n", id="dup-key"),
        pytest.param("thresholds = 5\n", id="not-a-table"),
        pytest.param("[thresholds]\nl1_warn_lines = true\n", id="bool"),
        pytest.param("[thresholds]\nl1_warn_lines = 2.5\n", id="float-for-int"),
        pytest.param("[thresholds]\nl1_warn_lines = -1\n", id="negative"),
        pytest.param('[thresholds]\nl1_warn_lines = "2"\n', id="string"),
        pytest.param(b"\xff\xfe[thresholds]\n", id="not-utf8"),
    ],
)
def test_config_that_cannot_be_used(store, capsys, toml):
    root = make(store, {"memtui.toml": toml})
    [f] = config_findings(root)
    assert (f.level, f.file) == ("warning", "memtui.toml")
    s = open_store(root)
    assert s.config.thresholds == Thresholds()  # defaults used
    assert "l1-size" not in codes(root)  # index.txt has 5 lines: fine by default
    res = sweep(capsys, root)
    assert res["check"][0] == 0 and res["check --strict"][0] == 1


def test_config_unknown_keys(store, capsys):
    root = make(store, {"memtui.toml": "[thresholds]\nbogus_limit = 3\n\n[colours]\nred = 1\n"})
    found = config_findings(root)
    assert found and all((f.level, f.file) == ("warning", "memtui.toml") for f in found)
    assert any("bogus_limit" in f.message for f in found)
    assert open_store(root).config.thresholds == Thresholds()
    res = sweep(capsys, root)
    assert res["check"][0] == 0 and res["check --strict"][0] == 1


def test_config_key_outside_its_table_is_reported(store):
    """`max_file_bytes = 100` with no [thresholds] header is an unknown key, not silence."""
    root = make(store, {"memtui.toml": "max_file_bytes = 100\n"})
    found = config_findings(root)
    assert [(f.level, f.file) for f in found] == [("warning", "memtui.toml")]
    assert "unreadable" not in codes(root)


def test_config_huge_size_limit_does_not_crash(store, capsys):
    root = make(store, {"memtui.toml": "[thresholds]\nmax_file_bytes = 9223372036854775807\n"})
    s = open_store(root)  # must not raise
    assert "unreadable" not in {f.code for f in s.findings}
    res = sweep(capsys, root, shows=("fact:HOSTS",))
    assert res["show fact:HOSTS"][0] == 0
    check_subprocess(root)


def test_config_symlink_outside_is_not_read(store, outside, capsys):
    (outside / "memtui.toml").write_text(f"[thresholds]\n{SECRET} = 1\n")
    root = make(store)
    (root / "memtui.toml").symlink_to(outside / "memtui.toml")
    assert ("path-escape", "error", "memtui.toml", None) in findings(root)
    assert config_findings(root) == []
    res = sweep(capsys, root)
    assert_no_secret(res)


# --- markup and terminal escapes inside memory text ---------------------------


ESCAPES = (
    "\x1b[2J\x1b[H \x1b]52;c;cm0gLXJmIH4=\x07 \x9b31m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"
)
MARKUP = "[bold]x[/] [@click=app.quit]quit[/] [link=file:///etc/passwd]y[/link]"


def test_markup_and_escape_sequences_are_inert(store, capsys):
    events = EVENTS.replace("周末一起去看展", f"看展 {MARKUP} {ESCAPES}")
    candidate = CANDIDATE.replace("activate the venv", f"{ESCAPES} activate").replace(
        "pytest -q → 41 passed", "ran \x1b[8mhidden\x1b[0m"
    )
    root = make(
        store,
        {
            "facts.md": FACTS.replace("10.0.0.5", f"10.0.0.5 {MARKUP} {ESCAPES}"),
            "memory/events.md": events,
            "sops/deploy.md": f"# Deploy {ESCAPES}\n1. {MARKUP}\n",
            "pending/20261129-0007.md": candidate,
            "memory/user_profile.md": f"## 称呼 {ESCAPES}\n- {MARKUP}\n",
        },
    )
    (root / "sops" / "\x1b[2Jevil\x9b.md").write_text("# title\n")
    res = sweep(
        capsys,
        root,
        shows=(
            "fact:HOSTS",
            "E001",
            "sop:deploy",
            "20261129-0007",
            "file:facts.md",
            "sop:\x1b[2Jevil\x9b",
        ),
        queries=("10.0.0.5", "Deploy", "看展"),
    )
    code, out, _ = res["show fact:HOSTS"]
    assert code == 0
    assert "[bold]x[/]" in out and "[@click=app.quit]quit[/]" in out  # shown literally
    # JSON keeps the exact characters (escaped by JSON), so nothing is lost
    text = json.loads(res["show fact:HOSTS --json"][1])["text"]
    assert ESCAPES in text and MARKUP in text
    hits = json.loads(res["search 10.0.0.5 --json"][1])["hits"]
    assert any(ESCAPES in h["text"] for h in hits)
    assert "\x1b" not in res["search 10.0.0.5"][1]
    assert res["show sop:\x1b[2Jevil\x9b"][0] == 0
    check_subprocess(root)


def test_escape_sequences_never_reach_a_real_terminal_stream(store):
    """Byte-level check through real processes: no ESC, no C1, valid UTF-8."""
    root = make(store, {"facts.md": FACTS.replace("10.0.0.5", f"10.0.0.5 {ESCAPES}")})
    for argv in (("show", "fact:HOSTS"), ("search", "10.0.0.5"), ("list",), ("check",)):
        proc = subprocess.run(
            [sys.executable, "-m", "memtui", *argv, "--store", str(root)],
            capture_output=True,
            env={**os.environ, **ENV, "MEMTUI_TODAY": TODAY},
            timeout=60,
        )
        assert proc.returncode == 0, argv
        out = proc.stdout.decode("utf-8")
        assert not CONTROL.search(out), argv
        assert b"\x1b" not in proc.stdout and b"\xc2\x9b" not in proc.stdout


@pytest.mark.parametrize("ioencoding", [None, "utf-8"])
def test_file_name_that_is_not_utf8(store, ioencoding):
    """A file name with invalid UTF-8 bytes: output stays valid UTF-8, JSON stays JSON."""
    root = make(store)
    bad = os.path.join(os.fsencode(root), b"sops", b"\x9b2J\xff.md")
    with open(bad, "wb") as fh:
        fh.write(b"# weird name\n")
    before = tree_digest(root)
    env = {**os.environ, **ENV, "MEMTUI_TODAY": TODAY}
    if ioencoding:
        env["PYTHONIOENCODING"] = ioencoding  # strict errors, as under an en_US.UTF-8 locale
    for argv in (("check", "--json"), ("list", "--json"), ("search", "weird", "--json"), ("list",)):
        proc = subprocess.run(
            [sys.executable, "-m", "memtui", *argv, "--store", str(root)],
            capture_output=True,
            env=env,
            timeout=60,
        )
        err = proc.stderr.decode("utf-8", "replace")
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
        assert proc.returncode in (0, 1), argv
        out = proc.stdout.decode("utf-8")  # strict: no raw undecodable bytes
        assert not CONTROL.search(out) or "--json" in argv
        if "--json" in argv:
            json.loads(out)
    assert tree_digest(root) == before


# --- the store root itself ------------------------------------------------------


def test_store_that_is_not_a_folder(tmp_path, capsys):
    f = tmp_path / "file.md"
    f.write_text("x")
    for argv in (("check",), ("list", "--json"), ("search", "x")):
        code, _out, err = cli(capsys, *argv, "--store", str(f))
        assert code == 2 and "Traceback" not in err
    code, _, err = cli(capsys, "check", "--store", str(tmp_path / "missing"))
    assert code == 2 and "missing" in err


def test_empty_and_unknown_folder(tmp_path, capsys):
    root = tmp_path / "empty"
    root.mkdir()
    (root / "notes.txt").write_text("hello\n")
    before, paths = tree_digest(root), all_paths(root)
    for argv in [*VERBS, ("show", "file:notes.txt"), ("search", "hello")]:
        code, out, err = cli(capsys, *argv, "--store", str(root))
        assert (code, out) == (2, ""), argv  # not a store: a wrong call, nothing read
        assert "holds no memory store" in err and "index.txt" in err, argv
    assert tree_digest(root) == before and all_paths(root) == paths
