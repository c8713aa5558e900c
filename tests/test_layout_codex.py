"""Codex's memories folder (SPEC §3b "More agents": codex) on folders no one here wrote,
as real files: detection (and no other layout's folder claimed), ids, what the model is
given at session start (byte for byte as Codex builds it), each finding where it is
due and nowhere else, edits and archives that leave every byte outside their lines
alone, the refusals where Codex would overwrite a change, and the demo.

Codex's rules, restated from openai/codex (rust-v0.160.0):
- codex-rs/ext/memories/src/lib.rs: MEMORY_TOOL_DEVELOPER_INSTRUCTIONS_SUMMARY_TOKEN_LIMIT
  = 2_500; prompts.rs: memory_summary.md `.trim()`ed, truncate_text(Tokens(2_500)),
  rendered into templates/memories/read_path.md (SHA-256 below);
- codex-rs/utils/string/src/truncate.rs: 4 bytes a token; the first budget/2 bytes and
  the last budget - budget/2 bytes kept on character boundaries, joined by
  `…N tokens truncated…`, N = ceil((bytes - budget) / 4);
- codex-rs/memories/write/src/storage.rs: raw_memories.md and rollout_summaries/ are
  rewritten from the state DB before every consolidation;
- codex-rs/memories/write/templates/memories/consolidation.md: MEMORY.md blocks start
  `# Task Group:`; memory_summary.md starts with the line `v1`, or is rewritten whole.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from memtui.engine import ops
from memtui.engine.context import context_of
from memtui.engine.entries import iter_entries, resolve
from memtui.engine.layouts import layout
from memtui.engine.ops.common import Refused
from memtui.engine.store import layouts_at, open_store
from memtui.engine.write.transaction import Conflict
from memtui.layouts.codex.prompt import inject, template
from tests.conftest import memory_digest, write_tree
from tests.helpers import TODAY_DATE, demo_template
from tests.hostile_calls import refused, run

# --- Codex's numbers, restated ----------------------------------------------------------
BUDGET = 2_500 * 4  # bytes of the trimmed summary Codex injects whole
READ_PATH_SHA256 = "2bc7736029884b714860a6f0d6b2fd26598bba58f2213b787f01fe2a491f4326"
RULES = {"summary-truncated", "rollout-missing"}
SHARED = {"unreadable", "path-escape", "json-invalid", "fence-unclosed", "config-invalid"}

ROLLOUT = "2026-11-20T09-14-03-aB3x-fix_flaky_login_test.md"
SUMMARY = """\
v1

## User Profile

Writes a small Go service; wants diffs, not prose.

## User preferences

- when a test is flaky, the user asked: "find why, don't retry it"

## What's in Memory

- login tests: flaky, retry, t.Parallel
"""
HANDBOOK = f"""\
# Task Group: api — flaky login test

scope: the login handler's tests
applies_to: cwd=/src/api; reuse_rule=safe on main

## Task 1: fix the flaky login test, done

### rollout_summary_files

- rollout_summaries/{ROLLOUT} (cwd=/src/api, updated_at=2026-11-20T09:30:00+00:00)

### keywords

- login, t.Parallel

# Task Group: api — release

scope: cutting a release

## Task 1: tag v1.4.0, done

### keywords

- goreleaser
"""
RAW = """\
# Raw Memories

Merged stage-1 raw memories (stable ascending thread-id order):

## Thread `019ab2d4-3c81-7f20-9a4e-5be1c0d2a7f1`
updated_at: 2026-11-20T09:30:00+00:00
cwd: /src/api

task: fix the flaky login test

"""
RECAP = "thread_id: 019ab2d4-3c81-7f20-9a4e-5be1c0d2a7f1\n\nThe login test shared a port.\n"


def folder(tmp_path: Path, **changes: str | bytes | None) -> Path:
    """A memories folder (`rel__path` for a/b), with `changes` (None leaves a file out)."""
    files: dict[str, str | bytes | None] = {
        "memory_summary.md": SUMMARY,
        "MEMORY.md": HANDBOOK,
        "raw_memories.md": RAW,
        f"rollout_summaries/{ROLLOUT}": RECAP,
        "skills/release/SKILL.md": "---\nname: release\ndescription: cut a release\n---\n",
    }
    files.update({k.replace("__", "/"): v for k, v in changes.items()})
    return write_tree(tmp_path / "memories", {k: v for k, v in files.items() if v is not None})


def found(root: Path) -> list[tuple[str, str, int | None]]:
    """(code, file, line) of each finding."""
    return sorted((f.code, f.file, f.line) for f in open_store(root, today=TODAY_DATE).findings)


def ids(root: Path) -> list[str]:
    return [e.id for e in iter_entries(open_store(root, today=TODAY_DATE)) if e.kind == "codex"]


def context(root: Path) -> list:
    return context_of(open_store(root, today=TODAY_DATE))["codex"]


def edit(root: Path, name: str, text: str, **shown: object):
    return layout("codex").edit(str(root), "codex", name, text, **shown)


def edit_refused(root: Path, name: str, text: str, match: str) -> None:
    """The edit is refused with `match` in its reason, and nothing is written."""
    before = memory_digest(root)
    with pytest.raises(Refused, match=match):
        edit(root, name, text)
    assert memory_digest(root) == before


# --- detection ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "files",
    [
        {"memory_summary.md": "v1\n"},
        {"raw_memories.md": "# Raw Memories\n\nNo raw memories yet.\n"},
        {f"rollout_summaries/{ROLLOUT}": RECAP, "MEMORY.md": HANDBOOK},
    ],
)
def test_a_memories_folder_is_codex_by_the_files_only_codex_writes(tmp_path, files):
    root = write_tree(tmp_path / "m", files)
    assert layouts_at(str(root)) == ("codex",)


def test_a_memory_md_alone_is_not_a_codex_folder(tmp_path):
    root = write_tree(tmp_path / "m", {"MEMORY.md": HANDBOOK})
    assert "codex" not in layouts_at(str(root))


def test_a_rollout_summaries_link_out_of_the_root_is_not_followed(tmp_path):
    outside = write_tree(tmp_path / "outside", {ROLLOUT: "SECRET\n"})
    root = folder(tmp_path, **{f"rollout_summaries__{ROLLOUT}": None})
    (root / "rollout_summaries").symlink_to(outside, target_is_directory=True)
    store = open_store(root, today=TODAY_DATE)
    assert "path-escape" in {f.code for f in store.findings}
    assert all("SECRET" not in cf.text for cf in context_of(store)["codex"])


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_template(tmp_path_factory, "codex-demo")


@pytest.mark.parametrize("sub", ["", "claude", "hermes", "openclaw", "cline", "codex"])
def test_no_layout_claims_anothers_demo_folder(demo, sub):
    expected = {"": ("workspace", "companion", "dsh")}
    assert layouts_at(str(demo / sub)) == expected.get(sub, (sub,))


def test_its_demo_shows_the_cut_summary_and_the_pruned_rollout(demo):
    codes = {(code, file) for code, file, _line in found(demo / "codex")}
    assert codes == {("summary-truncated", "memory_summary.md"), ("rollout-missing", "MEMORY.md")}


def test_usual_places_are_codex_home_memories(tmp_path):
    det = layout("codex")
    assert det.usual_places("/home/u", {}) == ["/home/u/.codex/memories"]
    assert det.usual_places("/home/u", {"CODEX_HOME": "/opt/cx"}) == ["/opt/cx/memories"]


# --- entries and their ids ---------------------------------------------------------


def test_each_file_and_the_blocks_codex_writes_are_entries(tmp_path):
    root = folder(tmp_path, extensions__ad_hoc__notes__n_md="x", **{".hidden.md": "# h\n"})
    assert ids(root) == [
        "codex:memory_summary.md",
        "codex:memory_summary.md#User Profile",
        "codex:memory_summary.md#User preferences",
        "codex:memory_summary.md#What's in Memory",
        "codex:MEMORY.md",
        "codex:MEMORY.md#Task Group: api — flaky login test",
        "codex:MEMORY.md#Task Group: api — release",
        "codex:raw_memories.md",
        "codex:raw_memories.md#Thread `019ab2d4-3c81-7f20-9a4e-5be1c0d2a7f1`",
        f"codex:rollout_summaries/{ROLLOUT}",
        "codex:skills/release/SKILL.md",
        "codex:extensions/ad_hoc/notes/n_md",
    ]


def test_two_blocks_with_one_heading_are_named_by_place_and_fingerprint(tmp_path):
    twice = HANDBOOK + "\n# Task Group: api — release\n\nscope: again\n"
    root = folder(tmp_path, MEMORY_md=None, **{"MEMORY.md": twice})
    named = [i for i in ids(root) if "release" in i]
    assert named[0].startswith("codex:MEMORY.md#Task Group: api — release@")
    assert named[1].startswith("codex:MEMORY.md#Task Group: api — release#2@")
    store = open_store(root, today=TODAY_DATE)
    second = resolve(store, named[1]).span
    assert "scope: again" in (root / "MEMORY.md").read_text()[second.char_start :]


# --- what the model is given at session start ------------------------------------------


def test_the_read_path_prompt_is_codexs_own_file_byte_for_byte():
    assert hashlib.sha256(template().encode("utf-8")).hexdigest() == READ_PATH_SHA256


def test_a_summary_within_the_budget_is_given_whole_inside_the_read_path_prompt(tmp_path):
    root = folder(tmp_path, memory_summary_md=None, **{"memory_summary.md": "\n\n" + SUMMARY})
    got = context(root)
    summary = got[0]
    base = str(root)
    expected = template().replace("{{ base_path }}", base)
    expected = expected.replace("{{ memory_summary }}", SUMMARY.strip())
    assert summary.file == "memory_summary.md"
    assert summary.text == expected
    assert not summary.cut
    assert f"- {base}/memory_summary.md (already provided below; do NOT open again)" in summary.text


def test_a_long_summary_is_cut_head_and_tail_as_truncate_rs_cuts_it(tmp_path):
    lines = [f"- topic {n:03d}: {'x' * 60}" for n in range(200)]  # 76 bytes a line
    text = "v1\n\n## What's in Memory\n\n" + "\n".join(lines) + "\n"
    root = folder(tmp_path, memory_summary_md=None, **{"memory_summary.md": text})
    trimmed = text.strip()
    size = len(trimmed.encode())
    removed = -(-(size - BUDGET) // 4)
    expected = f"{trimmed[:5000]}…{removed} tokens truncated…{trimmed[-5000:]}"
    summary = context(root)[0]
    begins = "========= MEMORY_SUMMARY BEGINS =========\n"
    assert summary.text.split(begins)[1].split("\n=========")[0] == expected
    first = text[: len(text) - len(text.lstrip())].count("\n") + trimmed[:5000].count("\n") + 1
    assert summary.first_unloaded_line == first
    tail_at = len(text.rstrip()) - 5000  # the tail starts inside a line: it is not loaded
    assert summary.last_unloaded_line == text.count("\n", 0, tail_at) + 1
    assert ("summary-truncated", "memory_summary.md", first) in found(root)


def test_the_cut_falls_on_character_boundaries_counting_utf8_bytes(tmp_path):
    body = "v1\n\n" + "记" * 4000  # 3 bytes a character: 12,004 bytes
    got = inject(body, "/m", 2_500)
    head, _, rest = got.summary.partition("…")
    marker, _, tail = rest.partition("…")
    assert head == "v1\n\n" + "记" * 1665  # 4 + 4,995 bytes; one more would pass 5,000
    assert tail == "记" * 1666  # the characters starting at or after byte 12,004 - 5,000
    assert marker == f"{-(-(12_004 - BUDGET) // 4)} tokens truncated"


def test_trimming_is_rusts_white_space_not_pythons(tmp_path):
    got = inject("\x1c v1 summary \x1c\u3000\n", "/m", 2_500)
    assert got.summary == "\x1c v1 summary \x1c"  # U+001C is no White_Space; U+3000 is


def test_codexs_own_words_are_marked_the_files_lines_numbered_from_one(tmp_path):
    from memtui.engine.context_rows import AGENT, HEAD, context_rows

    rows = context_rows(open_store(folder(tmp_path), today=TODAY_DATE))
    assert AGENT in next(text for kind, text in rows if kind == HEAD)
    texts = [text for _kind, text in rows]
    begins = next(i for i, t in enumerate(texts) if t.endswith("MEMORY_SUMMARY BEGINS ========="))
    assert texts[0 + 1].lstrip().startswith(f"{AGENT}  ## Memory")
    assert texts[begins].lstrip().startswith(AGENT)
    assert texts[begins + 1].split() == ["1", "v1"]
    ends = next(i for i, t in enumerate(texts) if t.endswith("MEMORY_SUMMARY ENDS ========="))
    assert texts[ends - 1].split()[0] == str(SUMMARY.strip().count("\n") + 1)
    assert texts[ends].lstrip().startswith(AGENT)


def test_a_bom_reaches_the_prompt_as_read_to_string_keeps_it(tmp_path):
    root = folder(tmp_path, memory_summary_md=None, **{"memory_summary.md": b"\xef\xbb\xbfv1\n"})
    assert "BEGINS =========\n\ufeffv1\n=========" in context(root)[0].text


def test_an_empty_summary_injects_nothing(tmp_path):
    root = folder(tmp_path, memory_summary_md=None, **{"memory_summary.md": " \n\n"})
    summary = context(root)[0]
    assert summary.text == ""
    assert "no memory prompt" in summary.note


def test_every_other_file_is_listed_as_not_loaded_with_why(tmp_path):
    got = {cf.file: cf for cf in context(folder(tmp_path))}
    assert set(got) == {
        "memory_summary.md",
        "MEMORY.md",
        "raw_memories.md",
        f"rollout_summaries/{ROLLOUT}",
        "skills/release/SKILL.md",
    }
    for rel in set(got) - {"memory_summary.md"}:
        assert got[rel].text == "" and got[rel].first_unloaded_line == 1
        assert got[rel].note.startswith("not loaded at session start: ")
    assert "on demand" in got["MEMORY.md"].note
    assert "consolidation" in got["raw_memories.md"].note


def test_a_summary_that_is_not_utf8_is_named_unreadable_in_context(tmp_path):
    root = folder(tmp_path, memory_summary_md=None, **{"memory_summary.md": b"v1\n\xff\xfe"})
    summary = context(root)[0]
    assert summary.file == "memory_summary.md" and summary.unreadable
    assert ("unreadable", "memory_summary.md", None) in found(root)


def test_context_json_is_the_prompt_codex_builds(capsys, tmp_path):
    root = folder(tmp_path)
    _code, out, _err = run(capsys, root, "context", "--json")
    files = json.loads(out)["layouts"][0]["files"]
    assert files[0]["file"] == "memory_summary.md"
    assert files[0]["text"].startswith("## Memory\n\nYou have access to a memory folder")
    assert "========= MEMORY_SUMMARY BEGINS =========\nv1\n\n## User Profile" in files[0]["text"]


# --- findings ------------------------------------------------------------------------


def test_a_healthy_folder_has_no_finding(tmp_path):
    assert found(folder(tmp_path)) == []


def test_a_rollout_summary_memory_md_names_and_that_is_gone_is_reported_once(tmp_path):
    gone = "2026-10-01T08-00-00-Zz9q-old_task.md"
    text = HANDBOOK + f"\n- rollout_summaries/{gone} (cwd=/src/api)\n- `rollout_summaries/{gone}`\n"
    root = folder(tmp_path, MEMORY_md=None, **{"MEMORY.md": text})
    line = text.split("\n").index(f"- rollout_summaries/{gone} (cwd=/src/api)") + 1
    assert found(root) == [("rollout-missing", "MEMORY.md", line)]


def test_placeholders_and_globs_are_no_rollout_reference(tmp_path):
    text = HANDBOOK + "\n- <rollout_summaries/file1.md>\n- read rollout_summaries/*.md\n"
    root = folder(tmp_path, MEMORY_md=None, **{"MEMORY.md": text})
    assert found(root) == []


def test_the_budget_follows_memtui_toml_for_an_older_codex(tmp_path):
    text = "v1\n\n" + "word " * 3000  # 15,004 bytes: past 2,500 tokens, within 5,000
    root = folder(tmp_path, memory_summary_md=None, **{"memory_summary.md": text})
    assert [c for c, _f, _l in found(root)] == ["summary-truncated"]
    (root / "memtui.toml").write_text("[thresholds]\ncodex_summary_tokens = 5000\n")
    assert found(root) == []
    assert not context(root)[0].cut


# --- edits -----------------------------------------------------------------------------


def test_a_block_edit_changes_only_its_lines_crlf_and_all(tmp_path):
    crlf = HANDBOOK.replace("\n", "\r\n")
    root = folder(tmp_path, MEMORY_md=None, **{"MEMORY.md": crlf})
    new = "# Task Group: api — release\n\nscope: cutting a release with goreleaser\n"
    edit(root, "MEMORY.md#Task Group: api — release", new)
    after = (root / "MEMORY.md").read_bytes().decode()
    head = crlf[: crlf.index("# Task Group: api — release")]
    assert after == head + new.replace("\n", "\r\n")


def test_a_block_edit_must_stay_one_block(tmp_path):
    two = "# Task Group: a\n\n# Task Group: b\n"
    edit_refused(folder(tmp_path), "MEMORY.md#Task Group: api — release", two, "one block")


@pytest.mark.parametrize(
    ("rel", "says"),
    [
        ("raw_memories.md", "rebuild_raw_memories_file_from_memories"),
        (f"rollout_summaries/{ROLLOUT}", "sync_rollout_summaries_from_memories"),
    ],
)
def test_a_file_codex_rebuilds_from_its_state_db_is_never_changed(capsys, tmp_path, rel, says):
    root = folder(tmp_path)
    new = tmp_path / "new.md"
    new.write_text("changed\n")
    for argv in (("edit", f"codex:{rel}", "--text-file", str(new)), ("archive", f"codex:{rel}")):
        err = refused(capsys, root, *argv)
        assert says in err and "state DB" in err and "lost" in err
    err = refused(capsys, root, "edit", f"codex:{rel}", "--text-file", str(new), "--insist")
    assert says in err


@pytest.mark.parametrize(
    ("rel", "refused_"),
    [
        ("extensions/chronicle/resources/2026-11-20T09-00-00-standup.md", True),
        ("extensions/chronicle/instructions.md", True),
        ("extensions/ad_hoc/instructions.md", False),  # seeded once, then kept
        ("extensions/ad_hoc/notes/2026-11-20T09-00-00-prefer-uv.md", False),
    ],
)
def test_what_codex_syncs_for_an_extension_is_refused_a_note_is_edited(tmp_path, rel, refused_):
    root = folder(tmp_path, **{rel.replace("/", "__"): "old text\n"})
    if refused_:
        edit_refused(root, rel, "new text\n", "persistent.rs")
    else:
        edit(root, rel, "new text\n")
        assert (root / rel).read_text() == "new text\n"


def test_a_summary_edit_that_drops_v1_is_refused_one_that_keeps_it_is_made(tmp_path):
    root = folder(tmp_path)
    edit_refused(root, "memory_summary.md", "## User Profile\n\nno version line\n", "v1")
    new = "## User Profile\n\nWrites Go; wants diffs.\n"
    edit(root, "memory_summary.md#User Profile", new)
    assert (root / "memory_summary.md").read_text() == SUMMARY.replace(
        "## User Profile\n\nWrites a small Go service; wants diffs, not prose.\n", new
    )


def test_an_edit_after_codex_rewrote_the_block_is_refused(tmp_path):
    root = folder(tmp_path)
    store = open_store(root, today=TODAY_DATE)
    entry = resolve(store, "codex:MEMORY.md#Task Group: api — release")
    seen = (root / "MEMORY.md").read_text()[entry.span.char_start : entry.span.char_stop]
    (root / "MEMORY.md").write_text(HANDBOOK.replace("goreleaser", "goreleaser, cosign"))
    before = memory_digest(root)
    with pytest.raises(Conflict):
        edit(root, "MEMORY.md#Task Group: api — release", seen + "x\n", seen_text=seen)
    assert memory_digest(root) == before


# --- archive and restore ---------------------------------------------------------------


def test_a_memory_md_block_archives_out_and_restores_byte_for_byte(tmp_path):
    root = folder(tmp_path, MEMORY_md=None, **{"MEMORY.md": HANDBOOK.rstrip("\n")})
    before = memory_digest(root)
    ref = "codex:MEMORY.md#Task Group: api — flaky login test"
    ops.archive(str(root), ref)
    assert "flaky login" not in (root / "MEMORY.md").read_text()
    assert set(memory_digest(root)) - set(before) == {".memtui-archive.jsonl"}
    assert ref not in ids(root)
    ops.restore(str(root), ref)
    assert memory_digest(root) == before


@pytest.mark.parametrize(
    "ref",
    ["codex:memory_summary.md#User Profile", "codex:MEMORY.md", "codex:skills/release/SKILL.md"],
)
def test_only_a_memory_md_block_is_archived(tmp_path, ref):
    root = folder(tmp_path)
    before = memory_digest(root)
    with pytest.raises(Refused, match=r"only a block of MEMORY\.md"):
        ops.archive(str(root), ref)
    assert memory_digest(root) == before
