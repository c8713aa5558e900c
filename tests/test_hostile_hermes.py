"""A Hermes home written by a hostile agent or a broken disk, through the real CLI: queue
records that are no record (not JSON, the wrong shape, 100,000-deep, a FIFO, a link out,
a folder), MEMORY.md that cannot be read (binary, not UTF-8, over the limit, a FIFO, a
link out) or is written oddly (a BOM, CRLF), config.yaml that is no usable config, and
entries that carry bidi controls or Rich markup. Every answer is sane (tests/hostile_calls),
every refusal exits 1 naming the file and changes nothing, nothing hangs.

What Hermes itself does is restated from NousResearch/hermes-agent tools/memory_tool.py:
`_read_file` reads `path.read_text(encoding="utf-8")` (universal newlines; a BOM stays
the first entry's first character), `load_on_disk_store` reads both limits with
`int(...)` inside one try, falling back to 2,200 / 1,375 when either fails.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tree_digest, write_tree

from tests.helpers import ENV
from tests.hostile_calls import READS, reads, refused, run

DELIM = "\n§\n"
MEMORY = ["Project alpha uses uv", "Deploys happen on Friday", "Laptop is a ThinkPad"]
USER = ["Name: Ana", "Prefers short answers"]
CONFIG = "memory:\n  write_approval: true\n  memory_char_limit: 400\n  user_char_limit: 300\n"
GOOD = "0a0a0a01"  # a staged add that applies to the home as written
SECRET = "TOPSECRET-hermes-51c2"


def record(payload: object, **fields: object) -> str:
    """A staged write as write_approval.stage_write records it."""
    base = {"id": "x", "subsystem": "memory", "action": "add", "summary": "add to memory",
            "origin": "foreground", "created_at": 1764500000.0, "payload": payload}  # fmt: skip
    return json.dumps({**base, **fields}, ensure_ascii=False)


ADD = {"action": "add", "target": "memory", "content": "Prefers ruff", "old_text": None}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / ".hermes",
        {
            "memories/MEMORY.md": DELIM.join(MEMORY),
            "memories/USER.md": DELIM.join(USER),
            "config.yaml": CONFIG,
            f"pending/memory/{GOOD}.json": record(ADD),
        },
    )


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    out = tmp_path / "outside"
    write_tree(out, {"secret.md": f"{SECRET} password", "rec.json": record(ADD)})
    return out


def finding(out: str, code: str, file: str) -> dict:
    found = [f for f in json.loads(out)["findings"] if f["code"] == code and f["file"] == file]
    assert found, (code, file, json.loads(out)["findings"])
    return found[0]


# --- queue records that are no record -----------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
BAD_RECORDS: dict[str, str | bytes] = {
    "truncated": '{"id": "x", "payload": {"action": "add", "content": "half',
    "empty": "",
    "a-list": "[1, 2, 3]",
    "null": "null",
    "a-number": "42",
    "a-string": '"add"',
    "no-payload": json.dumps({"id": "x", "action": "add", "summary": "s"}),
    "payload-null": record(None),
    "payload-list": record(["add", "memory"]),
    "unknown-action": record({"action": "drop_table", "target": "memory", "content": "x"}),
    "target-a-path": record({"action": "add", "target": "../../etc/passwd", "content": "x"}),
    "content-a-number": record({"action": "add", "target": "memory", "content": 12}),
    "content-nan": record({"action": "add", "target": "memory", "content": float("nan")}),
    "old-text-a-list": record({"action": "remove", "target": "memory", "old_text": ["uv"]}),
    "ops-a-string": record({"action": "batch", "target": "memory", "operations": "rm -rf"}),
    "ops-holding-null": record({"action": "batch", "target": "memory", "operations": [None]}),
    "deep-record": DEEP,
    "deep-payload": record({**ADD, "extra": json.loads("[" * 500 + "]" * 500)})[:-1]
    + ', "deeper": '
    + DEEP
    + "}",
    "binary": b"\x00\x01\x02\x1b[2J\xff\xfe",
    "latin-1": record({**ADD, "content": "café"}).encode("latin-1"),
}


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_a_record_that_is_no_record_is_reported_refused_and_rejectable(home, capsys, name):
    rel = f"pending/memory/{name}.json"
    write_tree(home, {rel: BAD_RECORDS[name]})
    got = reads(capsys, home, *READS, ("show", f"hermes-pending:{name}"))
    code, out, _ = got["check --json"]
    assert code == 1
    found = {f["code"] for f in json.loads(out)["findings"] if f["file"] == rel}
    assert found & {"pending-bad-record", "unreadable"}, found
    err = refused(capsys, home, "accept", f"hermes-pending:{name}")
    assert rel in err and "nothing" in err
    # the way out the refusal names: rejecting it takes it out of pending/, kept in history
    code, _, err = run(capsys, home, "reject", f"hermes-pending:{name}", "--reason", "junk")
    assert code == 0, err
    assert not (home / rel).exists()
    kept = [p for p in (home / ".history").rglob("*") if p.is_file() and name in str(p)]
    assert kept and kept[0].read_bytes() == (
        BAD_RECORDS[name] if isinstance(BAD_RECORDS[name], bytes) else BAD_RECORDS[name].encode()
    )


def test_huge_content_is_over_the_limit_and_refused(home, capsys):
    rel = "pending/memory/0c0c0c01.json"
    write_tree(home, {rel: record({**ADD, "content": "z" * 2_000_000})})
    got = reads(capsys, home, *READS)
    assert finding(got["check --json"][1], "pending-over-limit", rel)
    err = refused(capsys, home, "accept", "hermes-pending:0c0c0c01")
    assert "over the limit" in err and "2,000,0" in err


@pytest.mark.parametrize(
    "ref",
    [
        "hermes-pending:../../memories/MEMORY",
        "hermes-pending:/etc/passwd",
        "hermes-pending:" + "a" * 5000,
        "hermes-pending:" + "9" * 5000,
        "hermes-pending:",
        "hermes-pending:skills/../../memories/MEMORY",
    ],
)
def test_a_queue_id_that_names_no_record_is_refused(home, capsys, ref):
    for verb in (("accept", ref), ("reject", ref, "--reason", "no")):
        err = refused(capsys, home, *verb)
        assert any(w in err for w in ("nothing", "no staged write", "names no", "read-only")), err


def test_a_record_that_is_a_fifo_never_hangs_and_is_refused(home, capsys):
    rel = "pending/memory/0d0d0d01.json"
    os.mkfifo(home / rel)
    reads(capsys, home, *READS, ("show", "hermes-pending:0d0d0d01"))
    for verb in (("accept",), ("reject", "--reason", "x")):
        err = refused(capsys, home, verb[0], "hermes-pending:0d0d0d01", *verb[1:])
        assert rel in err, err


def test_a_record_that_is_a_folder_is_refused(home, capsys):
    rel = "pending/memory/0e0e0e01.json"
    (home / rel).mkdir()
    reads(capsys, home, *READS)
    for verb in (("accept",), ("reject", "--reason", "x")):
        refused(capsys, home, verb[0], "hermes-pending:0e0e0e01", *verb[1:])


def test_a_record_linked_out_of_the_home_is_an_escape_never_followed(home, outside, capsys):
    rel = "pending/memory/0f0f0f01.json"
    (home / rel).symlink_to(outside / "rec.json")
    (home / "pending/memory/0f0f0f02.json").symlink_to(outside / "secret.md")
    got = reads(capsys, home, *READS, ("show", "hermes-pending:0f0f0f02"))
    assert finding(got["check --json"][1], "path-escape", rel)
    for _, out, err in got.values():
        assert SECRET not in out + err
    outside_before = tree_digest(outside)
    for verb in (("accept",), ("reject", "--reason", "x")):
        refused(capsys, home, verb[0], "hermes-pending:0f0f0f01", *verb[1:])
    assert tree_digest(outside) == outside_before


# --- MEMORY.md that cannot be read --------------------------------------------------

WRITES = (
    ("accept", f"hermes-pending:{GOOD}"),
    ("add", "hermes", "memory", "Prefers ruff"),
    ("archive", "hermes:memory#1"),
)


def _unreadable_memory(home: Path, outside: Path, kind: str) -> None:
    path = home / "memories/MEMORY.md"
    path.unlink()
    if kind == "binary":
        path.write_bytes(b"Project alpha\x00\x01\x02" + b"\n\xc2\xa7\n" + b"\x1b[2J")
    elif kind == "not-utf8":
        path.write_bytes("Caf\xe9 on Friday\n§\nLaptop".encode("latin-1", "replace"))
    elif kind == "over-limit":
        path.write_text(DELIM.join(MEMORY) + DELIM + "x" * 300, encoding="utf-8")
        (home / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 200\n")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-out":
        path.symlink_to(outside / "secret.md")
    elif kind == "folder":
        path.mkdir()


@pytest.mark.parametrize("kind", ["binary", "not-utf8", "over-limit", "fifo", "link-out", "folder"])
def test_memory_md_that_cannot_be_read_is_never_written(home, outside, capsys, kind):
    _unreadable_memory(home, outside, kind)
    edit = home.parent / "edit.txt"
    edit.write_text("Project alpha uses uv and ruff", encoding="utf-8")
    got = reads(capsys, home, *READS, ("show", "hermes:memory#1"), ("show", "hermes:user#1"))
    code, out, _ = got["check --json"]
    assert code == 1  # a FIFO or a folder too: reported, not skipped (tests/test_unreadable)
    codes = {f["code"] for f in json.loads(out)["findings"] if f["file"] == "memories/MEMORY.md"}
    assert codes & {"unreadable", "path-escape"}, codes
    for _, out, err in got.values():
        assert SECRET not in out + err
    outside_before = tree_digest(outside)
    for argv in (*WRITES, ("edit", "hermes:memory#1", "--text-file", str(edit))):
        err = refused(capsys, home, *argv)
        assert "nothing" in err.lower() or "no entry" in err.lower() or "MEMORY.md" in err, (
            argv,
            err,
        )
    assert tree_digest(outside) == outside_before
    # USER.md is still usable: the refusal is about the one file
    code, _, err = run(capsys, home, "add", "hermes", "user", "Lives in Lisbon")
    assert code == 0, err


def test_an_add_to_an_unreadable_memory_md_names_it(home, outside, capsys):
    _unreadable_memory(home, outside, "not-utf8")
    for argv in (("accept", f"hermes-pending:{GOOD}"), ("add", "hermes", "memory", "x y z")):
        err = refused(capsys, home, *argv)
        assert "memories/MEMORY.md" in err and "UTF-8" in err, err


# --- MEMORY.md written oddly: CRLF, a BOM -----------------------------------------------


def hermes_entries(raw: bytes) -> list[str]:
    """MemoryStore._read_file: read_text (utf-8, universal newlines), split, strip."""
    text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    return [e for e in (e.strip() for e in text.split(DELIM)) if e] if text.strip() else []


def test_a_crlf_memory_md_is_read_and_replayed_as_hermes_reads_it(home, capsys):
    crlf = "Project alpha uses uv\r\n§\r\nDeploys happen\r\non Friday\r\n§\r\nLaptop is a ThinkPad"
    (home / "memories/MEMORY.md").write_bytes(crlf.encode())
    stage = {"action": "replace", "target": "memory", "old_text": "Friday", "content": "Monday"}
    write_tree(home, {"pending/memory/0a0a0a02.json": record(stage)})
    got = reads(capsys, home, *READS)
    codes = {f["code"] for f in json.loads(got["check --json"][1])["findings"]}
    assert "memory-drift" not in codes
    code, _, err = run(capsys, home, "accept", "hermes-pending:0a0a0a02")
    assert code == 0, err
    assert hermes_entries((home / "memories/MEMORY.md").read_bytes()) == [
        "Project alpha uses uv",
        "Monday",
        "Laptop is a ThinkPad",
    ]


def test_a_bom_is_what_hermes_sees_it_as(home, capsys):
    """Hermes keeps a BOM as U+FEFF at the head of the first entry, and its snapshot scan
    (threat_patterns' invisible characters) blocks that entry from the prompt."""
    (home / "memories/MEMORY.md").write_bytes(b"\xef\xbb\xbf" + DELIM.join(MEMORY).encode())
    got = reads(capsys, home, *READS)
    assert finding(got["check --json"][1], "entry-injection", "memories/MEMORY.md")["line"] == 1
    [block] = [
        f
        for lay in json.loads(got["context --json"][1])["layouts"]
        for f in lay["files"]
        if f["file"] == "memories/MEMORY.md"
    ]
    assert (
        "[BLOCKED: MEMORY.md entry contained threat pattern(s): invisible_unicode_U+FEFF"
        in (block["text"])
    )


def test_a_bom_survives_an_approved_write(home, capsys):
    (home / "memories/MEMORY.md").write_bytes(b"\xef\xbb\xbf" + DELIM.join(MEMORY).encode())
    stage = {"action": "remove", "target": "memory", "old_text": "Friday"}
    write_tree(home, {"pending/memory/0a0a0a03.json": record(stage)})
    code, _, err = run(capsys, home, "accept", "hermes-pending:0a0a0a03")
    assert code == 0, err
    raw = (home / "memories/MEMORY.md").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert hermes_entries(raw) == ["\ufeff" + MEMORY[0], MEMORY[2]]


# --- config.yaml that is no usable config -----------------------------------------------

# config text -> the limits Hermes' load_on_disk_store ends up with (memory, user)
CONFIGS: dict[str, tuple[str | bytes, tuple[int, int]]] = {
    "not-yaml": ("memory: [unclosed\n  : :\n", (2200, 1375)),
    "a-list": ("- memory\n- user\n", (2200, 1375)),
    "memory-a-number": ("memory: 5\n", (2200, 1375)),
    "negative": ("memory:\n  memory_char_limit: -5\n", (-5, 1375)),
    "zero": ("memory:\n  memory_char_limit: 0\n  user_char_limit: 0\n", (0, 0)),
    "a-word": ("memory:\n  memory_char_limit: lots\n  user_char_limit: 300\n", (2200, 1375)),
    "a-float": ("memory:\n  memory_char_limit: 400.9\n", (400, 1375)),
    "infinite": ("memory:\n  memory_char_limit: .inf\n", (2200, 1375)),
    "not-a-number": ("memory:\n  memory_char_limit: .nan\n", (2200, 1375)),
    "huge": ("memory:\n  memory_char_limit: " + "9" * 4000 + "\n", (10**4000 - 1, 1375)),
    "deep": ("[" * 100_000 + "]" * 100_000 + "\n", (2200, 1375)),
    "binary": (b"\x00\x01memory:\xff\n", (2200, 1375)),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_config_yaml_that_is_no_usable_config(home, capsys, name):
    text, (mem, user) = CONFIGS[name]
    (home / "config.yaml").write_bytes(text if isinstance(text, bytes) else text.encode())
    got = reads(capsys, home, *READS)
    header = json.loads(got["context --json"][1])
    blocks = {f["file"]: f["text"] for lay in header["layouts"] for f in lay["files"]}
    if mem < 10**6:
        assert f"/{mem:,} chars" in blocks["memories/MEMORY.md"].split("\n")[1], name
    assert f"/{user:,} chars" in blocks["memories/USER.md"].split("\n")[1], name
    if mem < len(DELIM.join([*MEMORY, "Prefers ruff"])):
        err = refused(capsys, home, "accept", f"hermes-pending:{GOOD}")
        assert "over the limit" in err, err
    else:
        code, _, err = run(capsys, home, "accept", f"hermes-pending:{GOOD}")
        assert code == 0, err
        assert "Prefers ruff" in (home / "memories/MEMORY.md").read_text()


# The CLI with its address space capped at 512 MiB (a whole check takes some 20 MiB): a
# config.yaml whose aliases expand to 10**9 items must be refused before anything that
# big is built or printed.
BOUNDED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (512 * 2**20, 512 * 2**20))
from memtui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def alias_bomb(levels: int = 9) -> str:
    """`a: &a [x, ...]`, `b: &b [*a, ...]`, ... ten a level: 500 bytes, 10**9 "x"."""
    names = [f"l{i}" for i in range(levels)]
    lines = [f"{names[0]}: &{names[0]} [{', '.join(['x'] * 10)}]"]
    for prev, name in itertools.pairwise(names):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 10)}]")
    return "\n".join(lines) + f"\nmemory: {{memory_char_limit: *{names[-1]}}}\n"


def test_a_config_yaml_alias_bomb_is_refused_in_bounded_memory(home):
    (home / "config.yaml").write_text(alias_bomb())

    def bounded(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", BOUNDED, *argv, "--store", str(home)],
            env={**os.environ, **ENV},
            capture_output=True,
            text=True,
            timeout=120,
        )

    checked, context = bounded("check", "--json"), bounded("context", "--json")
    accepted = bounded("accept", f"hermes-pending:{GOOD}")
    for got in (checked, context, accepted):
        assert "Error" not in got.stderr and "internal error" not in got.stderr, got.stderr
    assert (
        "anchors or aliases" in finding(checked.stdout, "config-invalid", "config.yaml")["message"]
    )
    assert "/2,200 chars" in context.stdout  # Hermes' default limit
    assert accepted.returncode == 0
    assert "Prefers ruff" in (home / "memories/MEMORY.md").read_text()


def test_a_config_yaml_that_is_a_fifo_never_hangs(home, capsys):
    (home / "config.yaml").unlink()
    os.mkfifo(home / "config.yaml")
    reads(capsys, home, *READS)
    code, _, err = run(capsys, home, "accept", f"hermes-pending:{GOOD}")
    assert code in (0, 1), err


# --- text that could lie: bidi, zero-width, Rich markup, terminal escapes ---------------

MARKUP = "[bold]loud[/bold] [link=file:///etc/passwd]click[/link] [red]"
LIAR = f"{MARKUP} invoice\u202egnp.exe \u200bhidden \x1b[2J\x07"


def test_entries_and_records_that_carry_markup_and_controls_are_shown_as_text(home, capsys):
    (home / "memories/USER.md").write_text(DELIM.join([*USER, LIAR]), encoding="utf-8")
    stage = {"action": "add", "target": "user", "content": LIAR}
    write_tree(home, {"pending/memory/0a0a0a04.json": record(stage, summary=LIAR)})
    calls = [
        *READS,
        ("show", "hermes:user#3"),
        ("show", "hermes:user#3", "--json"),
        ("show", "hermes-pending:0a0a0a04"),
        ("show", "hermes-pending:0a0a0a04", "--json"),
        ("search", "loud"),
        ("search", "loud", "--json"),
    ]
    got = reads(capsys, home, *calls)
    for argv in ("show hermes:user#3", "pending", "list"):
        assert "[bold]loud[/bold]" in got[argv][1], argv  # markup is data, not styling
    assert "[link=file:///etc/passwd]click[/link]" in got["show hermes:user#3"][1]
    shown = json.loads(got["show hermes:user#3 --json"][1])
    assert MARKUP in json.dumps(shown, ensure_ascii=False)
    # approving it is refused: Hermes' scan blocks invisible characters
    err = refused(capsys, home, "accept", "hermes-pending:0a0a0a04")
    assert "U+200B" in err or "U+202E" in err, err


# --- ids that name nothing ---------------------------------------------------------------


@pytest.mark.parametrize(
    "ref",
    ["hermes:memory#0", "hermes:memory#-1", "hermes:memory#99", "hermes:memory#" + "9" * 5000,
     "hermes:nobody#1", "hermes:memory#1#2", "hermes:"],
)  # fmt: skip
def test_an_entry_id_that_names_no_entry(home, capsys, ref):
    got = reads(capsys, home, ("show", ref), ("show", ref, "--json"))
    assert got[f"show {ref}"][0] in (1, 2)
    refused(capsys, home, "archive", ref, code=(1, 2))


# --- text handed to memtui that would break Hermes' parse ------------------------------


@pytest.mark.parametrize(
    "text",
    ["one\n§\ntwo", "one\r\n§\r\ntwo", "  \n\t  "],
    ids=["delimiter", "crlf-delimiter", "blank"],
)
def test_an_edit_or_add_that_would_split_into_other_entries_is_refused(home, capsys, text):
    """An entry's text holding Hermes' delimiter would come back as two entries (or none):
    not the entry meant, so nothing is written."""
    body = home.parent / "body.txt"
    body.write_text(text, encoding="utf-8")
    refused(capsys, home, "edit", "hermes:memory#2", "--text-file", str(body))
    refused(capsys, home, "add", "hermes", "user", text)


ARCHIVED = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "target-a-path": json.dumps({"id": "a1", "target": "../x", "index": 1, "text": "t"}),
    "index-negative": json.dumps({"id": "a2", "target": "memory", "index": -5, "text": "t"}),
    "index-huge": json.dumps({"id": "a3", "target": "memory", "index": 10**30, "text": "t"}),
    "text-a-list": json.dumps({"id": "a4", "target": "user", "index": 1, "text": ["t"]}),
    "delimiter-text": json.dumps({"id": "a5", "target": "user", "index": 1, "text": "x\n§\ny"}),
}


@pytest.mark.parametrize("name", list(ARCHIVED))
def test_a_hostile_archive_line_is_reported_and_restoring_it_is_safe(home, capsys, name):
    write_tree(home, {"memories/archived.jsonl": ARCHIVED[name] + "\n"})
    got = reads(capsys, home, *READS)
    ids = [e["id"] for e in json.loads(got["list --json"][1])["entries"] if "archived" in e["id"]]
    before = (
        hermes_entries((home / "memories/MEMORY.md").read_bytes()),
        hermes_entries((home / "memories/USER.md").read_bytes()),
    )
    for ref in ids or ["hermes-archived:a1"]:
        code, _, err = run(capsys, home, "restore", ref)
        if code != 0:
            continue
        after = (
            hermes_entries((home / "memories/MEMORY.md").read_bytes()),
            hermes_entries((home / "memories/USER.md").read_bytes()),
        )
        # a restore puts back exactly one whole entry, where Hermes reads it
        assert sum(len(a) - len(b) for a, b in zip(after, before, strict=True)) == 1, err
    assert not (home.parent / "x").exists()


@pytest.mark.parametrize("junk", ["[" * 100_000, "null", "\x00\x01"], ids=["deep", "null", "nul"])
def test_a_junk_staged_skill_is_shown_read_only(home, capsys, junk):
    write_tree(home, {"pending/skills/5k1115.json": junk})
    reads(capsys, home, *READS, ("show", "hermes-pending:skills/5k1115"))
    err = refused(capsys, home, "accept", "hermes-pending:skills/5k1115")
    assert "read-only" in err


# --- Hermes' own lock files and folders laid as traps --------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "link-out", "dev-zero", "folder", "dangling"])
def test_hermes_lock_file_laid_as_a_trap_never_hangs_or_writes_outside(home, outside, capsys, kind):
    lock = home / "memories" / "MEMORY.md.lock"
    if kind == "fifo":
        os.mkfifo(lock)
    elif kind == "link-out":
        lock.symlink_to(outside / "secret.md")
    elif kind == "dev-zero":
        lock.symlink_to("/dev/zero")
    elif kind == "folder":
        lock.mkdir()
    else:
        lock.symlink_to(outside / "made-by-memtui")
    before = tree_digest(outside)
    for argv in (("accept", f"hermes-pending:{GOOD}"), ("add", "hermes", "memory", "x y")):
        err = refused(capsys, home, *argv)
        assert "MEMORY.md.lock" in err, err
    assert tree_digest(outside) == before
    assert not (outside / "made-by-memtui").exists()


@pytest.mark.parametrize("folder", ["memories", "pending/memory"])
def test_a_hermes_folder_linked_out_of_the_home_is_an_escape(home, outside, capsys, folder):
    write_tree(outside, {"memories/MEMORY.md": SECRET, f"pending/memory/{GOOD}.json": record(ADD)})
    target = outside / folder
    (home / folder).rename(home.parent / "moved")
    (home / folder).symlink_to(target)
    got = reads(capsys, home, *READS)
    found = json.loads(got["check --json"][1])["findings"]
    assert [f["file"] for f in found if f["code"] == "path-escape"] == [folder]  # once
    for _, out, err in got.values():
        assert SECRET not in out + err
    before = tree_digest(outside)
    refused(capsys, home, "accept", f"hermes-pending:{GOOD}")
    assert tree_digest(outside) == before


def test_an_approval_whose_result_would_pass_the_size_limit_is_refused(home, capsys):
    """Within Hermes' character limit, past memtui's byte limit: 3 bytes a character."""
    (home / "config.yaml").write_text("memory:\n  memory_char_limit: 100000\n")
    (home / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 2000\n")
    (home / "memories/MEMORY.md").write_text(DELIM.join([*MEMORY, "n" * 500]), encoding="utf-8")
    write_tree(home, {"pending/memory/0c0c0c02.json": record({**ADD, "content": "界" * 550})})
    reads(capsys, home, *READS)
    err = refused(capsys, home, "accept", "hermes-pending:0c0c0c02")
    assert "MEMORY.md" in err and "2000" in err.replace(",", ""), err


def test_an_add_equal_to_a_bom_headed_first_entry_is_appended_as_hermes_does(home, capsys):
    (home / "memories/MEMORY.md").write_bytes(b"\xef\xbb\xbf" + DELIM.join(MEMORY).encode())
    write_tree(home, {"pending/memory/0a0a0a05.json": record({**ADD, "content": MEMORY[0]})})
    code, _, err = run(capsys, home, "accept", "hermes-pending:0a0a0a05")
    assert code == 0, err
    got = hermes_entries((home / "memories/MEMORY.md").read_bytes())
    assert got == ["\ufeff" + MEMORY[0], *MEMORY[1:], MEMORY[0]]
