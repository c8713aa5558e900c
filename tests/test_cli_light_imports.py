"""A read verb's call builds only the read verbs' parsers: `search` is measured against
grep, and every write verb's module it imported cost it about 40 ms a call."""

from __future__ import annotations

import json
import subprocess
import sys

from memtui.cli import READ_VERBS, VERBS, build_parser
from tests.conftest import write_tree
from tests.helpers import REPO

PROBE = """
import contextlib, io, json, sys
from memtui.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(),
                  "loaded": sorted(m for m in sys.modules if m.startswith("memtui.cli."))}))
"""


def run(*args: str) -> dict:
    got = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


def test_search_imports_no_write_verb_and_still_finds(tmp_path):
    root = write_tree(
        tmp_path / "s", {"index.txt": "[RULES] x\n", "facts.md": "## A\n- 周末 deploy\n"}
    )
    got = run("search", "deploy", "--store", str(root))
    assert got["code"] == 0
    assert got["out"] == "facts.md:2:6: - 周末 deploy\n"
    assert "memtui.cli.write_verbs" not in got["loaded"]
    assert "memtui.cli.fix_verb" not in got["loaded"]


def test_every_verb_is_still_in_the_full_parser():
    import argparse

    parser = build_parser()
    verbs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(verbs.choices) == set(VERBS)
    assert set(READ_VERBS) <= set(verbs.choices)


SCAN_PROBE = """
import contextlib, io, json, sys
from memtui.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "detect_secrets": "detect_secrets" in sys.modules}))
"""


def test_detect_secrets_is_imported_only_for_a_text_that_may_hold_a_key(tmp_path):
    """The secret scan imports detect-secrets (~150 ms) on the first text with a run of
    token characters, a URL or an AWS name in it: never for notes without one."""
    notes = {"index.txt": "[RULES] x\n", "facts.md": "## A\n- 周末 deploy\n"}
    key = "ghp_" + "Xk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2"
    for files, imported in ((notes, False), ({**notes, "facts.md": f"- ci {key}\n"}, True)):
        root = write_tree(tmp_path / str(imported), files)
        got = subprocess.run(
            [sys.executable, "-c", SCAN_PROBE, "check", "--store", str(root)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert json.loads(got.stdout)["detect_secrets"] is imported, got.stderr
