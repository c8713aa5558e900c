"""The CLI called the way a hostile agent's files get called: in-process, with the house
rules of every answer asserted (no traceback, no internal error, an exit status of
SPEC §6, no raw control or bidi character in text, valid JSON), and a refusal that
leaves every byte of the store as it was."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from conftest import tree_digest

from memtui.cli import main

# C0 controls but tab and newline (and a CR ending a line), DEL, C1, and the bidi and
# zero-width controls: none may reach a terminal (or a JSON reader) raw.
RAW = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)"
)

# The read verbs every hostile store goes through, text and JSON.
READS = (
    ("check",),
    ("check", "--json"),
    ("list",),
    ("list", "--json"),
    ("pending",),
    ("pending", "--json"),
    ("context",),
    ("context", "--json"),
)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    """The CLI in-process (same code as `python -m memtui`): (exit status, out, err)."""
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def assert_sane(argv: tuple[str, ...], code: int, out: str, err: str) -> None:
    where = " ".join(argv)
    assert "Traceback" not in out + err, (where, err)
    assert "internal error" not in out + err, (where, err)
    assert code in (0, 1, 2), (where, code, err)
    bad = RAW.search(err)
    assert bad is None, (where, err)
    if "--json" in argv and out:
        json.loads(out)
    bad = RAW.search(out)
    assert bad is None, (where, out[max(0, bad.start() - 60) : bad.end() + 60])


# Lock files a refused change may leave: memtui's own and Hermes' per-file ones (empty;
# taking a lock is no change, and deleting one would break the agent's exclusion).
LOCKS = re.compile(r"(\.memory\.lock|memories/(MEMORY|USER)\.md\.lock)\Z")


def digest(root: Path) -> dict[str, str]:
    """tree_digest without the (empty) lock files."""
    empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # sha256 of no bytes
    return {k: v for k, v in tree_digest(root).items() if not (LOCKS.match(k) and v == empty)}


def all_paths(root: Path) -> set[str]:
    """Every path below root, folders and FIFOs included, lock files left out."""
    found = {
        os.path.relpath(os.path.join(d, n), root) for d, ds, fs in os.walk(root) for n in ds + fs
    }
    return {p for p in found if not LOCKS.match(p)}


def run(capsys, root: Path, *argv: str) -> tuple[int, str, str]:
    """One verb on the store, its answer sane."""
    code, out, err = cli(capsys, *argv, "--store", str(root))
    assert_sane(argv, code, out, err)
    return code, out, err


def reads(capsys, root: Path, *calls: tuple[str, ...]) -> dict[str, tuple[int, str, str]]:
    """Read verbs: each answer sane, and the store not changed by any of them."""
    before, paths = tree_digest(root), all_paths(root)
    got = {" ".join(argv): run(capsys, root, *argv) for argv in calls}
    assert tree_digest(root) == before, "a read verb changed the store"
    assert all_paths(root) == paths, "a read verb created something in the store"
    return got


def refused(capsys, root: Path, *argv: str, code: int | tuple[int, ...] = 1) -> str:
    """A verb that must be refused with `code` (or one of them), every byte and path of
    the store as it was (no .history/; lock files aside). Returns the message."""
    before, paths = digest(root), all_paths(root)
    got, out, err = run(capsys, root, *argv)
    assert got in (code if isinstance(code, tuple) else (code,)), (argv, got, out, err)
    assert err.strip(), argv
    assert digest(root) == before, f"{argv} changed the store"
    assert all_paths(root) == paths, f"{argv} created something in the store"
    return err
