"""A CLI people can learn from itself: every verb and argument has help text, the
version comes from the package metadata, and levels are coloured only on a terminal."""

from __future__ import annotations

import argparse
import os
import pty
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import TODAY, run_cli

from memtui.cli import build_parser
from tests.helpers import REPO, wait_until


def walk(parser: argparse.ArgumentParser, path: str = "memtui"):
    """(where, action) for every action of the parser tree, sub-verbs included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:  # the verbs as `--help` lists them
                yield f"{path} {choice.dest}", choice
            for name, sub in action.choices.items():
                yield from walk(sub, f"{path} {name}")
        else:
            yield path, action


def test_every_verb_and_argument_has_help():
    missing = []
    for where, action in walk(build_parser()):
        name = action.dest if not action.option_strings else action.option_strings[-1]
        hidden = action.help == argparse.SUPPRESS and name.startswith("__")
        if not hidden and not (isinstance(action.help, str) and action.help.strip()):
            missing.append(f"{where}: {name}")
    assert missing == []


def test_every_verb_describes_itself_in_its_own_help():
    def parsers(parser, path="memtui"):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield f"{path} {name}", sub
                    yield from parsers(sub, f"{path} {name}")

    assert [where for where, sub in parsers(build_parser()) if not sub.description] == []


def test_every_verb_is_listed_with_its_help():
    res = run_cli("--help")
    verbs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for choice in verbs._choices_actions:
        assert choice.dest in res.stdout and choice.help in " ".join(res.stdout.split())


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_comes_from_the_package_metadata(flag):
    declared = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert version("memtui") == declared  # installed from this checkout
    res = run_cli(flag)
    assert (res.returncode, res.stdout.strip()) == (0, f"memtui {declared}")


def test_no_second_version_number_in_the_code():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    hits = [
        str(p.relative_to(REPO))
        for p in (REPO / "memtui").rglob("*.py")
        if f'"{declared}"' in p.read_text("utf-8")
    ]
    assert hits == []


# --- colour ---------------------------------------------------------------------------


def check_on_a_terminal(root: Path, **env: str) -> str:
    """`memtui check` with its stdout on a pseudo-terminal; what it wrote there."""
    main, child = pty.openpty()
    full_env = {**os.environ, "MEMTUI_TODAY": TODAY, **env}
    if "NO_COLOR" not in env:
        full_env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "memtui", "check", "--store", str(root)],
        stdout=child,
        stderr=subprocess.DEVNULL,
        env=full_env,
    )
    os.close(child)
    chunks = []
    while True:  # read until the child closes the terminal (EIO on Linux)
        try:
            data = os.read(main, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    wait_until(lambda: proc.poll() is not None, what="memtui check to exit")
    return b"".join(chunks).decode("utf-8")


@pytest.fixture
def findings_store(store):
    return store(
        {
            "memory.md": "# 索引\n\n## 工作\n- 丢失 → memory_missing.md\n",  # error
            "memory_orphan.md": "# 孤儿\n",  # warning
        }
    )


def test_levels_are_coloured_on_a_terminal(findings_store):
    out = check_on_a_terminal(findings_store)
    assert "\x1b[1;31merror\x1b[0m" in out and "\x1b[33mwarning\x1b[0m" in out


def test_no_color_and_pipes_are_plain(findings_store):
    assert "\x1b" not in check_on_a_terminal(findings_store, NO_COLOR="1")
    piped = run_cli("check", "--store", str(findings_store))
    assert "\x1b" not in piped.stdout and "error    memory.md:4  pointer-missing" in piped.stdout
