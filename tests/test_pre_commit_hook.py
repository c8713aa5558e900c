"""The memtui-check hook (.pre-commit-hooks.yaml), run by pre-commit itself against a
sample git repository holding a store: it fails with errors and passes a clean store.

Offline: `pre-commit try-repo` clones this checkout (its uncommitted changes included)
and pip-installs it into the hook's own virtualenv, which needs an index. With
PIP_NO_INDEX, PIP_NO_DEPS and build isolation off, and this environment's packages on
PYTHONPATH (hatchling to build, textual & co. to run), the install is the real one of
the checkout, made without a network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import write_tree

from tests.helpers import REPO

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (REPO / ".git").exists(),
    reason="needs git and a git checkout of memtui (pre-commit clones the hook's repository)",
)

CLEAN = {
    "memory.md": "# 索引\n\n## 工作\n- 笔记 → memory_notes.md\n",
    "memory_notes.md": "# 笔记\n",
}
BROKEN = {**CLEAN, "memory.md": CLEAN["memory.md"] + "- 丢失 → memory_missing.md\n"}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def run_hook(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "PIP_NO_INDEX": "1",
        "PIP_NO_DEPS": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads this "no-" option inverted: isolation off
        "PYTHONPATH": sysconfig.get_paths()["purelib"],
    }
    env.pop("MEMTUI_DEBUG", None)
    pre_commit = [sys.executable, "-m", "pre_commit"]
    return subprocess.run(
        [*pre_commit, "try-repo", str(REPO), "memtui-check", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=110,
    )


@pytest.fixture
def sample_repo(tmp_path: Path):
    def make(files: dict[str, str]) -> Path:
        repo = write_tree(tmp_path / "repo", files)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "memory")
        return repo

    return make


def test_the_hook_passes_a_clean_store(sample_repo, tmp_path):
    res = run_hook(sample_repo(CLEAN), tmp_path / "pre-commit-home")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "memtui check" in res.stdout and "Passed" in res.stdout


def test_the_hook_fails_a_store_with_errors(sample_repo, tmp_path):
    res = run_hook(sample_repo(BROKEN), tmp_path / "pre-commit-home")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Failed" in res.stdout
    assert "memory.md:5  pointer-missing" in res.stdout  # what to fix, in the hook's output


def test_the_hook_fails_a_store_holding_a_secret_without_printing_it(sample_repo, tmp_path):
    key = "sk-ant-api03-" + "Rf8Tg2Yh6Uj0Ik4Ol8Pz2Xc6Vb0Nm4Qw8Er2Ty6Ui0Op4As8Df2Gh-AA"
    notes = CLEAN["memory_notes.md"] + f"- 部署用的 key: {key}\n"
    res = run_hook(sample_repo({**CLEAN, "memory_notes.md": notes}), tmp_path / "home")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "memory_notes.md:2  secret" in res.stdout and "Anthropic API key" in res.stdout
    assert key not in res.stdout + res.stderr
