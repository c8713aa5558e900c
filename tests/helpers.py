"""Plain helpers and sample texts shared by several test modules (fixtures live in conftest).

Import as `from tests.helpers import ...`, the same way as `from tests.conftest import ...`.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

import pytest

from memtui.engine.store import open_store
from tests.conftest import TODAY

V = TypeVar("V")
Found = tuple[str, str, str | None, int | None]  # (code, level, file, line) of a finding

TODAY_DATE = dt.date.fromisoformat(TODAY)  # conftest.TODAY (a string for MEMTUI_TODAY) as a date

REPO = Path(__file__).resolve().parents[1]
ENV = {"PYTHONPATH": str(REPO)}  # so `python -m memtui` works from any cwd, installed or not

# How long a wait on a condition may take before the test fails saying what it waited for.
# Generous (a loaded 2-core machine), and well under the per-test timeout (pyproject).
WAIT = 30.0


def wait_until(pred: Callable[[], object], *, timeout: float = WAIT, what: str) -> None:
    """Poll `pred` until it holds; fail naming `what` once `timeout` seconds have passed.
    The one way a test outside the app waits (the app's tests: ui_helpers.until)."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.02)


def _grep_p_works() -> bool:
    if shutil.which("grep") is None:
        return False
    got = subprocess.run(
        ["grep", "-oP", r"(?<=\[E)\d+(?=\])"], input="[E007]", capture_output=True, text=True
    )
    return got.returncode == 0 and got.stdout.strip() == "007"


# The companion's own bash (seed 003) needs these; a skip says which is missing (-rs).
needs_seed_tools = pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("flock") is None or not _grep_p_works(),
    reason="needs bash, flock(1) from util-linux and GNU grep -P (the seed's bash uses them)",
)


# --- store dicts and findings ------------------------------------------------


def with_changes(
    files: Mapping[str, V], changes: Mapping[str, V | None] | None = None
) -> dict[str, V]:
    """A copy of `files` (relative path -> content) with `changes` applied: a value replaces
    or adds that file, None removes it."""
    out = dict(files)
    for name, value in (changes or {}).items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def findings(root: Path) -> list[Found]:
    """Every finding of the store at root ("today" pinned), as a sorted list of tuples."""
    store = open_store(root, today=TODAY_DATE)
    return sorted(((f.code, f.level, f.file, f.line) for f in store.findings), key=repr)


def expect(*items: Found) -> list[Found]:
    """The expected findings, sorted the way `findings` sorts them."""
    return sorted(items, key=repr)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based number of the nth line containing `needle`."""
    hits = [i + 1 for i, line in enumerate(text.split("\n")) if needle in line]
    return hits[nth - 1]


# --- sample texts of a store holding all three layouts (test_cli, test_hostile) ---

MOOD = """\
valence: 0.15
energy: 0.55

### 2026-11-29T21:40 · source=conversation
valence: 0.15
energy: 0.55
note: 聊得开心

### 2026-11-28T20:00 · source=decay
valence: 0.20
energy: 0.50
note: 衰减
"""

INDEX_TXT = """\
[RULES] No Execution, No Memory
# --- auto ---
[FACTS] PYTHON_ENV · HOSTS
[SOPS] deploy
# --- end auto ---
"""


# --- a demo store written once per module, copied per test -------------------


def demo_template(factory: pytest.TempPathFactory, name: str) -> Path:
    """The smallest demo store, written once (a module-scoped fixture's body)."""
    from memtui.demo import write_demo

    root = factory.mktemp(name) / "store"
    write_demo(root, size=1)
    return root


def bytes_of(path: Path) -> bytes | None:
    """A file's bytes; None if there is none (an archive file goes with its last entry)."""
    return path.read_bytes() if path.exists() else None


def fresh_copy(template: Path, tmp_path: Path) -> Path:
    """A test's own copy of a template store, to change freely."""
    copy = tmp_path / "store"
    shutil.copytree(template, copy)
    return copy


# --- dsh candidates and meta entries (test_cli, test_hostile, test_crash, test_ops_*) ---


def candidate(
    cid: str,
    target: str = "PYTHON_ENV",
    body: str = "- activate the venv before pytest\n",
    *,
    entry_type: str = "fact",
    evidence: str | None = "pytest -q → 41 passed",
) -> str:
    """A pending candidate's text (front matter, then `body`); no evidence line if None."""
    lines = ["---", f"id: {cid}", f"entry_type: {entry_type}", f"target: {target}"]
    if evidence is not None:
        lines.append(f'evidence: "{evidence}"')
    lines += ["source_session: s-1f3a", "source_seqs: [12, 13]"]
    lines += ["created_at: 2026-11-29T21:40:00+08:00", "---"]
    return "\n".join(lines) + "\n" + body


# A pending fact candidate with evidence.
CANDIDATE = candidate("20261129-0007")


def fact_meta(**fields: object) -> dict[str, object]:
    """A memory-meta.json entry of an active fact with the candidates' evidence; `fields`
    (sourceSession, createdAt, ...) follow in the order given."""
    return {"type": "fact", "status": "active", "evidence": "pytest -q → 41 passed", **fields}


# --- an events.md of two entries and the agent's sentinel (test_ops_edit, test_ui_edit_*) ---

EVENTS = "memory/events.md"
E006 = """\
### [E006] 2026-11-20 · 约定
**类型**：约定
**内容**：周末一起去看海
**状态**：待跟进
**到期日**：2026-12-01

"""
E007 = """\
### [E007] 2026-11-21 · 情绪事件
**类型**：情绪事件
**内容**：工作压力大
**情绪强度**：⭐⭐⭐
**状态**：待跟进

"""
SENTINEL = "### [E000] 2026-11-29T21:40 · last_active\n"
EVENTS_MD = E006 + E007 + SENTINEL


# A small dsh store with one candidate to accept: its accept writes facts.md, both JSON
# books and the index, and moves the candidate (the crash and fault tests' subject).
ACCEPT_CID = "20261129-0007"
ACCEPT_STORE = {
    "index.txt": INDEX_TXT,
    "facts.md": "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n",
    "memory-meta.json": '{\n  "version": 1,\n  "entries": {}\n}\n',
    "memory_stats.json": '{"facts": 1, "accepted": 0}\n',
    f"pending/{ACCEPT_CID}.md": candidate(ACCEPT_CID, body="- pytest runs from the repo root\n"),
}


# --- small stores' texts (test_candidates, test_l0_guard, test_unresolved_block, ...) ------

# A dsh index.txt with its rules line and an empty auto block.
DSH_INDEX = "[RULES] No Execution, No Memory\n# --- auto ---\n# --- end auto ---\n"

# A companion events.md: one open promise and the agent's sentinel.
OPEN_EVENT = (
    "### [E001] 2026-11-20 · 约定\n**类型**：约定\n**内容**：周末去看海\n"
    "**状态**：待跟进\n**到期日**：2026-12-01\n\n"
    "### [E000] 2026-11-29T21:40 · last_active\n"
)

# A companion events.md of two short events and the sentinel.
TWO_EVENTS = (
    "### [E001] 2026-11-20 · 约定\n**内容**：周末去看海\n\n"
    "### [E002] 2026-11-21 · 用户Todo\n**内容**：买猫粮\n\n"
    "### [E000] 2026-11-29T21:40 · last_active\n"
)
