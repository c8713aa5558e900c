"""Worker: the companion agent of seed 003, its bash template run for real, COUNT times.

    python seed_agent.py ROOT COUNT PREFIX

Each run is one `bash` process executing the seed's "完整 Bash 模板": it takes
`flock -x -w 10` on ROOT/.memory.lock, appends one event and an [E000] sentinel to
memory/events.md, and unlocks. Two changes to the verbatim template (see
tests/test_seed_template.py for the verbatim text and why):

* base-10 arithmetic, `$((10#${LAST_N:-0} + 1))`, so numbering works past E008 (the seed's
  `$((${LAST_N:-0} + 1))` reads "008" as bad octal and writes `### [E]` headings);
* `**内容**：${CONTENT}`, so every run writes a distinct event (PREFIX-1, PREFIX-2, ...)
  and a test can check that each one is there exactly once.

Exit status 0 when every run exited 0; failed runs are listed on stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.test_seed_template import TEMPLATE  # noqa: E402 - the verbatim seed text

SEED_ARITHMETIC = "$((${LAST_N:-0} + 1))"
BASE10_ARITHMETIC = "$((10#${LAST_N:-0} + 1))"  # the fix: numbering past E008 (octal bug)
SEED_CONTENT = "**内容**：CONTENT"
RUN_CONTENT = "**内容**：${CONTENT}"


def agent_script() -> str:
    """The seed template with only the two changes above."""
    assert TEMPLATE.count(SEED_ARITHMETIC) == 1 and TEMPLATE.count(SEED_CONTENT) == 1
    return TEMPLATE.replace(SEED_ARITHMETIC, BASE10_ARITHMETIC).replace(SEED_CONTENT, RUN_CONTENT)


def write_script(folder: str | os.PathLike[str]) -> Path:
    path = Path(folder) / "memory_write.sh"
    path.write_text(agent_script() + "\n", encoding="utf-8")
    return path


def run_once(root: str, script: Path, content: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORKSPACE_DIR": str(root), "CONTENT": content, "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        ["bash", str(script)], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def run_agent(root: str, count: int, prefix: str) -> list[tuple[int, int, str]]:
    """Run the agent COUNT times, one after another; returns the failed runs."""
    failed = []
    with tempfile.TemporaryDirectory() as folder:
        script = write_script(folder)
        for i in range(1, count + 1):
            got = run_once(root, script, f"{prefix}-{i}")
            if got.returncode != 0 or got.stderr:
                failed.append((i, got.returncode, got.stderr))
    return failed


def main(root: str, count: int, prefix: str) -> int:
    failed = run_agent(root, count, prefix)
    for i, code, err in failed:
        print(f"run {i}: exit {code}: {err.strip()}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
