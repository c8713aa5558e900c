"""Letta Code's MemFS (SPEC §3b "More agents") on repositories no one here wrote, as real
git repositories: detection (and no other layout's folder claimed), what the agent is
given (the committed HEAD, compiled exactly as letta-code compiles it), each finding
where it is due and nowhere else, edits and archives that go through memtui's
transaction and then one git commit, the refusals that write nothing, and the demo.

Letta's rules, restated from letta-ai/letta-code: src/backend/local/
system-prompt-compilation.ts (HEAD's .md files; <self>, the <memory> tag tree,
<external_projection>), src/utils/frontmatter.ts (the body), src/agent/memory-git-hooks.ts
(the pre-commit hook: front matter with a non-empty description, known keys, read_only),
src/cli/helpers/system-prompt-warning.ts (30,000 tokens at 4 bytes a token).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from memtui.demo.common import Sink
from memtui.engine.store import layouts_at, open_store
from memtui.layouts.letta import git as letta_git
from memtui.layouts.letta.detect import LettaDetection
from memtui.layouts.letta.rules import locale_key
from tests.conftest import tree_digest, write_tree
from tests.helpers import TODAY_DATE
from tests.hostile_calls import cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git binary")

DOCTOR_TOKENS = 30_000  # STARTUP_SYSTEM_PROMPT_WARNING_THRESHOLD_TOKENS
AGENT = "agent-1@letta.com"  # letta-code commits as <agent-id>@letta.com


@pytest.fixture(autouse=True)
def _own_git_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """No user's git settings (a signing key, an identity) reach these repositories."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def sh(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "Agent", "GIT_AUTHOR_EMAIL": AGENT,
           "GIT_COMMITTER_NAME": "Agent", "GIT_COMMITTER_EMAIL": AGENT}  # fmt: skip
    done = subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def repo(root: Path, files: dict[str, str | bytes], *, commit: bool = True) -> Path:
    """A memory repository holding `files`, committed by the agent."""
    root.mkdir(parents=True, exist_ok=True)
    write_tree(root, files)
    sh(root, "init", "-q", "-b", "main", "--template=")
    if commit:
        sh(root, "add", "-A")
        sh(root, "commit", "-q", "-m", "init")
    return root


def block(description: str, body: str) -> str:
    return f"---\ndescription: {description}\n---\n{body}"


BASIC = {
    "system/persona.md": block("Who I am", "I am Wren.\n"),
    "system/human.md": block("The human", "Dana likes small pull requests.\n"),
    "reference/deploy.md": block("Deploys", "main deploys to staging.\n"),
}


def memory_digest(root: Path) -> dict[str, str]:
    """Every file but memtui's own and git's folder (a refused write may leave memtui's
    lock, and the line in .git/info/exclude that keeps git from listing it)."""
    own = (".history/", ".memory.lock", ".git/")
    return {rel: d for rel, d in tree_digest(root).items() if not rel.startswith(own)}


def codes(root: Path) -> list[tuple[str, str, str | None]]:
    store = open_store(root, today=TODAY_DATE)
    return sorted((f.code, f.level, f.file) for f in store.findings)


def context_text(capsys, root: Path) -> tuple[str, list[dict]]:
    code, out, err = cli(capsys, "context", "--json", "--store", str(root))
    assert code == 0, err
    files = next(lay["files"] for lay in json.loads(out)["layouts"] if lay["layout"] == "letta")
    # The pieces the agent is given (a file it does not load is listed with no text).
    return "\n".join(f["text"] for f in files if f["text"] and "unreadable" not in f), files


# --- detection -------------------------------------------------------------------------


def test_a_git_repository_with_fronted_system_blocks_is_letta_and_nothing_else(tmp_path):
    assert layouts_at(str(repo(tmp_path / "mem", BASIC))) == ("letta",)


def test_blocks_only_in_subfolders_of_system_are_found(tmp_path):
    root = repo(tmp_path / "mem", {"system/human/prefs.md": block("Prefs", "Short answers.\n")})
    assert layouts_at(str(root)) == ("letta",)


def test_system_notes_without_front_matter_are_not_letta(tmp_path):
    docs = repo(tmp_path / "docs", {"system/overview.md": "# System overview\n"})
    assert "letta" not in layouts_at(str(docs))


def test_a_copy_without_its_own_repository_is_read_as_it_would_compile(tmp_path, capsys):
    outer = repo(tmp_path / "backup", {"README.md": "Backups of our agents.\n"})
    root = write_tree(outer / "agents/agent-1/memfs", dict(BASIC))
    assert layouts_at(str(root)) == ("letta",)
    assert codes(root) == [("letta-no-repo", "info", None)]
    text, _ = context_text(capsys, root)
    assert "<self>" in text and "I am Wren." in text and "Dana likes" in text
    code, out, err = edit(capsys, root, "system/human.md", block("The human", "Changed.\n"))
    assert code == 0, err
    assert "NOT committed" in out and not (root / ".git").exists()
    assert sh(outer, "status", "--porcelain", "--", "README.md") == ""


def test_a_site_page_with_front_matter_is_not_letta_without_a_repository(tmp_path):
    page = "---\ntitle: System\ndescription: How it works\n---\nText.\n"
    assert "letta" not in layouts_at(str(write_tree(tmp_path / "site", {"system/a.md": page})))


def test_usual_places_are_the_agents_folders_and_the_env_vars(tmp_path):
    (tmp_path / ".letta/agents/agent-1").mkdir(parents=True)
    (tmp_path / ".letta/lc-local-backend/memfs/agent-2").mkdir(parents=True)
    env = {"LETTA_MEMORY_DIR": "/srv/mem", "MEMORY_DIR": ""}
    got = LettaDetection().usual_places(str(tmp_path), env)
    assert got == [
        str(tmp_path / ".letta/agents/agent-1/memory"),
        str(tmp_path / ".letta/lc-local-backend/memfs/agent-2/memory"),
        "/srv/mem",
    ]


# --- what the agent is given -----------------------------------------------------------

# A repository with every shape the compilation meets: nested blocks under a block,
# a folder of blocks only, CRLF, a BOM, no front matter, a description that is a list,
# an empty body, names that sort by ICU (a_b < a-b < ab; a < Zeta), a name git quotes,
# skills (left out), external files in folders and at the top.
TRICKY: dict[str, str | bytes] = {
    "system/persona.md": "---\ndescription: me\n---\nI am X.\n\n",
    "system/human.md": "---\ndescription:  Human  \nlimit: 5000\n---\n\nLine one\n"
    "  indented two\n\n\n",
    "system/human/prefs/a.md": block("prefs a", "A pref\n"),
    "system/human/prefs/Zeta.md": block("Z upper", "Z\n"),
    "system/team/crlf.md": "---\r\ndescription: crlf\r\n---\r\nCR body\r\nline2\r\n",
    "system/team/bom.md": b"\xef\xbb\xbf---\ndescription: bom\n---\nBOM body\n",
    "system/nofm.md": "no front matter here\n\n",
    "system/arr.md": "---\ndescription:\n  - a\n  - b\n---\narray desc\n",
    "system/empty.md": "---\ndescription: only\n---",
    "system/café.md": block("cafe", "accent\n"),
    "system/a_b.md": block("u", "under\n"),
    "system/a-b.md": block("d", "dash\n"),
    "system/ab.md": block("ab", "ab\n"),
    "reference/m300/hw.md": block("r", "ref\n"),
    "reference/top.md": "x\n",
    "skills/foo/SKILL.md": "skill\n",
    "notes/B.md": "n\n",
    "notes/a.md": "n\n",
    "ARCHIVE.md": "arch\n",
    "image.png": b"\x89PNG",
}

# What letta-code's renderMemfsProjection returns for TRICKY: its functions run by
# Node on this very repository (system-prompt-compilation.ts at letta-code 1f4d3e3).
TRICKY_PROMPT = """\
Reminder: <projection> contains the local path of the memory file projection.

<self>
<projection>$MEMORY_DIR/system/persona.md</projection>
I am X.
</self>

<memory>
<a_b>
  <projection>$MEMORY_DIR/system/a_b.md</projection>
  <description>u</description>
  under
</a_b>
<a-b>
  <projection>$MEMORY_DIR/system/a-b.md</projection>
  <description>d</description>
  dash
</a-b>
<ab>
  <projection>$MEMORY_DIR/system/ab.md</projection>
  <description>ab</description>
  ab
</ab>
<arr>
  <projection>$MEMORY_DIR/system/arr.md</projection>
  array desc
</arr>
<empty>
  <projection>$MEMORY_DIR/system/empty.md</projection>
  <description>only</description>
</empty>
<human>
  <projection>$MEMORY_DIR/system/human.md</projection>
  <description>Human</description>
  Line one
  indented two
  <prefs>
    <a>
      <projection>$MEMORY_DIR/system/human/prefs/a.md</projection>
      <description>prefs a</description>
      A pref
    </a>
    <Zeta>
      <projection>$MEMORY_DIR/system/human/prefs/Zeta.md</projection>
      <description>Z upper</description>
      Z
    </Zeta>
  </prefs>
</human>
<nofm>
  <projection>$MEMORY_DIR/system/nofm.md</projection>
  no front matter here
</nofm>
<team>
  <bom>
    <projection>$MEMORY_DIR/system/team/bom.md</projection>
    <description>bom</description>
    BOM body
  </bom>
  <crlf>
    <projection>$MEMORY_DIR/system/team/crlf.md</projection>
    <description>crlf</description>
    CR body
line2
  </crlf>
</team>
<external_projection>
${MEMORY_DIR}/
├── notes/
│   ├── a.md
│   └── B.md
├── reference/
│   ├── m300/
│   │   └── hw.md
│   └── top.md
└── ARCHIVE.md
</external_projection>
</memory>"""


def test_context_is_exactly_what_letta_code_compiles_from_head(tmp_path, capsys):
    root = repo(tmp_path / "mem", TRICKY)
    text, files = context_text(capsys, root)
    assert text == TRICKY_PROMPT
    by_file = {f["file"]: f for f in files}
    assert by_file["system/persona.md"]["text"].startswith("Reminder: <projection>")
    assert "<self>" in by_file["system/persona.md"]["text"]
    assert "CR body" in by_file["system/team/crlf.md"]["text"]
    assert by_file["notes/B.md"]["text"] == "│   └── B.md"
    assert "skills/foo/SKILL.md" not in by_file


def test_a_hidden_committed_file_is_listed_as_the_agent_lists_it(tmp_path, capsys):
    root = repo(tmp_path / "mem", {**BASIC, ".notes/todo.md": "hidden\n"})
    text, files = context_text(capsys, root)
    assert "├── .notes/\n│   └── todo.md" in text
    assert not any("unreadable" in f for f in files)


def test_a_name_git_quotes_is_never_loaded_and_said(tmp_path, capsys):
    root = repo(tmp_path / "mem", TRICKY)
    text, _ = context_text(capsys, root)
    assert "accent" not in text
    found = [f for f in codes(root) if f[0] == "letta-name-unloaded"]
    assert found == [("letta-name-unloaded", "warning", "system/café.md")]


def test_context_shows_head_and_names_what_is_not_committed(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    (root / "system/human.md").write_text(block("The human", "Dana moved to Porto.\n"))
    (root / "system/new.md").write_text(block("New", "Not committed yet.\n"))
    text, files = context_text(capsys, root)
    assert "Dana likes small pull requests." in text
    assert "Porto" not in text and "Not committed yet" not in text
    by_file = {f["file"]: f for f in files}
    assert "text" in by_file["system/new.md"] and by_file["system/new.md"]["text"] == ""
    found = [f for f in codes(root) if f[0] == "letta-uncommitted"]
    assert found == [
        ("letta-uncommitted", "warning", "system/human.md"),
        ("letta-uncommitted", "warning", "system/new.md"),
    ]


# Names as Node's `localeCompare` (ICU) sorts them, which the compilation sorts by: a
# name with a character past ASCII never reaches it (git quotes it), these all do.
NODE_SORTED = ["-", "-X~", ".", ".+#", "(#~", ")", ")(X", ")$(", "@.", "@)", "@#a", "@b-",
               "#9", "+", "+$(", "+0", "+9$", "$$#", "0", "0@", "9", "a_b", "a-b", "a.b",
               "ab", "aB", "Ab", "b", "B", "X-", "Xb", "XY"]  # fmt: skip


def test_names_sort_as_javascripts_locale_compare():
    assert sorted(reversed(NODE_SORTED), key=locale_key) == NODE_SORTED


# --- findings ---------------------------------------------------------------------------


def test_a_clean_repository_has_no_finding(tmp_path):
    assert codes(repo(tmp_path / "mem", BASIC)) == []


def test_front_matter_the_memory_tool_and_the_hook_refuse_is_found(tmp_path):
    root = repo(tmp_path / "mem", {
        **BASIC,
        "system/bare.md": "No front matter.\n",
        "system/nodesc.md": "---\nlimit: 500\n---\nBody\n",
        "reference/odd.md": "---\ndescription: x\ncolor: red\n---\nBody\n",
        "notes/free.md": "Outside system/ and reference/: the hook does not look.\n",
        "skills/x/SKILL.md": "---\nname: x\n---\nSkill front matter is its own.\n",
    })  # fmt: skip
    assert codes(root) == [  # odd.md: the memory tool drops `color` on its first edit
        ("letta-description", "warning", "system/nodesc.md"),
        ("letta-frontmatter", "warning", "system/bare.md"),
    ]


def test_a_committed_crlf_block_is_no_finding_as_the_memory_tool_reads_it(tmp_path):
    crlf = "---\r\ndescription: Windows\r\n---\r\nBody\r\n"
    root = repo(tmp_path / "mem", {**BASIC, "system/win.md": crlf})
    assert codes(root) == []


def test_an_uncommitted_change_the_hook_refuses_is_an_error(tmp_path):
    root = repo(tmp_path / "mem", BASIC)
    (root / "system/human.md").write_text("No front matter now.\n")
    assert ("letta-frontmatter", "error", "system/human.md") in codes(root)


def test_a_read_only_block_changed_is_what_the_hook_refuses(tmp_path):
    root = repo(tmp_path / "mem", {**BASIC, "system/rules.md": "---\ndescription: r\n"
                                   "read_only: true\n---\nKept by the server.\n"})  # fmt: skip
    assert codes(root) == []
    (root / "system/rules.md").write_text("---\ndescription: r\nread_only: true\n---\nEdited.\n")
    got = [c for c in codes(root) if c[2] == "system/rules.md"]
    assert ("letta-frontmatter", "error", "system/rules.md") in got


def test_system_past_the_doctor_estimate_is_a_warning(tmp_path):
    body = "x" * (DOCTOR_TOKENS * 4)  # with its front matter, past 30,000 tokens
    root = repo(tmp_path / "mem", {**BASIC, "system/big.md": block("Big", body)})
    assert ("letta-prompt-size", "warning", "system/big.md") in codes(root)
    small = repo(tmp_path / "small", {**BASIC, "system/big.md": block("Big", "x" * 1000)})
    assert codes(small) == []


def test_a_block_past_its_legacy_limit_is_only_said(tmp_path):
    root = repo(tmp_path / "mem", {**BASIC, "system/notes.md": "---\ndescription: n\n"
                                   "limit: 10\n---\nThis body is longer than ten.\n"})  # fmt: skip
    assert codes(root) == [("letta-limit", "info", "system/notes.md")]


def test_without_git_the_repository_says_so(tmp_path, monkeypatch, capsys):
    root = repo(tmp_path / "mem", BASIC)
    monkeypatch.setattr(letta_git.shutil, "which", lambda _name: None)
    assert ("letta-git", "error", None) in codes(root)
    new = tmp_path / "new.md"
    new.write_text(block("The human", "Changed.\n"))
    before = memory_digest(root)
    code, _out, err = cli(capsys, "edit", "letta:system/human.md", "--text-file", str(new),
                          "--store", str(root))  # fmt: skip
    assert code == 1 and "git is not installed" in err
    assert memory_digest(root) == before


# --- writes: the transaction, then one commit -------------------------------------------


def edit(capsys, root: Path, rel: str, text: str, *more: str) -> tuple[int, str, str]:
    new = root.parent / "new-text.md"
    new.write_text(text, encoding="utf-8")
    return cli(capsys, "edit", f"letta:{rel}", "--text-file", str(new), "--store", str(root),
               *more)  # fmt: skip


def test_an_edit_is_committed_and_the_agent_loads_it(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    code, out, err = edit(capsys, root, "system/human.md", block("The human", "Dana: Porto.\n"))
    assert code == 0, err
    assert "git: committed" in out
    assert sh(root, "status", "--porcelain") == ""  # memtui's lock and .history ignored
    assert (
        sh(root, "log", "-1", "--format=%s|%ae")
        == "memtui: edit system/human.md|memtui@localhost\n"
    )
    text, _ = context_text(capsys, root)
    assert "Dana: Porto." in text
    assert codes(root) == []


def test_a_worktree_of_the_repository_is_edited_and_committed_too(tmp_path, capsys):
    main = repo(tmp_path / "main", BASIC)
    sh(main, "worktree", "add", "-q", str(tmp_path / "wt"))
    root = tmp_path / "wt"  # its .git is a file naming the main repository's folder
    assert layouts_at(str(root)) == ("letta",)
    code, out, err = edit(capsys, root, "system/human.md", block("The human", "In a worktree.\n"))
    assert code == 0 and "git: committed" in out, err
    assert sh(root, "status", "--porcelain") == ""


def test_an_undo_is_committed_too(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    before = memory_digest(root)
    assert edit(capsys, root, "system/human.md", block("The human", "Undone soon.\n"))[0] == 0
    code, out, err = cli(capsys, "undo", "--store", str(root))
    assert code == 0 and "git: committed" in out, err
    assert memory_digest(root) == before
    assert sh(root, "status", "--porcelain") == ""
    assert sh(root, "log", "-1", "--format=%s") == "memtui: undo system/human.md\n"


def test_an_edit_the_hook_would_refuse_writes_nothing(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    before, head = memory_digest(root), sh(root, "rev-parse", "HEAD")
    code, _out, err = edit(capsys, root, "system/human.md", "---\nlimit: 9\n---\nNo description.\n")
    assert code == 1 and "missing required field 'description'" in err
    assert memory_digest(root) == before and sh(root, "rev-parse", "HEAD") == head


def test_a_read_only_block_is_not_edited(tmp_path, capsys):
    ro = "---\ndescription: r\nread_only: true\n---\nKept by the server.\n"
    root = repo(tmp_path / "mem", {**BASIC, "system/rules.md": ro})
    before = memory_digest(root)
    code, _out, err = edit(capsys, root, "system/rules.md", ro.replace("Kept", "Changed"))
    assert code == 1 and "read_only" in err
    assert memory_digest(root) == before


def test_a_commit_the_hook_refuses_leaves_the_change_uncommitted_and_says_so(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    hook = root / ".git/hooks/pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\necho 'Frontmatter validation failed: policy'\nexit 1\n")
    hook.chmod(0o755)
    head = sh(root, "rev-parse", "HEAD")
    code, out, err = edit(capsys, root, "system/human.md", block("The human", "Kept anyway.\n"))
    assert code == 0, err
    assert "NOT committed" in out and "Frontmatter validation failed: policy" in out
    assert sh(root, "rev-parse", "HEAD") == head
    assert "Kept anyway." in (root / "system/human.md").read_text()
    assert sh(root, "diff", "--cached", "--name-only") == ""  # unstaged again, as letta does
    assert ("letta-uncommitted", "warning", "system/human.md") in codes(root)


@pytest.mark.parametrize("busy", ["index.lock", "MERGE_HEAD", "rebase-merge"])
def test_a_busy_git_refuses_the_write(tmp_path, capsys, busy):
    root = repo(tmp_path / "mem", BASIC)
    path = root / ".git" / busy
    path.mkdir() if busy == "rebase-merge" else path.write_text("")
    before = memory_digest(root)
    code, _out, err = edit(capsys, root, "system/human.md", block("The human", "Changed.\n"))
    assert code == 1 and "nothing" in err
    assert memory_digest(root) == before


def test_archive_takes_a_block_out_of_system_and_restore_brings_it_back(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    before = memory_digest(root)
    code, out, err = cli(capsys, "archive", "letta:system/human.md", "--store", str(root))
    assert code == 0, err
    assert "git: committed" in out
    assert not (root / "system/human.md").exists()
    text, _ = context_text(capsys, root)
    assert "<human>" not in text and "│       └── human.md" in text  # its path only, now
    assert sh(root, "status", "--porcelain") == ""
    code, _out, err = cli(capsys, "restore", "letta:system/human.md", "--store", str(root))
    assert code == 0, err
    assert memory_digest(root) == before
    assert sh(root, "log", "--format=%s").splitlines()[:2] == [
        "memtui: restore archive/system/human.md (to system/human.md)",
        "memtui: archive system/human.md (to archive/system/human.md)",
    ]


def test_a_file_outside_system_is_not_archived(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    code, _out, err = cli(capsys, "archive", "letta:reference/deploy.md", "--store", str(root))
    assert code == 1 and "not in system/" in err


def test_show_gives_the_files_git_history(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    assert edit(capsys, root, "system/human.md", block("The human", "Second.\n"))[0] == 0
    code, out, err = cli(capsys, "show", "--json", "letta:system/human.md", "--store", str(root))
    assert code == 0, err
    log = json.loads(out)["git"]["log"]
    assert [c["subject"] for c in log] == ["memtui: edit system/human.md", "init"]


def test_memtui_history_lists_the_files_commits_beside_its_snapshots(tmp_path, capsys):
    root = repo(tmp_path / "mem", BASIC)
    assert edit(capsys, root, "system/human.md", block("The human", "Second.\n"))[0] == 0
    code, out, err = cli(capsys, "history", "--json", "system/human.md", "--store", str(root))
    assert code == 0, err
    got = json.loads(out)
    assert len(got["snapshots"]) == 1  # memtui's own, of the version it replaced
    commits = got["agent_history"]
    assert [(c["layout"], c["what"], c["who"]) for c in commits] == [
        ("letta", "memtui: edit system/human.md", "memtui"),
        ("letta", "init", "Agent"),
    ]
    code, out, _err = cli(capsys, "history", "system/human.md", "--store", str(root))
    assert code == 0 and f"letta {commits[1]['version']}" in out and "  init" in out


# --- the demo -----------------------------------------------------------------------------


def test_the_demo_is_a_real_repository_the_same_every_time(tmp_path):
    heads = []
    for n in (1, 2):
        sink = Sink(tmp_path / f"d{n}")
        got = demo(sink)
        assert got == {"letta_files": 4, "letta_commits": 3}
        root = tmp_path / f"d{n}" / "letta"
        assert layouts_at(str(root)) == ("letta",)
        heads.append(sh(root, "rev-parse", "HEAD"))
        assert sh(root, "status", "--porcelain") == " M system/human.md\n"
    assert heads[0] == heads[1]


def test_without_git_the_demo_writes_the_files_and_says_so(tmp_path, monkeypatch):
    from memtui.layouts.letta import demo as letta_demo

    monkeypatch.setattr(letta_demo.shutil, "which", lambda _name: None)
    got = demo(Sink(tmp_path))
    assert got == {"letta_files": 4, "letta_commits": 0}
    assert "git was not found" in (tmp_path / "letta/NO-GIT.txt").read_text()
    assert (tmp_path / "letta/system/persona.md").is_file()


def demo(sink: Sink) -> dict[str, int]:
    from memtui.layouts.letta.demo import build_letta

    return build_letta(sink, random.Random("memtui-demo/letta/1"), 1, TODAY_DATE)
