"""An OpenClaw workspace written by a hostile agent or a broken disk, through the real CLI:
a Memory Audit log with a truncated last line, CRLF, lines 100,000 deep, a log that is a
FIFO or a link out; suggestions whose source range is out of the file, negative or no
number, whose target or source leads out of the workspace (../, absolute, a link out,
memtui's own files, a FIFO, a folder); daily notes named with odd Unicode. Every answer
is sane (tests/hostile_calls), every refusal exits 1 and changes nothing, nothing hangs.

OpenClaw's rules are restated from openclaw/openclaw
extensions/memory-core/src/memory-audit.ts (records: one JSON.stringify line each, the
last for an id its state; a changed or missing source range becomes `conflict`) and
src/agents/workspace daily notes `memory/YYYY-MM-DD.md`, matched by a JavaScript `\\d`,
which is ASCII digits only.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import tree_digest, write_tree

from tests.hostile_calls import READS, digest, reads, refused, run

LOG = "memory/audit/suggestions.jsonl"
WS = "/home/someone/.openclaw/workspace"
MEMORY = "# MEMORY.md\n\n## Prefs\n- green tea\n- dark mode\n\n## Work\n- rust\n"
SECRET = "TOPSECRET-openclaw-9d1e"


def range_hash(text: str, start: int, end: int) -> str:
    """readRangeHash: the lines joined by "\\n", trimmed, sha256, 16 hex digits."""
    joined = "\n".join(re.split(r"\r?\n", text)[start - 1 : end]).strip()
    return hashlib.sha256(joined.encode()).hexdigest()[:16]


def surface(path: str, kind: str = "agent-memory") -> dict[str, str]:
    return {"surfaceId": "s1", "kind": kind, "path": path, "workspaceDir": WS}


def suggestion(rid: str, action: str, text: str = "- oolong", **kw: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"id": rid, "status": "pending", "action": action, "text": text,
                           "rationale": "why", "confidence": 0.7}  # fmt: skip
    if "source" in kw:
        rec["source"] = kw.pop("source")
    rec["target"] = kw.pop("target", surface("MEMORY.md"))
    rec.update(createdAt="2026-11-28T06:10:00.000Z", updatedAt="2026-11-28T06:10:00.000Z")
    return rec


def line(rec: dict[str, Any]) -> str:
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def edit_of(start: Any, end: Any, rid: str = "ma_edit") -> dict[str, Any]:
    """An edit of MEMORY.md's lines start..end (hashed as staged when they are lines)."""
    staged = range_hash(MEMORY, start, end) if isinstance(start, int) else "0" * 16
    source = {**surface("MEMORY.md"), "startLine": start, "endLine": end, "hash": staged}
    return suggestion(rid, "edit", "- oolong", source=source)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "outside", {"secret.md": f"# {SECRET}\n- {SECRET}\n"})


def workspace(tmp_path: Path, log: str | bytes) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            "AGENTS.md": "# AGENTS.md\n",
            "MEMORY.md": MEMORY,
            "USER.md": "# USER.md\n\n- Lin\n",
            "memory/2026-11-28.md": "- tea\n",
            LOG: log,
        },
    )


def memory_files(root: Path) -> dict[str, str]:
    """The workspace's files but the log (and memtui's own)."""
    return {k: v for k, v in digest(root).items() if k != LOG and not k.startswith(".history")}


# --- the log: truncated, CRLF, deep, not a file ---------------------------------------


def test_a_truncated_last_line_is_kept_and_the_next_record_goes_on_its_own_line(tmp_path, capsys):
    good = suggestion("ma_add", "add", "- oolong")
    raw = line(good) + "\n" + line(suggestion("ma_cut", "add"))[:40]  # the agent died writing
    root = workspace(tmp_path, raw)
    got = reads(capsys, root, *READS)
    assert "openclaw-audit:ma_add" in got["pending"][1]
    assert "ma_cut" not in got["pending"][1]
    code, _, err = run(capsys, root, "accept", "openclaw-audit:ma_add")
    assert code == 0, err
    after = (root / LOG).read_text(encoding="utf-8")
    assert after.startswith(raw + "\n")  # the half line untouched, then a newline
    last = json.loads(after[len(raw) + 1 :])
    assert (last["id"], last["status"]) == ("ma_add", "applied")
    assert (root / "MEMORY.md").read_text().endswith("\n\n- oolong\n")


def test_a_crlf_log_is_read_and_appended_to(tmp_path, capsys):
    raw = line(suggestion("ma_a", "add", "- a")) + "\r\n" + line(suggestion("ma_b", "add", "- b"))
    root = workspace(tmp_path, raw + "\r\n")
    got = reads(capsys, root, *READS)
    assert {"openclaw-audit:ma_a", "openclaw-audit:ma_b"} <= {
        i["id"] for i in json.loads(got["pending --json"][1])["queue"]
    }
    code, _, err = run(capsys, root, "reject", "openclaw-audit:ma_b", "--reason", "no")
    assert code == 0, err
    after = (root / LOG).read_bytes()
    assert after.startswith((raw + "\r\n").encode())
    assert json.loads(after.decode().splitlines()[-1])["status"] == "rejected"


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "junk",
    [
        DEEP,
        '{"id": "ma_deep", "status": "pending", "action": "add", "text": "x", "target": '
        + DEEP
        + "}",
        "null",
        "[]",
        '{"id": 5, "status": "pending", "action": "add", "text": "x", "target": {}}',
        '{"id": "ma_nan", "status": "pending", "action": "add", "text": "x", "target": NaN}',
        "\x01 not json \x1b[2J\x7f",
    ],
    ids=["deep", "deep-target", "null", "list", "id-a-number", "nan", "controls"],
)
def test_a_line_that_is_no_record_is_skipped_as_openclaw_skips_it(tmp_path, capsys, junk):
    raw = line(suggestion("ma_add", "add")) + "\n" + junk + "\n"
    root = workspace(tmp_path, raw)
    got = reads(capsys, root, *READS)
    ids = {i["id"] for i in json.loads(got["pending --json"][1])["queue"]}
    assert "openclaw-audit:ma_add" in ids
    code, _, err = run(capsys, root, "accept", "openclaw-audit:ma_add")
    assert code == 0, err


@pytest.mark.parametrize("kind", ["fifo", "link-out", "folder", "binary", "over-limit"])
def test_a_log_that_cannot_be_read_is_never_written(tmp_path, outside, capsys, kind):
    root = workspace(tmp_path, line(suggestion("ma_add", "add")) + "\n")
    log = root / LOG
    log.unlink()
    if kind == "fifo":
        os.mkfifo(log)
    elif kind == "link-out":
        log.symlink_to(outside / "secret.md")
    elif kind == "folder":
        log.mkdir()
    elif kind == "binary":
        log.write_bytes(b"\x00\x01" + line(suggestion("ma_add", "add")).encode())
    else:
        log.write_text(line(suggestion("ma_add", "add")) + "\n" + "x" * 400)
        (root / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 300\n")
    got = reads(capsys, root, *READS)
    for _, out, err in got.values():
        assert SECRET not in out + err
    before = tree_digest(outside)
    reject = ("reject", "openclaw-audit:ma_add", "--reason", "x")
    for argv in (("accept", "openclaw-audit:ma_add"), reject):
        err = refused(capsys, root, *argv)
        assert LOG in err or "no such suggestion" in err, err
    assert tree_digest(outside) == before


# --- source ranges that are no range ----------------------------------------------------

RANGES = {
    "zero": (0, 1),
    "negative": (-3, -1),
    "reversed": (5, 2),
    "past-the-end": (1, 10**6),
    "huge": (10**30, 10**30),
    "fraction": (1.5, 2),
    "text": ("1", "2"),
    "booleans": (True, True),
    "null": (None, 2),
}


@pytest.mark.parametrize("name", list(RANGES))
def test_a_source_range_out_of_the_file_is_a_conflict_never_a_write(tmp_path, capsys, name):
    start, end = RANGES[name]
    root = workspace(tmp_path, line(edit_of(start, end)) + "\n")
    reads(capsys, root, *READS, ("show", "openclaw-audit:ma_edit"))
    before = memory_files(root)
    code, _, err = run(capsys, root, "accept", "openclaw-audit:ma_edit")
    assert code == 1, err
    assert "conflict" in err or "nothing was written" in err, err
    assert memory_files(root) == before


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1e308"])
def test_a_source_range_past_any_number_is_a_conflict(tmp_path, capsys, number):
    """JSON.parse reads 1e400 as Infinity: no line of any file."""
    rec = line(edit_of(1, 2)).replace('"startLine":1', f'"startLine":{number}')
    root = workspace(tmp_path, rec + "\n")
    reads(capsys, root, *READS, ("show", "openclaw-audit:ma_edit"))
    before = memory_files(root)
    code, _, err = run(capsys, root, "accept", "openclaw-audit:ma_edit")
    assert code == 1 and "source range no longer exists" in err, err
    assert memory_files(root) == before


# --- targets and sources that lead out ------------------------------------------------------

ESCAPES = [
    "../x.md",
    "/etc/x.md",
    "memory/../../x.md",
    "..\\x.md",
    "",
    "MEMORY.md\x00.md",
    "../outside/secret.md",
    ".history/audit.md",
    ".history/MEMORY.md/snap.md",
    LOG,
    "memory/audit",
]


@pytest.mark.parametrize("path", ESCAPES)
def test_an_add_whose_target_leads_out_is_refused(tmp_path, outside, capsys, path):
    root = workspace(tmp_path, line(suggestion("ma_add", "add", target=surface(path))) + "\n")
    (root / ".history").mkdir()
    reads(capsys, root, *READS)
    before = tree_digest(outside)
    refused(capsys, root, "accept", "openclaw-audit:ma_add")
    assert tree_digest(outside) == before


@pytest.mark.parametrize("path", ESCAPES)
def test_a_move_whose_source_leads_out_is_refused(tmp_path, outside, capsys, path):
    source = {**surface(path), "startLine": 1, "endLine": 1, "hash": "0" * 16}
    root = workspace(tmp_path, line(suggestion("ma_mv", "move", source=source)) + "\n")
    reads(capsys, root, *READS)
    before = tree_digest(outside)
    refused(capsys, root, "accept", "openclaw-audit:ma_mv")
    assert tree_digest(outside) == before


@pytest.mark.parametrize("kind", ["link-out", "link-to-dev-zero", "fifo", "folder"])
def test_a_target_that_is_no_file_inside_is_refused_without_hanging(
    tmp_path, outside, capsys, kind
):
    root = workspace(tmp_path, line(suggestion("ma_add", "add", target=surface("TOOLS.md"))) + "\n")
    path = root / "TOOLS.md"
    if kind == "link-out":
        path.symlink_to(outside / "secret.md")
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    got = reads(capsys, root, *READS)
    for _, out, err in got.values():
        assert SECRET not in out + err
    before = tree_digest(outside)
    err = refused(capsys, root, "accept", "openclaw-audit:ma_add")
    assert "TOOLS.md" in err, err
    assert tree_digest(outside) == before


# --- ids and text that could lie ----------------------------------------------------------


@pytest.mark.parametrize(
    "rid",
    ["ma_x@0123456789ab", "ma:colon", "ma x", "ma_" + "9" * 5000, "ma\u202eevil", "ма_кирилл"],
    ids=["at-fingerprint", "colon", "space", "long", "bidi", "cyrillic"],
)
def test_an_odd_suggestion_id_is_shown_escaped_and_can_be_rejected(tmp_path, capsys, rid):
    root = workspace(tmp_path, line(suggestion(rid, "add")) + "\n")
    got = reads(capsys, root, *READS)
    [item] = json.loads(got["pending --json"][1])["queue"]
    code, _, err = run(capsys, root, "reject", item["id"], "--reason", "odd")
    assert code == 0, err
    assert json.loads((root / LOG).read_text().splitlines()[-1])["status"] == "rejected"


MARKUP = "[bold]loud[/bold] [link=file:///etc/passwd]click[/link]"


def test_suggestion_text_with_markup_and_controls_is_shown_as_text(tmp_path, capsys):
    text = f"- {MARKUP} \u202egnp.exe\u200b \x1b[2J\x07"
    root = workspace(tmp_path, line(suggestion("ma_add", "add", text)) + "\n")
    (root / "USER.md").write_text(f"# USER.md\n\n## {MARKUP}\n- \u202eevil \x1b]0;title\x07\n")
    got = reads(
        capsys,
        root,
        *READS,
        ("show", "openclaw-audit:ma_add"),
        ("show", "openclaw-audit:ma_add", "--json"),
        ("show", "file:USER.md"),
        ("show", "file:USER.md", "--json"),
    )
    assert "[bold]loud[/bold]" in got["pending"][1]
    assert MARKUP in got["show file:USER.md"][1]


# --- daily notes named with odd Unicode -------------------------------------------------

ODD_DAILY = {
    "fullwidth-digits": "２０２６-１１-２８.md",
    "arabic-indic-digits": "٢٠٢٦-١١-٢٨.md",
    "bidi-slug": "2026-11-27-\u202eevil.md",
    "escape-slug": "2026-11-27-\x1b[31mred.md",
    "newline-slug": "2026-11-27-a\nb.md",
    "nfd-slug": "2026-11-27-cafe\u0301.md",
}


@pytest.mark.parametrize("name", list(ODD_DAILY))
def test_a_daily_note_with_an_odd_unicode_name(tmp_path, capsys, name):
    root = workspace(tmp_path, "")
    rel = f"memory/{ODD_DAILY[name]}"
    write_tree(root, {rel: f"- {SECRET} from {name}\n"})
    got = reads(capsys, root, *READS)
    daily = {
        f["file"]
        for f in json.loads(got["check --json"][1])["findings"]
        if f["code"] == "daily-name"
    }
    if "digits" in name:  # no JavaScript \d: no daily note, never loaded
        assert rel in daily
        loaded = json.dumps(json.loads(got["context --json"][1]), ensure_ascii=False)
        assert SECRET not in loaded


def test_a_daily_note_whose_name_is_not_utf8(tmp_path, capsys):
    root = workspace(tmp_path, "")
    (root / "memory").joinpath(os.fsdecode(b"2026-11-27-\xff\xfe.md")).write_text("- x\n")
    reads(capsys, root, *READS)


# --- bootstrap files that are no file -----------------------------------------------------


@pytest.mark.parametrize("kind", ["link-out", "dev-zero", "fifo", "folder", "binary", "bom-crlf"])
@pytest.mark.parametrize("name", ["SOUL.md", "MEMORY.md"])
def test_a_bootstrap_file_that_is_no_file_is_never_shown_or_followed(
    tmp_path, outside, capsys, kind, name
):
    root = workspace(tmp_path, line(suggestion("ma_add", "add", target=surface(name))) + "\n")
    path = root / name
    if path.exists():
        path.unlink()
    if kind == "link-out":
        path.symlink_to(outside / "secret.md")
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"# Soul\x00\x1b[2J\n")
    else:
        path.write_bytes(b"\xef\xbb\xbf# Soul\r\n\r\n## Tone\r\n- calm\r\n")
    got = reads(capsys, root, *READS, ("show", f"file:{name}"), ("show", f"openclaw:{name}"))
    for _, out, err in got.values():
        assert SECRET not in out + err
    before = tree_digest(outside)
    if kind == "bom-crlf":  # a file OpenClaw reads: the add lands after it, BOM and CRLF kept
        code, _, err = run(capsys, root, "accept", "openclaw-audit:ma_add")
        assert code == 0, err
        assert path.read_bytes().startswith(b"\xef\xbb\xbf# Soul\r\n\r\n## Tone\r\n- calm")
    else:
        err = refused(capsys, root, "accept", "openclaw-audit:ma_add")
        assert name in err, err
    assert tree_digest(outside) == before


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "\x00binary", "x" * 5000],
    ids=["empty", "blank", "nul", "over-limit"],
)
def test_an_edit_of_a_workspace_section_with_hostile_text_is_refused(tmp_path, capsys, text):
    root = workspace(tmp_path, "")
    (root / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 2000\n")
    body = tmp_path / "body.md"
    body.write_text(text, encoding="utf-8")
    got = reads(capsys, root, ("list", "--json"))
    ids = [e["id"] for e in json.loads(got["list --json"][1])["entries"]]
    assert "openclaw:MEMORY.md#Prefs" in ids, ids
    refused(capsys, root, "edit", "openclaw:MEMORY.md#Prefs", "--text-file", str(body))


def test_an_add_whose_result_would_pass_the_size_limit_is_refused(tmp_path, capsys):
    """A suggestion's text is the agent's: the file it would make is held to max_file_bytes."""
    root = workspace(tmp_path, line(suggestion("ma_big", "add", "- " + "界" * 1000)) + "\n")
    (root / "MEMORY.md").write_text(MEMORY + "- " + "n" * 1500 + "\n")
    (root / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 4000\n")
    reads(capsys, root, *READS)
    err = refused(capsys, root, "accept", "openclaw-audit:ma_big")
    assert "4000-byte limit" in err.replace(",", ""), err
