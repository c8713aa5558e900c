"""Findings of the dsh layout (SPEC §3, §5): every code, its trigger and its near miss.

Stores follow seed 004 (`~/.dsh/memory`): index.txt (L1), facts.md (L2), sops/ (L3),
pending/ candidates, archive/ and the four JSON files. Each test compares the complete
list of (code, level, file, line) findings. Also here: layout detection for all three
layouts side by side.

Line convention assumed where SPEC §6 only says "1-based or null": whole-file findings
(l1-size, index-stale, a JSON file of the wrong shape) have no line; a candidate finding
points at line 1 (its front matter); a JSON parse error at the line the parser names.
"""

from __future__ import annotations

import json

import pytest

from memtui.engine.store import open_store
from tests.helpers import TODAY_DATE, expect, fact_meta, findings, line_of, with_changes

L0 = """# 记忆管理元规则（L0）

1. 行动验证：No Execution, No Memory。
2. 最小充分：只记"遗忘会导致高成本重试"的信息。
3. 不删改验证事实：可以压缩、迁移、supersede、archive，严禁物理丢弃。
"""

RULES = [
    "[RULES] No Execution, No Memory：只写验证成功的信息",
    "[RULES] 改 facts 前先 memory_read 对应 section",
    "[RULES] 易变状态（PID、临时路径、一次性 ID）不入记忆",
]
AUTO = ["[FACTS] PYTHON_ENV · GIT · DOCKER", "[SOPS] deploy_staging · fix_pip_ssl"]


def index_txt(rules: list[str] | None = None, auto: list[str] | None = None) -> str:
    lines = [*(RULES if rules is None else rules), "# --- auto ---"]
    lines += [*(AUTO if auto is None else auto), "# --- end auto ---"]
    return "\n".join(lines) + "\n"


def index_of(n: int) -> str:
    """An index.txt of exactly n lines: more hand-written rules, the same auto segment."""
    extra = [f"[RULES] 第 {i} 条：先查 sops/ 再动手" for i in range(n - len(RULES) - 4)]
    text = index_txt(RULES + extra)
    assert text.count("\n") == n
    return text


FACTS = """# 环境事实

## PYTHON_ENV
- venv 在 /opt/app/.venv，跑 pytest 前先激活
- 系统 python 是 3.11.7（pyenv 管理）

## GIT
- 公司 GitLab 的 ssh 端口是 2222

## DOCKER
- docker 命令需要 sudo；当前用户不在 docker 组
"""

SOP_DEPLOY = """---
title: 部署到 staging
tags: [deploy, staging]
created_at: 2026-11-12T10:00:00+08:00
---
# staging 部署

1. `make build`
2. `./scripts/deploy.sh staging`，等健康检查变绿
"""

SOP_PIP = """# 修复 pip SSL 报错

1. `pip config set global.cert /etc/ssl/certs/ca-certificates.crt`
2. 重试 `pip install`
"""

CANDIDATE = """---
id: 20261129-0007
entry_type: fact            # fact | sop
target: PYTHON_ENV          # a facts.md section, or a sop name
evidence: "pytest -q → 41 passed"
source_session: s-1f3a
source_seqs: [12, 13]
created_at: 2026-11-29T21:40:00+08:00
---
- the venv lives in /opt/app/.venv; activate it before pytest
"""

CANDIDATE_SOP = """---
id: 20261129-0008
entry_type: sop
target: restart_worker
evidence: "systemctl status worker → active (running)"
source_session: s-1f3a
source_seqs: [20]
created_at: 2026-11-29T21:52:00+08:00
---
1. `sudo systemctl restart worker`
2. `journalctl -u worker -n 50` 确认无报错
"""

META = {
    "version": 1,
    "entries": {
        "fact:PYTHON_ENV": fact_meta(
            sourceSession="s-1f3a",
            sourceSeqs=[12, 13],
            createdAt="2026-11-20T10:00:00+08:00",
            updatedAt="2026-11-20T10:00:00+08:00",
            acceptedFrom="pending/20261120-0002.md",
            supersedes=[],
        ),
        "sop:old_deploy": {"type": "sop", "status": "archived", "evidence": "deploy ok"},
    },
    "agentNote": "kept as is",
}
STATS = {
    "facts": 4,
    "sops": 2,
    "pending": 2,
    "accepted": 5,
    "rejected": 1,
    "archived": 1,
    "rollbacks": 0,
    "lastMaintenance": "2026-11-28T03:00:00+08:00",
}
REPORT = {
    "duplicatesFound": 1,
    "merged": 1,
    "indexLinesBefore": 9,
    "indexLinesAfter": 7,
    "time": "2026-11-28T03:00:00+08:00",
}
HEAT = {
    "facts.md": {"reads": 12, "lastRead": "2026-11-29T21:00:00+08:00"},
    "sops/deploy_staging.md": {"reads": 3, "lastRead": "2026-11-27T15:20:00+08:00"},
}


def dsh(changes: dict[str, str | None] | None = None) -> dict[str, str]:
    files: dict[str, str] = {
        "memory_management_sop.md": L0,
        "index.txt": index_txt(),
        "facts.md": FACTS,
        "sops/deploy_staging.md": SOP_DEPLOY,
        "sops/fix_pip_ssl.md": SOP_PIP,
        "pending/20261129-0007.md": CANDIDATE,
        "pending/20261129-0008.md": CANDIDATE_SOP,
        "archive/sops/old_deploy.md": "# 旧的部署步骤\n\n1. scp 上传\n",
        "archive/rejected/20261120-0003.md": "---\nid: 20261120-0003\nentry_type: fact\n"
        "target: GIT\nreason: 一次性状态\n---\n- 当前分支是 feat/x\n",
        "memory-meta.json": json.dumps(META, ensure_ascii=False, indent=2) + "\n",
        "memory_stats.json": json.dumps(STATS, indent=2) + "\n",
        "maintenance-report.json": json.dumps(REPORT, indent=2) + "\n",
        "file_access_stats.json": json.dumps(HEAT, indent=2) + "\n",
    }
    return with_changes(files, changes)


# --- a clean store, and what the model says about it ------------------------


def test_clean_dsh_has_no_findings_at_all(store):
    root = store(dsh())
    s = open_store(root, today=TODAY_DATE)
    assert s.layouts == ("dsh",)
    assert s.findings == ()


def test_clean_dsh_model_values(store):
    d = open_store(store(dsh()), today=TODAY_DATE).data.get("dsh")
    assert d is not None
    assert d.index_lines == 7
    assert d.rules == tuple(RULES)
    assert d.auto_segment == tuple(AUTO)
    assert [s.name for s in d.fact_sections] == ["PYTHON_ENV", "GIT", "DOCKER"]
    assert d.fact_sections[0].facts == (
        (4, "venv 在 /opt/app/.venv，跑 pytest 前先激活"),
        (5, "系统 python 是 3.11.7（pyenv 管理）"),
    )
    assert d.fact_sections[2].facts == ((11, "docker 命令需要 sudo；当前用户不在 docker 组"),)
    sops = {s.name: s for s in d.sops}
    assert sorted(sops) == ["deploy_staging", "fix_pip_ssl"]
    assert sops["deploy_staging"].file == "sops/deploy_staging.md"
    assert sops["deploy_staging"].title == "部署到 staging"  # front matter wins over `# `
    assert sops["deploy_staging"].meta["tags"] == ["deploy", "staging"]
    assert sops["deploy_staging"].meta["created_at"] == "2026-11-12T10:00:00+08:00"
    assert sops["fix_pip_ssl"].title == "修复 pip SSL 报错"  # no front matter: the heading
    assert d.archived == ("archive/rejected/20261120-0003.md", "archive/sops/old_deploy.md")
    assert d.provenance["fact:PYTHON_ENV"]["sourceSeqs"] == [12, 13]
    assert d.provenance["sop:old_deploy"]["status"] == "archived"
    assert d.stats["accepted"] == 5
    assert dict(d.heat) == {"facts.md": 12, "sops/deploy_staging.md": 3}


def test_clean_dsh_candidates(store):
    d = open_store(store(dsh()), today=TODAY_DATE).data.get("dsh")
    cands = {c.id: c for c in d.candidates}
    assert sorted(cands) == ["20261129-0007", "20261129-0008"]
    fact = cands["20261129-0007"]
    assert fact.file == "pending/20261129-0007.md"
    assert (fact.entry_type, fact.target) == ("fact", "PYTHON_ENV")
    assert fact.evidence == "pytest -q → 41 passed"
    assert fact.source_session == "s-1f3a"
    assert fact.source_seqs == (12, 13)
    assert fact.created_at == "2026-11-29T21:40:00+08:00"
    assert fact.body == "- the venv lives in /opt/app/.venv; activate it before pytest\n"
    assert fact.valid is True
    assert fact.to_json()["acceptable"] is True
    sop = cands["20261129-0008"]
    assert (sop.entry_type, sop.target, sop.source_seqs) == ("sop", "restart_worker", (20,))


# --- detection ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "dirs", "detected"),
    [
        (["index.txt", "facts.md"], [], True),
        (["index.txt", "sops/deploy_staging.md"], [], True),
        (["index.txt", "pending/20261129-0007.md"], [], True),
        (["index.txt"], ["pending"], True),  # an empty queue still says "dsh"
        (["index.txt"], ["sops"], True),
        (["index.txt"], [], False),
        (["index.txt", "archive/sops/old_deploy.md"], [], False),
        (["facts.md", "sops/deploy_staging.md", "pending/20261129-0007.md"], [], False),
    ],
)
def test_dsh_detection(store, names, dirs, detected):
    clean = dsh()
    root = store({name: clean[name] for name in names})
    for d in dirs:
        (root / d).mkdir()
    s = open_store(root, today=TODAY_DATE)
    assert ("dsh" in s.layouts) is detected
    assert (s.data.get("dsh") is not None) is detected


# --- l1-size -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "level"), [(24, None), (25, "warning"), (30, "warning"), (31, "error")]
)
def test_l1_size_boundaries(store, lines, level):
    root = store(dsh({"index.txt": index_of(lines)}))
    assert findings(root) == ([] if level is None else [("l1-size", level, "index.txt", None)])
    assert open_store(root, today=TODAY_DATE).data.get("dsh").index_lines == lines


def test_toml_l1_max_lines(store):
    files = dsh()
    files["memtui.toml"] = "[thresholds]\nl1_max_lines = 5\n"
    assert findings(store(files)) == [("l1-size", "error", "index.txt", None)]


def test_toml_l1_max_lines_near_miss(store):
    files = dsh()
    files["memtui.toml"] = "[thresholds]\nl1_max_lines = 7\n"
    assert findings(store(files)) == []


def test_toml_l1_warn_lines(store):
    files = dsh()
    files["memtui.toml"] = "[thresholds]\nl1_warn_lines = 7\n"
    assert findings(store(files)) == [("l1-size", "warning", "index.txt", None)]


# --- index-stale -------------------------------------------------------------


@pytest.mark.parametrize(
    "auto",
    [
        ["[FACTS] PYTHON_ENV · GIT · DOCKER", "[SOPS] deploy_staging"],  # a sop missing
        ["[FACTS] PYTHON_ENV · GIT · DOCKER · NODE_ENV", AUTO[1]],  # a gone section
        ["[FACTS] PYTHON_ENV · GIT", AUTO[1]],  # a section missing
        [AUTO[0], "[SOPS] deploy_staging · fix_pip_ssl · old_deploy"],  # an archived sop
        [AUTO[0]],  # no [SOPS] line at all
        [],  # an empty segment
    ],
)
def test_index_stale(store, auto):
    root = store(dsh({"index.txt": index_txt(auto=auto)}))
    assert findings(root) == [("index-stale", "warning", "index.txt", None)]


def test_index_stale_without_markers(store):
    text = "\n".join([*RULES, *AUTO]) + "\n"
    root = store(dsh({"index.txt": text}))
    assert findings(root) == [("index-stale", "warning", "index.txt", None)]
    assert open_store(root, today=TODAY_DATE).data.get("dsh").auto_segment is None


def test_index_stale_when_a_sop_is_added(store):
    root = store(dsh({"sops/restart_worker.md": "# 重启 worker\n\n1. systemctl restart\n"}))
    assert findings(root) == [("index-stale", "warning", "index.txt", None)]


@pytest.mark.parametrize(
    "auto",
    [
        ["[SOPS] fix_pip_ssl · deploy_staging", "[FACTS] DOCKER · PYTHON_ENV · GIT"],
        ["[FACTS] PYTHON_ENV·GIT·DOCKER", "[SOPS]  deploy_staging  ·  fix_pip_ssl "],
    ],
)
def test_index_not_stale_in_another_order_or_spacing(store, auto):
    assert findings(store(dsh({"index.txt": index_txt(auto=auto)}))) == []


# --- candidates ----------------------------------------------------------------


@pytest.mark.parametrize(
    "evidence_line",
    [None, 'evidence: ""', "evidence:", 'evidence: "   "', "evidence: ~"],
)
def test_pending_no_evidence(store, evidence_line):
    line = 'evidence: "pytest -q → 41 passed"\n'
    text = CANDIDATE.replace(line, "" if evidence_line is None else evidence_line + "\n")
    assert text != CANDIDATE
    root = store(dsh({"pending/20261129-0007.md": text}))
    assert findings(root) == [("pending-no-evidence", "warning", "pending/20261129-0007.md", 1)]
    cand = open_store(root, today=TODAY_DATE).data.get("dsh").candidates[0]
    assert cand.valid is True
    assert cand.to_json()["acceptable"] is False


BROKEN = {
    "no front matter": "- the venv lives in /opt/app/.venv\n",
    "unclosed": CANDIDATE.replace(
        "created_at: 2026-11-29T21:40:00+08:00\n---\n", "created_at: x\n"
    ),
    "entry_type note": CANDIDATE.replace("entry_type: fact ", "entry_type: note "),
    "entry_type missing": CANDIDATE.replace("entry_type: fact            # fact | sop\n", ""),
    "target missing": CANDIDATE.replace(
        "target: PYTHON_ENV          # a facts.md section, or a sop name\n", ""
    ),
    "target empty": CANDIDATE.replace("target: PYTHON_ENV ", "target: "),
    "invalid yaml": CANDIDATE.replace("source_seqs: [12, 13]", "source_seqs: [12, 13"),
    "not a mapping": "---\n- fact\n- PYTHON_ENV\n---\n- the venv lives in /opt/app/.venv\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_pending_bad_frontmatter(store, case):
    text = BROKEN[case]
    assert text != CANDIDATE
    root = store(dsh({"pending/20261129-0007.md": text}))
    assert findings(root) == [("pending-bad-frontmatter", "error", "pending/20261129-0007.md", 1)]
    cand = next(
        c
        for c in open_store(root, today=TODAY_DATE).data.get("dsh").candidates
        if c.file.endswith("7.md")
    )
    assert cand.valid is False


def test_comments_and_quotes_in_front_matter_are_fine(store):
    text = CANDIDATE.replace('evidence: "pytest -q → 41 passed"', "evidence: 'pytest: 41 passed'")
    root = store(dsh({"pending/20261129-0007.md": text}))
    assert findings(root) == []
    assert (
        open_store(root, today=TODAY_DATE).data.get("dsh").candidates[0].evidence
        == "pytest: 41 passed"
    )


# --- fact-duplicate --------------------------------------------------------------


def test_fact_duplicate_reports_the_second(store):
    text = FACTS.replace(
        "- 系统 python 是 3.11.7（pyenv 管理）\n",
        "- 系统 python 是 3.11.7（pyenv 管理）\n- venv 在 /opt/app/.venv，跑 pytest 前先激活\n",
    )
    root = store(dsh({"facts.md": text}))
    assert findings(root) == [("fact-duplicate", "warning", "facts.md", line_of(text, "venv", 2))]


def test_fact_duplicate_ignores_spacing(store):
    text = FACTS + "- 公司 GitLab 的  ssh 端口是   2222\n"
    root = store(dsh({"facts.md": text}))
    assert findings(root) == [("fact-duplicate", "warning", "facts.md", line_of(text, "2222", 2))]


def test_similar_facts_are_not_duplicates(store):
    text = FACTS.replace(
        "- 公司 GitLab 的 ssh 端口是 2222\n",
        "- 公司 GitLab 的 ssh 端口是 2222\n- 个人 GitHub 的 ssh 端口是 443\n",
    )
    assert findings(store(dsh({"facts.md": text}))) == []


# --- json-invalid ----------------------------------------------------------------

BAD_JSON = {
    "memory-meta.json": (
        '{\n  "version": 1,\n  "entries": {\n'
        '    "fact:PYTHON_ENV": {"type": "fact", "status": "active",}\n  }\n}\n',
        4,
    ),
    "memory_stats.json": ('{\n  "facts": 4,\n  "sops": ,\n  "pending": 2\n}\n', 3),
    "maintenance-report.json": ("", 1),  # the agent died before writing a byte
    "file_access_stats.json": (
        '{\n  "facts.md": {"reads": 12, "lastRead": "2026-11-29T21:00:00+08:00"},\n'
        '  "sops/deploy_staging.md": {"reads": 3, "lastRead": "2026-11-2',
        3,
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_JSON))
def test_json_invalid_does_not_parse(store, name):
    text, line = BAD_JSON[name]
    root = store(dsh({name: text}))
    assert findings(root) == [("json-invalid", "error", name, line)]


WRONG_SHAPE = [
    ("memory-meta.json", "[]"),
    ("memory-meta.json", '{"version": 1, "entries": []}'),
    ("memory-meta.json", '{"version": 1, "entries": {"fact:GIT": "active"}}'),
    ("memory_stats.json", "[4, 2, 2]"),
    ("maintenance-report.json", '"ok"'),
    ("maintenance-report.json", "null"),
    ("file_access_stats.json", "[]"),
    ("file_access_stats.json", '{"facts.md": 12}'),
    ("file_access_stats.json", '{"facts.md": {"reads": "12", "lastRead": "2026-11-29"}}'),
]


@pytest.mark.parametrize(("name", "text"), WRONG_SHAPE)
def test_json_invalid_wrong_shape(store, name, text):
    root = store(dsh({name: text + "\n"}))
    assert findings(root) == [("json-invalid", "error", name, None)]


def test_json_unknown_keys_are_fine(store):
    meta = {"version": 2, "entries": {}, "x-agent": {"build": 7}}
    heat = {"facts.md": {"reads": 1, "lastRead": "2026-11-29T08:00:00Z", "bytes": 420}}
    root = store(
        dsh({"memory-meta.json": json.dumps(meta), "file_access_stats.json": json.dumps(heat)})
    )
    assert findings(root) == []
    assert dict(open_store(root, today=TODAY_DATE).data.get("dsh").heat) == {"facts.md": 1}


# --- all three layouts side by side ---------------------------------------------

WORKSPACE = {
    "soul.md": "# XiaoPaw\n\n## 名字\nXiaoPaw\n\n## 性格\n- 耐心\n",
    "user.md": "# 用户档案\n\n## 偏好\n- 回复控制在 200 字以内\n",
    "agent.md": "# 行为规范\n\n## 回复风格\n- [2026-10-02] 先给结论\n",
    "memory.md": "# XiaoPaw 记忆索引\n\n## 用户偏好\n→ 详见 user.md（Bootstrap 直接注入）\n\n"
    "## 工作项目\n- 极客时间课程进度 → memory_course.md\n",
    "memory_course.md": "# 课程\n\n- 第 16 课已录完\n",
}

COMPANION_EVENTS = """# 事件记录

### [E001] 2026-11-20 · 约定
**类型**：约定
**内容**：周末一起看《星际穿越》重映
**用户状态**：期待
**后续**：周日前提醒买票
**状态**：待跟进
**到期日**：2026-12-06

### [E000] 2026-11-29T21:40 · last_active
"""

COMPANION = {
    "memory/persona.md": "# 小暖\n\n【在对话中形成的新细节】\n• [2026-11-02] 下雨天喜欢泡姜茶\n",
    "memory/events.md": COMPANION_EVENTS,
    "memory/mood_state.md": "valence: 0.15\nenergy: 0.55\n\n"
    "### 2026-11-29T21:40 · source=conversation\nvalence: 0.15\nenergy: 0.55\nnote: 聊得开心\n",
    "MEMORY.md": "# 小暖的长期记忆\n\n## 【最近未解决事项】\n"
    "- [E001] 周末看电影（到期日 2026-12-06）\n",
}


def three_layouts() -> dict[str, str]:
    files = {**WORKSPACE, **COMPANION, **dsh()}
    files.pop("memory_management_sop.md")
    return files


def test_three_layouts_side_by_side(store):
    root = store(three_layouts())
    s = open_store(root, today=TODAY_DATE)
    assert s.layouts == ("workspace", "companion", "dsh")
    assert (
        s.data.get("workspace") is not None
        and s.data.get("companion") is not None
        and s.data.get("dsh") is not None
    )
    assert s.findings == ()
    assert [p.target for p in s.data.get("workspace").pointers] == ["user.md", "memory_course.md"]
    assert [e.label for e in s.data.get("companion").events] == ["E001", "E000"]
    assert len(s.data.get("dsh").candidates) == 2


def test_dsh_meta_rules_file_is_not_a_workspace_topic(store):
    # memory_management_sop.md is dsh's L0 file; beside a workspace it is no orphan topic.
    files = three_layouts()
    files["memory_management_sop.md"] = L0
    root = store(files)
    assert findings(root) == []


def test_findings_from_several_layouts_at_once(store):
    files = {**COMPANION, **dsh()}
    files.pop("memory_management_sop.md")  # see the test above
    files["memory/events.md"] = COMPANION_EVENTS.replace(
        "\n### [E000] 2026-11-29T21:40 · last_active\n", ""
    )
    files["index.txt"] = index_of(25)
    files["memory.md"] = WORKSPACE["memory.md"] + "课程第 17 课下周开录\n"
    files["user.md"] = WORKSPACE["user.md"]
    root = store(files)
    s = open_store(root, today=TODAY_DATE)
    assert s.layouts == ("workspace", "companion", "dsh")
    assert findings(root) == expect(
        ("sentinel-missing", "info", "memory/events.md", None),
        ("l1-size", "warning", "index.txt", None),
        ("index-content", "warning", "memory.md", 8),
        ("pointer-missing", "error", "memory.md", 7),
    )
