"""A real agent's write between memtui showing an entry and acting on it.

Each call is one `bash` process that takes the store lock exactly as the companion
seed's template does (`exec 9>"$ROOT/.memory.lock"; flock -x -w 10 9`), runs its
shell commands on the store's files, and unlocks. `unnumbered_event` runs the seed's
verbatim template (its octal bug included): once E008 exists it writes `### [E]`
headings, the events without a number that memtui knows only by their line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_seed_template import TEMPLATE

EVENTS = "memory/events.md"

needs_bash_flock = pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("flock") is None,
    reason="needs bash and flock(1): the agents' bash locks with it",
)


def agent_write(root: Path, commands: str, **env: str) -> None:
    """Run `commands` in bash under the agent's lock; $ROOT is the store root."""
    script = (
        'exec 9>"$ROOT/.memory.lock"\n'
        "flock -x -w 10 9 || exit 7\n"
        f"{commands}\n"
        "flock -u 9\n"
        "exec 9>&-\n"
    )
    full = {**os.environ, "ROOT": str(root), "LC_ALL": "C.UTF-8", **env}
    got = subprocess.run(
        ["bash", "-c", script], env=full, capture_output=True, text=True, timeout=60, check=False
    )
    assert got.returncode == 0 and not got.stderr, f"agent failed: {got.returncode} {got.stderr}"


def insert_at_top(root: Path, block: str, rel: str = EVENTS) -> None:
    """Lines added above everything in the file (an agent that keeps newest first)."""
    agent_write(
        root,
        'F="$ROOT/$REL"; { printf "%s" "$BLOCK"; cat "$F"; } > "$F.agent" && '
        'cat "$F.agent" > "$F" && rm "$F.agent"',
        REL=rel,
        BLOCK=block,
    )


def delete_first_block(root: Path, rel: str = EVENTS) -> None:
    """The file's first lines up to and including its first blank line removed."""
    agent_write(root, 'sed -i "1,/^$/d" "$ROOT/$REL"', REL=rel)


def append(root: Path, text: str, rel: str = EVENTS) -> None:
    agent_write(root, 'printf "%s" "$TEXT" >> "$ROOT/$REL"', REL=rel, TEXT=text)


def replace_text(root: Path, old: str, new: str, rel: str = EVENTS) -> None:
    """sed s/old/new/ on one file: plain text, without `|` or regex characters."""
    agent_write(root, 'sed -i "s|$OLD|$NEW|" "$ROOT/$REL"', REL=rel, OLD=old, NEW=new)


def unnumbered_event(root: Path, content: str) -> None:
    """One run of the seed's template as written (octal bug and all), content `content`
    (tests using it are marked helpers.needs_seed_tools: it needs GNU grep -P too)."""
    script = TEMPLATE.replace("**内容**：CONTENT", "**内容**：${CONTENT}")
    env = {**os.environ, "WORKSPACE_DIR": str(root), "CONTENT": content, "LC_ALL": "C.UTF-8"}
    got = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    # the seed's `$((008 + 1))` fails ("value too great for base") and heads it `### [E]`
    assert got.returncode == 0, got.stderr
