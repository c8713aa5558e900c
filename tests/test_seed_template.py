"""The companion agent's own bash (seed 003, "完整 Bash 模板"), run for real against a store.

The template numbers events with `$((${LAST_N:-0} + 1))`. Bash reads "008" as
an invalid octal number, so after E008 the arithmetic fails ("value too great
for base"), NEXT_N stays empty and every later event is written with the
heading `### [E] YYYY-MM-DD · TYPE`. memtui must report those as
`event-missing-id` on the right lines, and must not be confused otherwise.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli, tree_digest
from tests.helpers import needs_seed_tools

# shared/ lies beside the checkout (../shared/SPEC.md), on CI as here
SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
SEED = SEEDS / "003_c4ed15afc9b901f2.txt"

# Verbatim from the seed, from `#!/usr/bin/env bash` to `exec 9>&-`.
TEMPLATE = r"""#!/usr/bin/env bash
WORKSPACE_DIR="${WORKSPACE_DIR:-$(pwd)}"
EVENTS_FILE="$WORKSPACE_DIR/memory/events.md"
LOCK_FILE="$WORKSPACE_DIR/.memory.lock"

exec 9>"$LOCK_FILE"
flock -x -w 10 9 || { exec 9>&-; exit 1; }

LAST_N=$(grep -oP '(?<=\[E)\d+(?=\])' "$EVENTS_FILE" 2>/dev/null | grep -v '^000$' | sort -n | tail -1)
NEXT_N=$(printf "%03d" $((${LAST_N:-0} + 1)))

cat >> "$EVENTS_FILE" << EOF

### [E${NEXT_N}] $(date +%Y-%m-%d) · TYPE
**类型**：TYPE
**内容**：CONTENT
**后续**：FOLLOWUP
**状态**：待跟进
EOF

echo "" >> "$EVENTS_FILE"
echo "### [E000] $(date +%Y-%m-%dT%H:%M) · last_active" >> "$EVENTS_FILE"

flock -u 9
exec 9>&-"""  # noqa: E501 (verbatim)

BLOCK = re.compile(
    r"\n### \[E(?P<num>\d{3}|)\] (?P<date>\d{4}-\d{2}-\d{2}) · TYPE\n"
    r"\*\*类型\*\*：TYPE\n\*\*内容\*\*：CONTENT\n\*\*后续\*\*：FOLLOWUP\n\*\*状态\*\*：待跟进\n"
    r"\n### \[E000\] \d{4}-\d{2}-\d{2}T\d{2}:\d{2} · last_active\n"
)
OCTAL_ERROR = "value too great for base"


pytestmark = needs_seed_tools


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """12 runs of the template: 3 one by one, 4 at once (flock), then 5 one by one."""
    base = tmp_path_factory.mktemp("seed_template")
    root = base / "store"
    (root / "memory").mkdir(parents=True)
    script = base / "memory_write.sh"
    script.write_text(TEMPLATE + "\n", encoding="utf-8")
    env = {**os.environ, "WORKSPACE_DIR": str(root), "LC_ALL": "C.UTF-8"}

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(
            ["bash", str(script)],
            cwd=base,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    results: list[tuple[int, str]] = []

    def finish(procs: list[subprocess.Popen[str]]) -> None:
        for proc in procs:
            _out, err = proc.communicate(timeout=60)
            results.append((proc.returncode, err))

    for _ in range(3):
        finish([start()])
    finish([start() for _ in range(4)])
    for _ in range(5):
        finish([start()])

    events = root / "memory" / "events.md"
    before = tree_digest(root)
    check = run_cli("check", "--json", "--store", str(root))
    return root, events.read_text(encoding="utf-8"), results, before, check


def test_template_is_verbatim_from_the_seed():
    assert SEED.is_file(), (
        f"the companion's seed {SEED.name} is missing from {SEEDS} (../shared/seeds beside "
        "the checkout): this test checks the template against it and cannot run without it"
    )
    seed = SEED.read_text(encoding="utf-8")
    start = seed.index("#!/usr/bin/env bash")
    end = seed.index("flock -u 9\nexec 9>&-", start) + len("flock -u 9\nexec 9>&-")
    assert seed[start:end] == TEMPLATE


def test_template_writes_broken_headings_after_e008(ran):
    _root, text, results, _before, _check = ran
    assert [rc for rc, _err in results] == [0] * 12  # the agent never notices
    octal = [err for _rc, err in results if OCTAL_ERROR in err]
    assert len(octal) == 4
    assert all("008" in err for err in octal)

    blocks = list(BLOCK.finditer(text))
    assert "".join(m.group(0) for m in blocks) == text  # 12 whole blocks, none interleaved
    numbers = [m.group("num") for m in blocks]
    assert numbers == [f"{n:03d}" for n in range(1, 9)] + [""] * 4  # flock kept E004-E007 unique
    assert text.count("### [E000] ") == 12


def test_check_reports_missing_ids_on_the_broken_headings(ran):
    root, text, _results, before, check = ran
    assert tree_digest(root) == before  # check changed nothing
    assert "Traceback" not in check.stderr
    assert "internal error" not in check.stderr
    assert check.returncode == 1, (check.stdout, check.stderr)
    report = json.loads(check.stdout)
    assert report["layouts"] == ["companion"]
    findings = report["findings"]

    lines = text.split("\n")
    broken = [i + 1 for i, line in enumerate(lines) if line.startswith("### [E] ")]
    assert len(broken) == 4
    missing = [f for f in findings if f["code"] == "event-missing-id"]
    assert [(f["level"], f["file"], f["line"]) for f in missing] == [
        ("error", "memory/events.md", line) for line in broken
    ]
    codes = {f["code"] for f in findings}
    assert "sentinel-missing" not in codes
    assert "event-duplicate-id" not in codes
    # every error is about one of the broken headings
    assert {f["line"] for f in findings if f["level"] == "error"} == set(broken)


def test_broken_heading_date_is_still_read(ran):
    """`### [E] 2026-11-29 · TYPE` lacks a number, not a date: no event-bad-date for it."""
    _root, _text, _results, _before, check = ran
    findings = json.loads(check.stdout)["findings"]
    bad_dates = [f for f in findings if f["code"] == "event-bad-date"]
    assert bad_dates == []
