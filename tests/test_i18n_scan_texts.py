"""Issue 27's texts in the reader's language (issue 28): the `secret`, `entry-injection`
and `cut-correction` findings, their fixes' titles and refusals, a flagged approve's
refusal and `memtui purge` are templates whose English is what it was (JSON prints it)
and whose Chinese names the kind found in Chinese too; a secret's placeholder in the
file stays English (it is data)."""

from __future__ import annotations

import re

import pytest

from memtui.engine import open_store
from memtui.engine.fixes import plan
from memtui.engine.ops.common import Refused
from memtui.engine.scan.flagged import Flag, reason, refusal
from memtui.i18n import Msg, tr
from tests.conftest import write_tree
from tests.planted_stores import GH, finding_at, make
from tests.verb_calls import memtui

CJK = re.compile(r"[\u4e00-\u9fff]")
SCANNED = ("secret", "entry-injection")


def test_secret_and_injection_findings_name_their_kind_in_chinese(tmp_path, chinese):
    root = make(tmp_path, "workspace")
    found = [f.message for f in open_store(str(root)).findings if f.code in SCANNED]
    token, aws = (m for m in found if m.endswith("where it was issued"))
    assert isinstance(token, Msg)
    assert token.startswith("a GitHub token on line 3: memory goes to the model provider")
    assert tr(token).startswith("第 3 行有GitHub 令牌：")
    assert aws.startswith("an AWS access key on line 3")
    assert tr(aws).startswith("第 3 行有AWS 访问密钥：")
    planted = [m for m in found if "steers every later session" in m]
    assert planted[0].startswith("an instruction to ignore the system on line ")
    assert "有要求忽略系统提示的指令：" in tr(planted[0])
    for message in found:
        assert CJK.search(tr(message)) and not re.search(
            r"\b(token|key|instruction)\b", tr(message)
        )


def test_a_flagged_approves_refusal_reads_in_chinese(chinese):
    flags = [Flag("secret", "GitHub token"), Flag("entry-injection", "invisible character")]
    said = refusal("dsh:abc", flags)
    assert said == (
        "dsh:abc: its text holds a GitHub token, an invisible character; approving it would "
        "put that into the agent's memory. Reject it or edit it, or approve it anyway as "
        "flagged (--allow-flagged; the app asks), which the audit log records. Nothing was "
        "changed"
    )
    assert tr(said).startswith("dsh:abc：它的文本含有GitHub 令牌，不可见字符；")
    assert tr(reason(flags)) == tr(said).removeprefix("dsh:abc：")


def test_a_secrets_fix_title_is_chinese_and_its_placeholder_stays_english(tmp_path, chinese):
    root = make(tmp_path, "workspace")
    store = open_store(str(root))
    fix = plan(store, finding_at(root, "secret", "memory_deploy.md", 3))
    assert fix.title.startswith("replace the GitHub token and AWS access key at memory_deploy.md:3")
    chinese = tr(fix.title)
    assert "GitHub 令牌和AWS 访问密钥" in chinese
    assert "[REDACTED:GitHub token]" in chinese  # what the file will hold: data
    assert "撤销" in tr(fix.ask) or "undo" in tr(fix.ask)
    with pytest.raises(Refused) as got:
        plan(store, finding_at(root, "secret", "memory_deploy.md", 3), ("burn",))
    assert tr(str(got.value)) == "密钥只能用 redact 或 purge 修复，不能用 burn"


def test_an_injections_fix_title_is_chinese(tmp_path, chinese):
    root = make(tmp_path, "workspace")
    finding = finding_at(root, "entry-injection", "memory_odd.md", 3)
    fix = plan(open_store(str(root)), finding)
    assert fix.title == (
        "archive topic:odd, which holds the planted text (`memtui restore` brings it back)"
    )
    assert tr(fix.title) == "归档含有植入文本的 topic:odd（`memtui restore` 可以恢复）"


def test_purge_speaks_chinese_and_keeps_its_english(tmp_path):
    root = make(tmp_path, "workspace")
    zh = {"LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    listed = memtui(root, "purge", "memory_deploy.md", env=zh)
    assert listed.returncode == 0, listed.stderr
    assert "  1  GitHub 令牌  第 3 行，0 个快照中也有：" in listed.stdout
    assert GH not in listed.stdout
    english = memtui(root, "purge", "memory_deploy.md", env={"LANG": "C", "LC_ALL": ""})
    assert "  1  GitHub token  line 3, in 0 snapshot(s): " in english.stdout
    asked = memtui(root, "purge", "memory_deploy.md", "--secret", "1", env=zh)
    assert asked.returncode == 1
    assert "此操作无法撤销" in asked.stderr and "请用 --yes 确认" in asked.stderr
    dry = memtui(root, "purge", "memory_deploy.md", "--secret", "1", "--dry-run", env=zh)
    assert dry.returncode == 0, dry.stderr
    assert "将从 memory_deploy.md 本身及其 0 个快照中清除该GitHub 令牌" in dry.stdout
    wrong = memtui(root, "purge", "memory_deploy.md", "--secret", "9", "--yes", env=zh)
    assert "没有第 9 个密钥" in wrong.stderr


def test_a_correction_past_the_cut_and_its_fix_read_in_chinese(tmp_path, chinese):
    from tests.test_cut_correction import CASES

    root = write_tree(tmp_path / "claude", CASES["claude"][0])
    store = open_store(str(root))
    found = next(f for f in store.findings if f.code == "cut-correction")
    assert found.message.startswith(
        "line 207 is past the cut, not loaded, and says otherwise about 'deploy target' than "
        "line 1, which the agent loads and acts on (taken as newer: written later in the file"
    )
    assert tr(found.message).startswith(
        "第 207 行在截断处之后，不会被加载，它对“deploy target”的说法与第 1 行不同，"
        "而 Agent 加载并照做的正是那一行（视为较新：它在文件中写得更靠后"
    )
    fix = plan(store, found)
    assert tr(fix.title).startswith("用 MEMORY.md 第 207 行（截断处之后）替换较旧的第 1 行")
