"""search's grep prefilter: grep names the files that may hold a literal, Python reads
only those (each as grep names it) and what grep does not read. The hits must be
exactly those of reading every file of the store; and grep is never given a file
that is not the store's (an agent home's keys, its state.db)."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.engine import search as search_module
from memtui.engine import search_grep
from memtui.engine.search import search
from tests.conftest import run_cli, write_tree
from tests.helpers import ENV

needs_grep = pytest.mark.skipif(shutil.which("grep") is None, reason="needs grep")

BASES = {
    "seeds": {
        "index.txt": "[RULES] x\n",
        "facts.md": "## A\n- a Needle\n",
        "memory.md": "# i\n- memory_t.md → t\n",
        "memory/events.md": "### [E001] 2026-11-01 · plan\n针堆 needle\n",
    },
    "claude": {"MEMORY.md": "- [T](t.md) — needle\n", "t.md": "---\ntype: user\n---\nneedle\n"},
    "hermes": {"memories/MEMORY.md": "a needle\n§\nNEEDLE 针堆\n", "pending/memory/q.json": "{}\n"},
    "openclaw": {"AGENTS.md": "# A\nneedle\n", "SOUL.md": "# S\n"},
    # a home with no root file nor folder for grep: its keys and state.db stay unread
    "hermes-home": {"memories/MEMORY.md": "needle\n", ".env": "needle\n", "state.db": "needle\n"},
}
FOLDERS = (
    "",
    "memory/",
    "memory/.hidden/",
    "memory/audit/",
    "sops/",
    "pending/",
    "pending/memory/",
    "archive/",
    "archive/deep/",
    "archive/.hid/",
    "memories/",
    "project/",
    "project/.scratch/",
    "notes/",
)
NAMES = (
    "a.md",
    "memory_t.md",
    ".env",
    "state.db",
    "q.json",
    ".mood_state_aux",
    ".memory.lock",
    ".a.md.memtui-1.tmp",
    "-dash.md",
    "sp ace.md",
    "针.md",
)
PIECES = (
    b"plain line\n",
    b"a Needle here\n",
    b"needle needle\n",
    b"NEEDLE\r\n",
    "针堆 and 针\n".encode(),
    b"bin\x00ary needle\n",
    b"bad \xff utf-8 needle\n",
    b"no newline at the end needle",
)
QUERIES = ("needle", "Needle", "NEEDLE", "针堆", "ne", "e n")

files = st.dictionaries(
    st.tuples(st.sampled_from(FOLDERS), st.sampled_from(NAMES)).map("".join),
    st.lists(st.sampled_from(PIECES), max_size=4).map(b"".join),
    max_size=12,
)


def every_file_read(root: Path, query: str, ignore_case: bool | None) -> list[dict]:
    with mock.patch.object(search_module.Prefilter, "start", lambda *args: None):
        return [h.to_json() for h in search(root, query, ignore_case=ignore_case)]


def prefiltered(root: Path, query: str, ignore_case: bool | None) -> list[dict]:
    return [h.to_json() for h in search(root, query, ignore_case=ignore_case)]


LINKS = (  # (where, to what: under the root, or `outside`)
    ("lnk.md", "facts.md"),
    ("memory/lnk.md", "memory/events.md"),
    ("sops/lnk.md", "outside/out.md"),
    ("sops/in.md", "memory/events.md"),
    ("archive/deep/lnk.md", "facts.md"),
    ("archive/.hid/lnk.md", "facts.md"),
    ("archive/dir", "memory"),
    ("pending/memory/l.json", "t.md"),
    ("project/lnk.md", "facts.md"),
    ("memory/audit", "sops"),
    ("pending/memory", "archive"),
    ("sops", "archive"),
    ("archive", "outside"),
)


@needs_grep
@settings(max_examples=200, deadline=None)
@given(
    base=st.sampled_from(sorted(BASES)),
    extra=files,
    links=st.lists(st.sampled_from(LINKS), max_size=3, unique=True),
    bad_name=st.booleans(),
    query=st.sampled_from(QUERIES),
    ignore_case=st.sampled_from([None, True, False]),
)
def test_grep_prefilter_finds_what_reading_every_file_finds(
    base, extra, links, bad_name, query, ignore_case
):
    with tempfile.TemporaryDirectory() as tmp:
        outside = write_tree(Path(tmp) / "outside", {"out.md": "needle outside\n"})
        root = write_tree(Path(tmp) / "store", {**BASES[base], **extra})
        for where, target in links:
            path = root / where
            out = target.startswith("outside")
            with contextlib.suppress(OSError):  # its place may be taken, or a dangling link
                path.parent.mkdir(parents=True, exist_ok=True)
                path.symlink_to(outside / target[len("outside/") :] if out else root / target)
        if bad_name and (root / "sops").is_dir():
            fd = os.open(bytes(root / "sops") + b"/bad\xff.md", os.O_CREAT | os.O_WRONLY)
            os.write(fd, b"a needle\n")
            os.close(fd)
        every = every_file_read(root, query, ignore_case)
        assert prefiltered(root, query, ignore_case) == every
        with mock.patch.object(search_grep, "MANY_GREPS", 0):  # several greps, however small
            assert prefiltered(root, query, ignore_case) == every
        with mock.patch.object(search_grep, "ARGV_BYTES", 120):  # a grep or more a name
            assert prefiltered(root, query, ignore_case) == every


@needs_grep
def test_a_root_of_more_names_than_one_grep_takes_is_split_over_greps(tmp_path):
    """Thousands of topic files at the root: more greps, each under the argv limit, not
    every file read by Python (which made search grow faster than the store)."""
    topics = {f"memory_topic_{n:05d}_notes.md": f"# t{n}\nnote {n}\n" for n in range(4000)}
    topics["memory_topic_01234_notes.md"] = "# t\na needle here\n"
    root = write_tree(tmp_path / "s", {**BASES["seeds"], **topics})
    assert sum(len(name) + 1 for name in topics) > search_grep.ARGV_BYTES
    read: list[str] = []
    real = search_module.read_bytes

    def counted(path, limit):  # type: ignore[no-untyped-def]
        read.append(path)
        return real(path, limit)

    with mock.patch.object(search_module, "read_bytes", counted):
        got = prefiltered(root, "needle", None)
    assert got == every_file_read(root, "needle", None)
    assert "memory_topic_01234_notes.md" in {h["file"] for h in got}
    assert len(read) < 10, len(read)  # the few grep named, not the 4,000


@needs_grep
def test_grep_in_trouble_leaves_python_to_read_every_file(tmp_path):
    """grep exits 2 on a file it cannot read: what it named is not the whole list."""
    root = write_tree(tmp_path / "s", {**BASES["seeds"], "sops/x.md": "needle\n"})
    with mock.patch.object(search_module.Prefilter, "vouched", lambda self: False):
        got = prefiltered(root, "needle", None)
    assert got == every_file_read(root, "needle", None)
    assert {h["file"] for h in got} == {"facts.md", "memory/events.md", "sops/x.md"}


@needs_grep
def test_grep_is_given_no_file_of_an_agent_home_that_is_not_memory(tmp_path):
    root = write_tree(
        tmp_path / "home",
        {
            "memories/MEMORY.md": "needle\n",
            "SOUL.md": "needle soul\n",
            ".env": "KEY=needle\n",
            "auth.json": "needle\n",
            "state.db": "needle\n",
            "memory/x.md": "needle\n",
        },
    )
    calls = tmp_path / "grep-calls"
    wrapper = tmp_path / "bin" / "grep"
    wrapper.parent.mkdir()
    wrapper.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" >> {calls}\nexec {shutil.which("grep")} "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    path = f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}"
    got = run_cli("search", "needle", "--store", str(root), env={**ENV, "PATH": path})
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines() == ["SOUL.md:1:1: needle soul", "memories/MEMORY.md:1:1: needle"]
    given_to_grep = calls.read_text().splitlines()
    assert "SOUL.md" in given_to_grep
    assert not {".env", "auth.json", "state.db"} & set(given_to_grep)


@needs_grep
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts /proc/self/fd")
def test_a_search_left_after_its_first_hit_leaves_no_process_nor_pipe(tmp_path):
    root = write_tree(
        tmp_path / "s", {**BASES["seeds"], **{f"sops/s{n}.md": "needle\n" for n in range(50)}}
    )
    fds = len(os.listdir("/proc/self/fd"))
    hits = search(root, "needle")
    assert next(hits).file == "facts.md"
    hits.close()
    assert len(os.listdir("/proc/self/fd")) == fds
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # every grep and find reaped
