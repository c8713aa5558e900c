"""A read verb run as the program ends its process at once (cli._end), without freeing
the store it loaded: its output still reaches the reader whole (more than a pipe holds),
with its exit code, and main() called by a program returns as before."""

from __future__ import annotations

import contextlib
import io
import json

from conftest import run_cli, write_tree

from memtui.cli import main
from memtui.cli.read_verbs import LOADED

# 400 topics without a pointer: outputs of many blocks
TOPICS = {f"memory_topic_{n:03d}.md": f"# Topic {n}\n- a line\n" for n in range(400)}
STORE = {"memory.md": "# Index\n", "soul.md": "# Soul\n", **TOPICS}


def in_process(*args: str) -> tuple[int, str]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(list(args))
    return code, out.getvalue()


def test_a_read_verbs_whole_output_and_code_reach_the_reader(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # its output is buffered
    root = str(write_tree(tmp_path / "s", STORE))
    # JSON in one write; text a line at a time (the last block is left in the buffer)
    for args in (["check", "--json"], ["list", "--json"], ["check"], ["list"]):
        ran = run_cli(*args, "--store", root)
        code, out = in_process(*args, "--store", root)
        assert len(ran.stdout) > 16384
        assert (ran.returncode, ran.stdout, ran.stderr) == (code, out, "")
    check = json.loads(run_cli("check", "--json", "--store", root).stdout)
    assert check["root"] == root
    assert {f["code"] for f in check["findings"]} >= {"topic-orphan"}


def test_a_read_verb_that_fails_says_so_with_its_code(tmp_path):
    ran = run_cli("check", "--store", str(tmp_path / "nowhere"))
    assert ran.returncode == 2
    assert ran.stdout == ""
    assert ran.stderr.strip()


def test_main_called_by_a_program_returns_and_keeps_only_the_last_store(tmp_path):
    one = str(write_tree(tmp_path / "one", STORE))
    two = str(write_tree(tmp_path / "two", {"memory.md": "# Index\n", "soul.md": "# Soul\n"}))
    assert in_process("check", "--json", "--store", one)[0] in (0, 1)
    assert in_process("check", "--json", "--store", two)[0] in (0, 1)
    assert [store.root for store in LOADED] == [two]
