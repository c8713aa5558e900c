"""The OpenClaw workspace as OpenClaw reads it today (issue 25 item 6), on workspaces
no one here wrote: detection without AGENTS.md and no other layout's folder claimed,
USER.md's own cap, the files OpenClaw injects no more, the legacy memory.md, the daily
notes as a new session quotes them, and dreaming's files and annotations.

OpenClaw's rules, restated from openclaw/openclaw as published (npm `openclaw`
2026.9.6): `src/agents/embedded-agent-helpers/bootstrap.ts` (USER_BOOTSTRAP_MAX_CHARS
= 4,000, fileBudget = min(bootstrapMaxChars, 4,000) for USER.md),
`src/agents/workspace-bootstrap-policy.ts` (WORKSPACE_BOOTSTRAP_FILENAMES: AGENTS,
SOUL, IDENTITY, USER, BOOTSTRAP, MEMORY), `src/memory/root-memory-files.ts` (MEMORY.md
canonical, memory.md legacy), `src/auto-reply/reply/session-startup-context.ts`
(1,200 characters a note, 2,800 in all, 16,384 bytes read, 4 slugged notes a day),
`extensions/memory-core/src/dreaming-consolidation.ts` (`Source:`, `<!-- trigger -->`,
`<!-- importance -->`) and `dreaming-dreams-file.ts` (DREAMS.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtui.engine.store import layouts_at
from tests.conftest import memory_digest, run_cli, write_tree
from tests.helpers import demo_template
from tests.test_layout_openclaw import (
    check_json,
    context,
    first_unloaded,
    js_len,
    lines_to,
    openclaw_cut,
    quoted,
)

USER_CAP = 4_000
NOTE_CHARS, ALL_CHARS, NOTE_BYTES = 1_200, 2_800, 16_384
MORE_LINE = "\n...[additional startup memory truncated]..."


def codes(root: Path) -> set[tuple[str, str, str | None, int | None]]:
    got = run_cli("check", "--json", "--store", str(root))
    assert got.returncode in (0, 1), got.stderr
    return {
        (f["code"], f["level"], f["file"], f["line"]) for f in json.loads(got.stdout)["findings"]
    }


# --- detection ------------------------------------------------------------------------


def test_a_workspace_without_agents_md_is_one_by_two_of_its_files(tmp_path: Path) -> None:
    tools = lines_to(24_617, "tools")  # the published workspace's TOOLS.md
    root = write_tree(
        tmp_path / "ws", {"SOUL.md": "# Soul\n", "TOOLS.md": tools, "MEMORY.md": "# M\n- x\n"}
    )
    assert layouts_at(str(root)) == ("openclaw",)
    pair = write_tree(tmp_path / "pair", {"IDENTITY.md": "- Name: Clawd\n", "USER.md": "- Lin\n"})
    assert layouts_at(str(pair)) == ("openclaw",)


@pytest.mark.parametrize(
    "files",
    [
        {"SOUL.md": "# a Hermes home's persona\n", "memories/MEMORY.md": "x\n"},
        {"SOUL.md": "# alone\n"},
        {"MEMORY.md": "# m\n", "USER.md": "# u\n"},  # names other agents keep too
        {"memory.md": "# index\n", "soul.md": "# soul\n", "user.md": "# user\n"},
        {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "a\n"},
        {"MEMORY.md": "# m\n", "memory/events.md": "# e\n"},
    ],
    ids=["hermes-home", "lone-soul", "shared-names", "seed-workspace", "claude", "companion"],
)
def test_no_other_agents_folder_is_taken_for_a_workspace(tmp_path: Path, files) -> None:
    assert "openclaw" not in layouts_at(str(write_tree(tmp_path / "x", files)))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_template(tmp_path_factory, "openclaw-today-demo")


@pytest.mark.parametrize("folder", ["", "claude", "hermes", "openclaw", "cline"])
def test_each_demo_folder_keeps_its_own_layout(demo, folder) -> None:
    found = layouts_at(str(demo / folder))
    assert ("openclaw" in found) == (folder == "openclaw")
    if folder == "openclaw":
        assert found == ("openclaw",)


# --- what is injected -------------------------------------------------------------------


def test_user_md_is_cut_at_its_own_4000(tmp_path: Path) -> None:
    user = lines_to(USER_CAP + 1, "user")
    root = write_tree(tmp_path / "ws", {"AGENTS.md": "# A\n", "SOUL.md": "s\n", "USER.md": user})
    injected, head = openclaw_cut(user, "USER.md", USER_CAP)
    got = context(root)["USER.md"]
    assert got["text"] == injected and js_len(injected) <= USER_CAP
    assert "[...truncated, read USER.md for full content...]" in injected
    line = first_unloaded(user.rstrip(), head)
    assert got["first_unloaded_line"] == line
    assert ("bootstrap-size", "error", "USER.md", line) in check_json(root)


def test_user_md_warns_from_80_percent_of_its_cap(tmp_path: Path) -> None:
    for units, due in ((3_199, False), (3_200, True), (USER_CAP, True)):
        user = lines_to(units, "user")
        root = write_tree(tmp_path / f"u{units}", {"AGENTS.md": "# A\n", "USER.md": user})
        assert context(root)["USER.md"]["text"] == user.rstrip()
        assert (("bootstrap-size", "warning", "USER.md", None) in check_json(root)) is due


def test_tools_and_heartbeat_are_injected_no_more(tmp_path: Path) -> None:
    tools = lines_to(24_617, "tools")
    root = write_tree(
        tmp_path / "ws",
        {"AGENTS.md": "# A\n", "SOUL.md": "s\n", "TOOLS.md": tools, "HEARTBEAT.md": "- inbox\n"},
    )
    files = context(root)
    assert "TOOLS.md" not in files and "HEARTBEAT.md" not in files
    assert list(files) == ["AGENTS.md", "SOUL.md", "IDENTITY.md"]  # IDENTITY.md: [MISSING]
    found = codes(root)
    assert ("bootstrap-retired", "info", "TOOLS.md", None) in found
    assert ("bootstrap-retired", "info", "HEARTBEAT.md", None) in found
    assert not any(code == "bootstrap-size" for code, *_ in found)


def test_absent_user_bootstrap_and_memory_get_no_missing_marker(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ws", {"AGENTS.md": "# A\n", "SOUL.md": "s\n"})
    files = context(root)
    assert list(files) == ["AGENTS.md", "SOUL.md", "IDENTITY.md"]
    assert files["IDENTITY.md"]["text"] == f"[MISSING] Expected at: {root / 'IDENTITY.md'}"


def test_legacy_memory_md_is_never_injected(tmp_path: Path) -> None:
    both = write_tree(
        tmp_path / "both",
        {"AGENTS.md": "# A\n", "MEMORY.md": "- new\n", "memory.md": "- old fact\n"},
    )
    files = context(both)
    assert files["MEMORY.md"]["text"] == "- new" and "memory.md" not in files
    assert ("memory-case", "warning", "memory.md", None) in codes(both)
    legacy = write_tree(tmp_path / "legacy", {"AGENTS.md": "# A\n", "memory.md": "- old\n"})
    assert "memory.md" not in context(legacy) and "MEMORY.md" not in context(legacy)
    assert ("memory-case", "warning", "memory.md", None) in codes(legacy)


def test_a_bom_is_one_more_character_as_openclaw_reads_it(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ws", {"AGENTS.md": "# A\n", "SOUL.md": "\ufeff# Soul\n"})
    assert context(root)["SOUL.md"]["text"] == "\ufeff# Soul"


# --- the daily notes a new session quotes ------------------------------------------------


def notes(tmp_path: Path, **files: str) -> Path:
    return write_tree(tmp_path / "ws", {"AGENTS.md": "# A\n", "SOUL.md": "s\n", **files})


def test_a_long_note_is_quoted_to_1200_characters_and_its_cut_marked(tmp_path: Path) -> None:
    body = "".join(f"- line {n:03d} 记忆 notes\n" for n in range(120))
    root = notes(tmp_path, **{"memory/2026-11-29.md": "\n\n" + body})
    got = context(root)["memory/2026-11-29.md"]
    kept = body.strip()[:NOTE_CHARS]  # ASCII and CJK: one unit each
    assert got["text"].endswith(quoted("memory/2026-11-29.md", kept + "\n...[truncated]..."))
    # two blank lines lead the note: the quote starts on line 3
    assert got["first_unloaded_line"] == 3 + kept.count("\n")


def test_notes_stop_at_2800_characters_in_all(tmp_path: Path) -> None:
    """Two full notes, a third cut to what is left, a fourth past the budget."""
    big = "x" * NOTE_CHARS + "\n"
    names = ["memory/2026-11-29.md", "memory/2026-11-29-a.md", "memory/2026-11-28.md"]
    root = notes(tmp_path, **{rel: big for rel in [*names, "memory/2026-11-28-b.md"]})
    files = context(root)
    first, second, third = (files[rel]["text"] for rel in names)
    assert first.endswith("\n\n" + quoted(names[0], big))
    assert second == quoted(names[1], big)
    assert third.endswith("...[truncated]...\n```\nEND_QUOTED_NOTES" + MORE_LINE)
    blocks = [first.split("\n\n", 1)[1], second, third.removesuffix(MORE_LINE)]
    assert sum(js_len(b) for b in blocks) <= ALL_CHARS
    assert files[names[2]]["first_unloaded_line"] == 1  # a one-line note, cut
    fourth = files["memory/2026-11-28-b.md"]
    assert fourth["text"] == "" and fourth["first_unloaded_line"] == 1  # said, not silent


def test_slugged_notes_come_newest_first_at_most_four_a_day(tmp_path: Path) -> None:
    slugs = {f"memory/2026-11-29-s{n}.md": f"- slug {n}\n" for n in range(6)}
    root = notes(tmp_path, **{"memory/2026-11-29.md": "- plain\n", **slugs})
    for n in range(6):  # s0 oldest, s5 newest
        os.utime(root / f"memory/2026-11-29-s{n}.md", (1_000_000 + n, 1_000_000 + n))
    listed = [f for f in context(root) if f.startswith("memory/")]
    assert listed == [
        "memory/2026-11-29.md", "memory/2026-11-29-s5.md", "memory/2026-11-29-s4.md",
        "memory/2026-11-29-s3.md", "memory/2026-11-29-s2.md",
    ]  # fmt: skip


def test_a_note_over_16384_bytes_is_not_read(tmp_path: Path) -> None:
    root = notes(tmp_path, **{"memory/2026-11-29.md": "y" * (NOTE_BYTES + 1)})
    got = context(root)["memory/2026-11-29.md"]
    assert got["text"] == "" and "16,384" in got_note(root, "memory/2026-11-29.md")


def got_note(root: Path, rel: str) -> str:
    out = run_cli("context", "--store", str(root)).stdout
    return out[out.index(f"openclaw: {rel}") :]


# --- dreaming -------------------------------------------------------------------------------

PROMOTED = (
    "# Long-Term Memory\r\n\r\n## Prefs\r\n- green tea\r\n\r\n"
    "## Consolidated Memory (2026-11-28)\r\n\r\n"
    "<!-- openclaw-memory-lineage:tea -->\r\n"
    "<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->\r\n"
    "- 喜欢绿茶 Source: memory/2026-11-27.md#L3-L3 <!-- trigger: tea, 绿茶 --> "
    "<!-- importance: 8 --> <!-- project: home -->\r\n"
)


def dreamed(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            "AGENTS.md": "# A\n",
            "MEMORY.md": PROMOTED,
            "DREAMS.md": "# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n"
            "- tea again\n<!-- openclaw:dreaming:diary:end -->\n",
            "memory/.dreams/session-corpus/2026-11-28.txt": "user: tea\n",
            "memory/.dreams/session-ingestion.json": "{}\n",
            "memory/dreaming/deep/2026-11-28.md": "# Deep\n",
        },
    )


def test_a_promoted_entry_says_where_it_came_from(tmp_path: Path) -> None:
    root = dreamed(tmp_path)
    entry = "openclaw:MEMORY.md#Consolidated Memory (2026-11-28)"
    got = run_cli("show", entry, "--json", "--store", str(root))
    assert got.returncode == 0, got.stderr
    shown = json.loads(got.stdout)
    assert "promoted by dreaming from memory/2026-11-27.md#L3-L3" in shown["title"]
    assert shown["promoted_by_dreaming"] == [
        {"line": 10, "source": "memory/2026-11-27.md#L3-L3", "trigger": "tea, 绿茶",
         "importance": 8, "project": "home", "promotion": "memory:memory/2026-11-27.md:3:3",
         "lineage": "tea"}
    ]  # fmt: skip
    prefs = json.loads(
        run_cli("show", "openclaw:MEMORY.md#Prefs", "--json", "--store", str(root)).stdout
    )
    assert "promoted_by_dreaming" not in prefs and "dreaming" not in prefs["title"]


def test_an_edit_keeps_dreamings_annotations_byte_for_byte(tmp_path: Path) -> None:
    root = dreamed(tmp_path)
    new = tmp_path / "new.md"
    new.write_bytes(b"## Prefs\n- oolong\n")
    got = run_cli("edit", "openclaw:MEMORY.md#Prefs", "--text-file", str(new), "--store", str(root))
    assert got.returncode == 0, got.stderr
    after = (root / "MEMORY.md").read_bytes()
    assert after == PROMOTED.replace("- green tea", "- oolong").encode()


def test_dreams_md_and_its_state_are_known_not_loaded_and_not_edited(tmp_path: Path) -> None:
    root = dreamed(tmp_path)
    files = context(root)
    assert "DREAMS.md" not in files and not any(".dreams" in f for f in files)
    found = codes(root)
    assert not any(file and ("dream" in file.lower()) for _, _, file, _ in found), found
    before = memory_digest(root)
    new = tmp_path / "new.md"
    new.write_bytes(b"# mine\n")
    got = run_cli("edit", "openclaw:DREAMS.md", "--text-file", str(new), "--store", str(root))
    assert got.returncode == 1 and "dreaming's diary" in got.stderr
    assert memory_digest(root) == before


# --- where it is looked for -------------------------------------------------------------


@pytest.mark.parametrize(
    "var", ["OPENCLAW_WORKSPACE_DIR", "OPENCLAW_STATE_DIR", "OPENCLAW_PROFILE"]
)
def test_stores_finds_the_workspace_its_environment_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, var: str
) -> None:
    """workspace-default.ts resolveDefaultAgentWorkspaceDir."""
    from memtui.engine import stores
    from tests.test_stores import temporary_home

    home = temporary_home(tmp_path, monkeypatch)
    for name in ("OPENCLAW_WORKSPACE_DIR", "OPENCLAW_STATE_DIR", "OPENCLAW_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    value, ws = {
        "OPENCLAW_WORKSPACE_DIR": (str(tmp_path / "ws"), tmp_path / "ws"),
        "OPENCLAW_STATE_DIR": (str(tmp_path / "state"), tmp_path / "state" / "workspace"),
        "OPENCLAW_PROFILE": ("work", home / ".openclaw-work" / "workspace"),
    }[var]
    monkeypatch.setenv(var, value)
    write_tree(ws, {"SOUL.md": "# s\n", "IDENTITY.md": "- Name: Clawd\n"})
    default = write_tree(home / ".openclaw" / "workspace", {"AGENTS.md": "# A\n", "SOUL.md": "s\n"})
    found = {s.path: s.layouts for s in stores.stores()}
    assert found == {str(ws): ("openclaw",), str(default): ("openclaw",)}
