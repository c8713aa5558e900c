"""The OpenClaw agent workspace (SPEC §3b) on a workspace no one here wrote: detection,
the findings where they are due and nowhere else, what the agent is given of each
bootstrap file (the cut re-stated below from OpenClaw's source, not from memtui's),
and edits that leave every byte outside their lines alone."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from memtui.engine.layouts import registry
from memtui.engine.store import layouts_at, open_store
from tests.conftest import run_cli, tree_digest, write_tree

# --- OpenClaw's rules, re-stated from openclaw/openclaw -----------------------------
# src/agents/embedded-agent-helpers/bootstrap.ts: DEFAULT_BOOTSTRAP_MAX_CHARS = 20_000,
# DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 60_000, BOOTSTRAP_HEAD_RATIO 0.75 / TAIL 0.25 of
# what is left once the marker is reserved. "chars" are String#length: UTF-16 units.
MAX = 20_000


def js_len(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def js_slice_safe(s: str, start: int, end: int | None = None) -> str:
    """src/utils.ts sliceUtf16Safe: a UTF-16 slice that never splits a surrogate pair
    (a start inside a pair moves forward, an end inside one moves back)."""
    u = s.encode("utf-16-le", "surrogatepass")
    units = [u[i] | u[i + 1] << 8 for i in range(0, len(u), 2)]
    n = len(units)
    lo = max(n + start, 0) if start < 0 else min(start, n)
    hi = n if end is None else min(end, n)
    if 0 < lo < n and 0xDC00 <= units[lo] <= 0xDFFF and 0xD800 <= units[lo - 1] <= 0xDBFF:
        lo += 1
    if 0 < hi < n and 0xD800 <= units[hi - 1] <= 0xDBFF and 0xDC00 <= units[hi] <= 0xDFFF:
        hi -= 1
    return u[2 * lo : 2 * hi].decode("utf-16-le", "surrogatepass")


def openclaw_cut(content: str, name: str, limit: int = MAX) -> tuple[str, str]:
    """trimBootstrapContent (bootstrap.ts) for a file other than AGENTS.md: (what is
    injected, the head kept from the file's start)."""
    trimmed = content.rstrip()  # trimEnd (ASCII whitespace is all these texts end with)
    length = js_len(trimmed)
    if length <= limit:
        return trimmed, trimmed

    def marker(h: int, t: int) -> str:
        return (
            f"\n[...truncated, read {name} for full content...]\n"
            f"…(truncated {name}: kept {h}+{t} chars of {length})…\n"
        )

    head = tail = 0
    for _ in range(3):  # the marker's digits change its length: settle as the source does
        budget = limit - js_len(marker(head, tail)) - (int(head > 0) + int(tail > 0))
        head, tail = math.floor(budget * 0.75), math.floor(budget * 0.25)
    while (over := head + tail + js_len(marker(head, tail)) + 2 - limit) > 0:
        tail = max(0, tail - over)  # the tail gives way first
    kept_head = js_slice_safe(trimmed, 0, head)
    return "\n".join([kept_head, marker(head, tail), js_slice_safe(trimmed, -tail)]), kept_head


def first_unloaded(trimmed: str, head: str) -> int:
    """The first line of the file with a character the head does not hold."""
    line = head.count("\n") + 1
    return line + 1 if trimmed[len(head) :].startswith("\n") else line


# --- a workspace no one here wrote -------------------------------------------------


def lines_to(units: int, word: str) -> str:
    """Numbered lines of CJK and emoji text, `units` UTF-16 units long once OpenClaw has
    trimmed its end (the final newline)."""
    out, total, n = [], 0, 0
    while True:
        line = f"{n:04d} {word} 记忆 😀 notes\n"
        if total + js_len(line) > units - 1:
            break
        out.append(line)
        total += js_len(line)
        n += 1
    return "".join(out) + "x" * (units - total) + "\n"  # trimEnd leaves `units` units


def workspace(tmp_path: Path, **extra: str) -> Path:
    files = {
        "AGENTS.md": "# AGENTS.md\n\n- Read SOUL.md first\n",
        "SOUL.md": lines_to(15_999, "soul"),  # just under 80%: no finding
        "USER.md": lines_to(3_200, "user"),  # 80% of USER.md's own 4,000: warning
        "MEMORY.md": lines_to(20_001, "memory"),  # one unit over: cut, error
        "memory/2026-11-29.md": "- today\n",
        "memory/2026-11-28-standup.md": "- yesterday, with a slug\n",
        "memory/2026-11-30.md": "- tomorrow\n",  # future: daily-name
        "memory/2026-02-30.md": "- no such day\n",  # daily-name
        "memory/ideas.md": "- misnamed\n",  # daily-name
        "memory/context-digest.md": "- OpenClaw's own\n",  # not flagged
        "memory/2026-11-01.txt": "not Markdown\n",  # not flagged: not a .md
    }
    files.update(extra)
    return write_tree(tmp_path / "ws", files)


def check_json(root: Path) -> set[tuple[str, str, str | None, int | None]]:
    got = run_cli("check", "--json", "--store", str(root))
    assert got.returncode in (0, 1), got.stderr
    return {
        (f["code"], f["level"], f["file"], f["line"])
        for f in json.loads(got.stdout)["findings"]
        if f["code"] in ("bootstrap-size", "daily-name", "memory-case", "bootstrap-leftover")
    }


def test_detected_by_agents_md_with_a_companion_file_and_stealing_no_other_layout(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    assert layouts_at(str(root)) == ("openclaw",)
    alone = write_tree(tmp_path / "alone", {"AGENTS.md": "# rules\n"})
    assert layouts_at(str(alone)) == ()
    seed = write_tree(tmp_path / "seed", {"memory.md": "# index\n", "soul.md": "# soul\n"})
    assert layouts_at(str(seed)) == ("workspace",)
    claude = write_tree(tmp_path / "claude", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "a\n"})
    assert layouts_at(str(claude)) == ("claude",)
    companion = write_tree(tmp_path / "comp", {"MEMORY.md": "# m\n", "memory/events.md": "# e\n"})
    assert "openclaw" not in layouts_at(str(companion))
    # MEMORY.md linking to a daily note is still OpenClaw's, not a Claude index
    linked = workspace(tmp_path / "linked", **{"MEMORY.md": "- [today](memory/2026-11-29.md)\n"})
    assert layouts_at(str(linked)) == ("openclaw",)


def test_check_reports_bootstrap_size_and_daily_name_where_due_and_nowhere_else(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    _, head = openclaw_cut(memory, "MEMORY.md")
    assert check_json(root) == {
        ("bootstrap-size", "warning", "USER.md", None),
        ("bootstrap-size", "error", "MEMORY.md", first_unloaded(memory.rstrip(), head)),
        ("daily-name", "warning", "memory/2026-11-30.md", None),
        ("daily-name", "warning", "memory/2026-02-30.md", None),
        ("daily-name", "warning", "memory/ideas.md", None),
    }


def test_a_leftover_bootstrap_and_both_memory_cases_are_reported(tmp_path: Path) -> None:
    root = workspace(tmp_path, **{"BOOTSTRAP.md": "# hello\n", "memory.md": "old\n"})
    found = check_json(root)
    assert ("bootstrap-leftover", "info", "BOOTSTRAP.md", None) in found
    assert ("memory-case", "warning", "memory.md", None) in found


def context(root: Path) -> dict[str, dict]:
    got = run_cli("context", "--json", "--store", str(root))
    assert got.returncode == 0, got.stderr
    layout = next(lay for lay in json.loads(got.stdout)["layouts"] if lay["layout"] == "openclaw")
    return {f["file"]: f for f in layout["files"]}


def test_context_gives_each_file_as_injected_cut_at_20000_utf16_units(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    files = context(root)
    for name in ("SOUL.md", "USER.md"):  # under the limit: whole
        text = (root / name).read_text(encoding="utf-8")
        assert files[name]["text"] == text.rstrip()
        assert files[name]["cut"] is False and files[name]["first_unloaded_line"] is None
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    injected, head = openclaw_cut(memory, "MEMORY.md")
    got = files["MEMORY.md"]
    assert got["text"] == injected
    assert js_len(got["text"]) <= MAX
    assert got["first_unloaded_line"] == first_unloaded(memory.rstrip(), head)
    assert "[...truncated, read MEMORY.md for full content...]" in got["text"]
    # IDENTITY.md is absent: OpenClaw injects its missing marker; BOOTSTRAP.md is absent
    # too, but it is optional (workspace.ts, bootstrap-files.ts): nothing is injected
    assert files["IDENTITY.md"]["text"] == f"[MISSING] Expected at: {root / 'IDENTITY.md'}"
    assert "BOOTSTRAP.md" not in files


def test_the_cut_names_only_the_lines_between_the_head_and_the_tail(tmp_path: Path) -> None:
    """OpenClaw loads a cut file's end again: what is said not loaded stops before it."""
    root = workspace(tmp_path)
    memory = (root / "MEMORY.md").read_text(encoding="utf-8").rstrip()
    injected, head = openclaw_cut(memory, "MEMORY.md")
    tail = injected[injected.index("chars of ") :].split("\n", 2)[2]  # after the marker
    start = len(memory) - len(tail)
    assert memory[start:] == tail
    # the line the tail starts inside is not loaded from its start: it counts as cut
    last = memory.count("\n", 0, start) + (memory[start - 1] != "\n")
    first = first_unloaded(memory, head)
    got = run_cli("context", "--store", str(root))
    assert got.returncode == 0, got.stderr
    assert (
        f"not loaded: lines {first} to {last} ({last - first + 1} lines); "
        f"from line {last + 1} on, the end is loaded again"
    ) in got.stdout


def test_a_file_of_exactly_20000_units_is_loaded_whole(tmp_path: Path) -> None:
    soul = lines_to(20_000, "soul")
    root = write_tree(tmp_path / "ws", {"AGENTS.md": "# A\n", "USER.md": "u\n", "SOUL.md": soul})
    got = context(root)["SOUL.md"]
    assert got["text"] == soul.rstrip() and got["cut"] is False
    assert ("bootstrap-size", "warning", "SOUL.md", None) in check_json(root)


def test_a_cut_inside_an_emoji_keeps_no_half_of_it(tmp_path: Path) -> None:
    """The head ends where sliceUtf16Safe puts it: never between an emoji's two units."""
    for pad in (0, 1):
        text = "#" * (1 + pad) + "\n" + "😀" * 12_000 + "\n"
        injected, head = openclaw_cut(text, "SOUL.md")
        root = workspace(tmp_path / f"p{pad}", **{"SOUL.md": text})
        assert context(root)["SOUL.md"]["text"] == injected
        assert "\ufffd" not in injected
        assert js_len(head) % 2 == (2 + pad) % 2  # "#"*k + "\n" then whole emoji only


def quoted(rel: str, text: str) -> str:
    """session-startup-context.ts formatStartupMemoryBlock: a note as a new session
    quotes it (trimmed both ends, ``` escaped)."""
    body = text.strip().replace("```", "\\`\\`\\`")
    lines = [f"[Untrusted daily memory: {rel}]", "BEGIN_QUOTED_NOTES", "```text", body, "```"]
    return "\n".join([*lines, "END_QUOTED_NOTES"])


def test_today_and_yesterday_are_quoted_at_session_start(tmp_path: Path) -> None:
    files = context(workspace(tmp_path))  # today is pinned to 2026-11-29 (conftest)
    today = files["memory/2026-11-29.md"]["text"]
    assert today.startswith("[Startup context loaded by runtime]\n")  # the prelude's head
    assert today.endswith("\n\n" + quoted("memory/2026-11-29.md", "- today\n"))
    slug = "memory/2026-11-28-standup.md"
    assert files[slug]["text"] == quoted(slug, "- yesterday, with a slug\n")
    assert "memory/2026-11-30.md" not in files


def test_the_files_together_are_held_to_60000_units(tmp_path: Path) -> None:
    """buildBootstrapContextFiles: each file gets min(its cap, what is left of 60,000);
    USER.md's cap is 4,000; once nothing is left, later files are not injected."""
    big = lines_to(19_000, "big")
    root = write_tree(
        tmp_path / "ws",
        {"AGENTS.md": "# A\n", "SOUL.md": big, "IDENTITY.md": big, "USER.md": big,
         "BOOTSTRAP.md": big, "MEMORY.md": "# never reached\n"},
    )  # fmt: skip
    files = context(root)
    user = openclaw_cut(big, "USER.md", 4_000)[0]
    assert files["USER.md"]["text"] == user and js_len(user) <= 4_000
    left = 60_000 - 3 - 2 * js_len(big.rstrip()) - js_len(user)
    assert files["BOOTSTRAP.md"]["text"] == openclaw_cut(big, "BOOTSTRAP.md", left)[0]
    assert files["BOOTSTRAP.md"]["cut"] is True
    assert "MEMORY.md" not in files
    found = check_json(root)
    assert ("bootstrap-size", "error", "MEMORY.md", 1) in found
    assert any(
        f[0] == "bootstrap-size" and f[2] == "BOOTSTRAP.md" and f[1] == "error" for f in found
    )


# --- edits ------------------------------------------------------------------------


def edit(root: Path, tmp_path: Path, entry: str, text: str) -> object:
    new = tmp_path / "new.md"
    new.write_bytes(text.encode("utf-8"))
    return run_cli("edit", entry, "--text-file", str(new), "--store", str(root))


def test_a_section_edit_changes_only_its_lines(tmp_path: Path) -> None:
    memory = "# 记忆\r\n\r\n## Prefs\r\n- 喜欢绿茶 🍵\r\n\r\n## Work\r\n- rust\r\n"
    root = workspace(tmp_path, **{"MEMORY.md": memory})
    before = tree_digest(root)
    got = edit(root, tmp_path, "openclaw:MEMORY.md#Prefs", "## Prefs\n- 喜欢咖啡 ☕\n")
    assert got.returncode == 0, got.stderr
    after = (root / "MEMORY.md").read_bytes()
    assert after == memory.replace("喜欢绿茶 🍵", "喜欢咖啡 ☕").encode("utf-8")
    changed = {k for k, v in tree_digest(root).items() if before.get(k) != v}
    assert {c for c in changed if not c.startswith(".history")} - {".memory.lock"} == {"MEMORY.md"}


def test_a_whole_bootstrap_file_is_edited_and_a_daily_note_is_not(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    got = edit(root, tmp_path, "openclaw:AGENTS.md", "# AGENTS.md\n\n- Read USER.md too\n")
    assert got.returncode == 0, got.stderr
    assert (root / "AGENTS.md").read_text(encoding="utf-8").endswith("- Read USER.md too\n")
    before = tree_digest(root)
    got = edit(root, tmp_path, "openclaw-daily:2026-11-29.md", "- rewritten\n")
    assert got.returncode == 1
    assert "append-only" in got.stderr and "Traceback" not in got.stderr
    assert tree_digest(root) == before


def test_ids_are_listed(tmp_path: Path) -> None:
    got = run_cli("list", "--json", "--store", str(workspace(tmp_path)))
    ids = {e["id"] for e in json.loads(got.stdout)["entries"]}
    assert {"openclaw:MEMORY.md", "openclaw:AGENTS.md", "openclaw-daily:2026-11-29.md"} <= ids


# bootstrap.ts trimAgentsBootstrapContent: AGENTS.md keeps 45% head, 15% tail and, in
# 35%, a digest of its policy lines (isPolicyDigestCandidate; the high-priority words
# first, then the rest, each in file order, while they fit).
POLICY = re.compile(
    r"\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|owner|"
    r"security|secret|credential|test|validation|command|commit|push|github|pr)\b",
    re.I,
)
HIGH = re.compile(
    r"\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|"
    r"security|secret|credential)\b",
    re.I,
)


def policy_digest(trimmed: str, budget: int) -> tuple[str, int]:
    """trimAgentsBootstrapContent's candidates (2026.9.6): a policy line takes the prose
    line just before it along; a blank line or a code fence breaks that."""
    cands, prose = [], None
    for raw in re.split(r"\r?\n", trimmed):
        line = re.sub(r"\s+", " ", raw.strip())
        if not line or re.match(r"^\s*(?:`{3,}|~{3,})", line):
            prose = None
        elif re.match(r"^(?:#{1,6}|\s*[-*+]|\s*\d+[.)])\s+\S", line) or POLICY.search(line):
            cands.append((line if prose is None else f"{prose}\n{line}", bool(HIGH.search(line))))
            prose = None
        else:
            prose = line
    chosen: set[int] = set()
    used = 0
    for high_only in (True, False):
        for i, (text, high) in enumerate(cands):
            if (high_only and not high) or (not high_only and i in chosen):
                continue
            if used + (1 if chosen else 0) + len(text) <= budget:
                used += (1 if chosen else 0) + len(text)
                chosen.add(i)
    kept = [text for i, (text, _) in enumerate(cands) if i in chosen]
    return "\n".join(kept), len(cands) - len(kept)


def agents_cut(content: str) -> str:
    trimmed = content.rstrip()
    head, tail = math.floor(MAX * 0.45), math.floor(MAX * 0.15)
    digest, omitted = policy_digest(trimmed, math.floor(MAX * 0.35))

    def render() -> str:
        parts = [
            trimmed[:head],
            "[...truncated, read AGENTS.md for full content...]",
            "[Policy digest from AGENTS.md]" if digest else "",
            digest,
            f"[...{omitted} more policy lines omitted...]" if omitted else "",
            f"…(truncated AGENTS.md: kept {head}+policy {len(digest)}+{tail} chars of "
            f"{len(trimmed)})…",
            trimmed[-tail:] if tail else "",
        ]
        return "\n".join(p for p in parts if p)

    while len(out := render()) > MAX:
        tail = max(0, tail - (len(out) - MAX))  # the tail gives way first
    return out


def test_agents_md_keeps_its_policy_lines_when_cut(tmp_path: Path) -> None:
    rows = []
    for n in range(1200):  # ASCII only: len() is String#length here
        rows.append(
            f"- Never push to main without review ({n})"
            if n % 7 == 0
            else f"notes on the build, item {n}"
            if n % 3
            else f"1. run the test suite {n}"
        )
    agents = "\n".join(rows) + "\n"
    root = workspace(tmp_path, **{"AGENTS.md": agents})
    got = context(root)["AGENTS.md"]
    assert got["text"] == agents_cut(agents)
    assert "[Policy digest from AGENTS.md]" in got["text"] and len(got["text"]) <= MAX


def test_the_outline_lists_the_bootstrap_files_in_order_and_the_notes_newest_first(
    tmp_path: Path,
) -> None:
    store = open_store(workspace(tmp_path, **{"BOOTSTRAP.md": "# hi\n"}))
    rows = registry()["openclaw"].outline(store, store.data["openclaw"])
    labels = [r.label for r in rows]
    assert labels[:4] == ["AGENTS.md", "SOUL.md", "USER.md", "BOOTSTRAP.md"]
    assert labels[4] == "MEMORY.md" and labels[5].startswith("daily notes")
    memory = rows[4]
    assert ("error" in {level for _, level in memory.badges}) and memory.entry_id
    notes = rows[5].children()
    assert [n.label for n in notes] == [
        "2026-11-30.md", "2026-11-29.md", "2026-11-28-standup.md", "2026-02-30.md", "ideas.md"
    ]  # fmt: skip
    assert notes[0].badges == (("future", "warning"),) and notes[1].badges == ()
