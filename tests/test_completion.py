"""`memtui completion bash|zsh|fish`: the scripts load in their shells, and bash completes
verbs, options and, from the store, entry ids (through `memtui __complete-ids`).

Bash is driven as it drives a completion itself: COMP_LINE/COMP_POINT (and COMP_WORDS
split the way bash splits them, at the colon too) set, the registered function called,
COMPREPLY read back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from tests.helpers import CANDIDATE, EVENTS_MD, INDEX_TXT

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

STORE = {
    "memory/events.md": EVENTS_MD,
    "index.txt": INDEX_TXT,
    "facts.md": "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n",
    "pending/20261129-0007.md": CANDIDATE,
}


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    res = run_cli("completion", "bash")
    assert res.returncode == 0, res.stderr
    path = tmp_path_factory.mktemp("completion") / "memtui.bash"
    path.write_text(res.stdout, encoding="utf-8")
    return path


def memtui_on_path() -> dict[str, str]:
    """The environment with memtui on PATH as a user has it: this interpreter's scripts."""
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def complete(script: Path, line: str, cwd: Path) -> list[str]:
    """What bash offers for `line` (the cursor at its end), via the registered function."""
    driver = f"""
source {script}
fn=$(complete -p memtui | sed -E 's/.*-F ([^ ]+) .*/\\1/')
COMP_LINE="$1"; COMP_POINT=${{#COMP_LINE}}
read -ra COMP_WORDS <<<"${{COMP_LINE//:/ : }}"  # bash splits at ':' (COMP_WORDBREAKS)
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
"$fn" memtui "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    res = subprocess.run(
        ["bash", "-c", driver, "bash", line],
        cwd=cwd,
        env=memtui_on_path(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    return [w for w in res.stdout.splitlines() if w]


@needs_bash
def test_show_completes_event_ids_from_the_store(script, store):
    root = store(STORE)
    assert complete(script, "memtui show ev", root) == ["event:E006", "event:E007"]


@needs_bash
def test_ids_come_from_the_store_given_with_store(script, store, tmp_path):
    root = store(STORE)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert complete(script, f"memtui show --store {root} fact:", elsewhere) == ["PYTHON_ENV"]
    assert complete(script, f"memtui accept --store {root} 2026", elsewhere) == ["20261129-0007"]
    # outside any store: nothing offered, and no error text in the command line
    assert complete(script, "memtui show ev", elsewhere) == []


@needs_bash
def test_after_the_colon_bash_gets_the_rest_of_the_id(script, store):
    # bash keeps "event:" (it split the word there); the candidates are what follows
    assert complete(script, "memtui done event:E00", store(STORE)) == ["E006", "E007"]


@needs_bash
def test_verbs_and_options_complete(script, store):
    root = store(STORE)
    assert complete(script, "memtui ch", root) == ["check"]
    assert "--format" in complete(script, "memtui check --", root)
    assert complete(script, "memtui check --format s", root) == ["sarif"]
    assert complete(script, "memtui completion f", root) == ["fish"]


def test_the_helper_is_no_verb_and_says_nothing_on_trouble(store):
    root = store(STORE)
    res = run_cli("__complete-ids", "--kind", "event", "--store", str(root), "--", "E")
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "")  # ids are event:…
    res = run_cli("__complete-ids", "--store", str(root / "nowhere"), "ev")
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "")
    assert "__complete-ids" not in run_cli("--help").stdout


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_load_in_their_shell(shell):
    res = run_cli("completion", shell)
    assert res.returncode == 0 and "__complete-ids --kind event" in res.stdout
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed: the script was generated but not loaded")
    check = ["zsh", "-n"] if shell == "zsh" else ["fish", "--no-execute"]
    got = subprocess.run([*check], input=res.stdout, capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr


def test_fish_completes_event_ids_from_the_store(store, tmp_path):
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed: its completion was not exercised")
    script = tmp_path / "memtui.fish"
    script.write_text(run_cli("completion", "fish").stdout, encoding="utf-8")
    res = subprocess.run(
        ["fish", "-c", f"source {script}; complete -C 'memtui show ev'"],
        cwd=store(STORE),
        env=memtui_on_path(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert [row.split("\t")[0] for row in res.stdout.splitlines()] == ["event:E006", "event:E007"]


@needs_bash
def test_a_verbs_store_path_completes_to_folders(script, store):
    root = store({**STORE, "memory-notes.txt": "not a folder\n"})
    assert complete(script, "memtui check mem", root) == ["memory"]
    assert complete(script, "memtui check --store mem", root) == ["memory"]
