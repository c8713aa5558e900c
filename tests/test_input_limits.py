"""Text handed to memtui to write is read only up to the store's max_file_bytes, never
as a whole endless stream, and never by waiting on a pipe nothing writes to: /dev/zero,
a file over the limit, stdin, a FIFO, what $EDITOR saved, an overlong reason. Each is
refused with exit status 1 (a path that is no file: 2), and the store is unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import TODAY, run_cli, tree_digest, write_tree

from memtui.engine.inputs import REASON_MAX_CHARS, read_input
from tests.helpers import ENV, INDEX_TXT, candidate

LIMIT = 2000  # max_file_bytes of the test store: every file in it is smaller

FACTS = (
    "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n\n## HOSTS\n- db on 10.0.0.5\n"
)
CID = "20261129-0007"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "s",
        {
            "memtui.toml": f"[thresholds]\nmax_file_bytes = {LIMIT}\n",
            "index.txt": INDEX_TXT,
            "facts.md": FACTS,
            "sops/deploy.md": "# Deploy\n1. git pull\n",
            f"pending/{CID}.md": candidate(CID),
        },
    )


def refused(root: Path, *args: str, code: int = 1, env: dict[str, str] | None = None) -> str:
    """Run a verb that must be refused; the store must not change. Returns stderr."""
    before = tree_digest(root)
    result = run_cli(*args, "--store", str(root), env={**ENV, **(env or {})})
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert tree_digest(root) == before  # no byte changed, no .memory.lock, no .history/
    return result.stderr


def test_dev_zero_as_body_is_refused_at_once(root):
    err = refused(root, "accept", CID, "--body-file", "/dev/zero")
    assert "/dev/zero is binary" in err and "nothing changed" in err


def test_text_file_over_the_limit_is_refused(root, tmp_path):
    big = tmp_path / "big.md"
    big.write_text("- a fact\n" * (LIMIT // 9 + 1))
    err = refused(root, "edit", "fact:HOSTS", "--text-file", str(big))
    assert f"larger than the {LIMIT:,}-byte limit" in err and str(big) in err


def test_text_file_at_the_limit_is_written(root, tmp_path):
    text = "## HOSTS\n" + "- db\n" * ((LIMIT - len(FACTS) - 9) // 5)
    exact = tmp_path / "exact.md"
    exact.write_text(text)
    result = run_cli("edit", "fact:HOSTS", "--text-file", str(exact), "--store", str(root), env=ENV)
    assert result.returncode == 0, result.stderr
    assert (root / "facts.md").read_text().endswith(text)


def test_body_file_not_utf8_is_refused(root, tmp_path):
    bad = tmp_path / "latin1.md"
    bad.write_bytes("- café\n".encode("latin-1"))
    err = refused(root, "accept", CID, "--body-file", str(bad))
    assert "not valid UTF-8" in err


def test_folder_or_missing_file_is_a_wrong_call(root, tmp_path):
    assert "it is a folder" in refused(root, "accept", CID, "--body-file", str(tmp_path), code=2)
    missing = str(tmp_path / "nope.md")
    assert "No such file" in refused(root, "accept", CID, "--body-file", missing, code=2)


def test_fifo_with_no_writer_is_refused_not_waited_on(root, tmp_path):
    fifo = tmp_path / "body.fifo"
    os.mkfifo(fifo)
    err = refused(root, "accept", CID, "--body-file", str(fifo))
    assert "a pipe that nothing is writing to" in err


def test_fifo_with_a_writer_is_read(root, tmp_path):
    fifo = tmp_path / "body.fifo"
    os.mkfifo(fifo)
    opened = threading.Event()

    def feed() -> None:
        # Opening for writing waits for the reader, so the writer exists when memtui
        # looks; it writes after memtui has opened the pipe.
        with open(fifo, "w", encoding="utf-8") as fh:
            opened.set()
            fh.write("- from a pipe\n")

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    result = run_cli("accept", CID, "--body-file", str(fifo), "--store", str(root), env=ENV)
    writer.join(timeout=30)
    assert opened.is_set()
    assert result.returncode == 0, result.stderr
    assert "- from a pipe" in (root / "facts.md").read_text()


def test_fifo_whose_writer_writes_later_is_waited_on(tmp_path):
    """A process holding the pipe open for writing is waited on until it closes it."""
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # keeps the pipe (and its data) alive
    writer = os.open(fifo, os.O_WRONLY)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(read_input(str(fifo), LIMIT)))
    reader.start()  # whatever it has done yet, the writer exists
    os.write(writer, b"- late\n")
    os.close(writer)
    reader.join(timeout=60)
    os.close(keep)
    assert got == ["- late\n"]


def stdin_cli(root: Path, data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, **ENV, "MEMTUI_TODAY": TODAY}
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args, "--store", str(root)],
        input=data,
        capture_output=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_stdin_over_the_limit_is_refused(root, name):
    before = tree_digest(root)
    result = stdin_cli(root, b"- x\n" * LIMIT, "accept", CID, "--body-file", name)
    assert result.returncode == 1
    assert f"larger than the {LIMIT:,}-byte limit" in result.stderr.decode()
    assert tree_digest(root) == before


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_stdin_within_the_limit_is_used(root, name):
    result = stdin_cli(
        root, "- 从标准输入读到的事实\n".encode(), "accept", CID, "--body-file", name
    )
    assert result.returncode == 0, result.stderr.decode()
    assert "- 从标准输入读到的事实" in (root / "facts.md").read_text()


def test_editor_result_over_the_limit_is_refused(root, tmp_path):
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\nhead -c {LIMIT + 1} /dev/zero | tr "\\0" a > "$1"\n')
    editor.chmod(0o755)
    err = refused(root, "edit", "fact:HOSTS", env={"EDITOR": str(editor), "VISUAL": ""})
    assert f"the edited text is larger than the {LIMIT:,}-byte limit" in err


def test_editor_replacing_its_file_by_a_fifo_does_not_hang(root, tmp_path):
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nrm "$1" && mkfifo "$1"\n')
    editor.chmod(0o755)
    err = refused(root, "edit", "fact:HOSTS", env={"EDITOR": str(editor), "VISUAL": ""})
    assert "the edited text is a pipe that nothing is writing to" in err


def test_reason_over_its_limit_is_refused(root):
    err = refused(root, "reject", CID, "--reason", "x" * (REASON_MAX_CHARS + 1))
    assert f"more than {REASON_MAX_CHARS:,}" in err


def test_an_endless_stream_is_read_only_up_to_the_limit(root):
    """`yes` never ends: memtui stops at limit+1 bytes and refuses."""
    before = tree_digest(root)
    env = {**os.environ, **ENV, "MEMTUI_TODAY": TODAY}
    with subprocess.Popen(["yes", "x"], stdout=subprocess.PIPE) as yes:
        result = subprocess.run(
            [sys.executable, "-m", "memtui", "accept", CID, "--body-file", "-"],
            stdin=yes.stdout,
            capture_output=True,
            text=True,
            env={**env, "PWD": str(root)},
            cwd=root,
            timeout=120,
        )
        yes.kill()
    assert result.returncode == 1
    assert f"stdin is larger than the {LIMIT:,}-byte limit" in result.stderr
    assert tree_digest(root) == before
