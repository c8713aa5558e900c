"""cut-correction: a statement past its file's cut that gives the same subject another
value than one the agent loads (engine.cut_correction), in every layout with a cut, its
quick fix (the newer in place of the older) and the undo of it, byte for byte."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from memtui.engine import cut_correction, fixes
from memtui.engine.cut_correction import _corrects, _words
from memtui.engine.ops.undo import undo
from memtui.engine.store import open_store
from tests.conftest import memory_digest, run_cli, write_tree
from tests.helpers import TODAY_DATE, line_of

STALE, FRESH = "Deploy target is staging", "Deploy target is prod"


def filler(n: int, width: int = 0) -> list[str]:
    """n lines that say nothing alike, each at least `width` characters."""
    return [f"- Note {i} about topic {i * 7919 % 10007}".ljust(width, ".") for i in range(n)]


def claude(eol: str = "\n", final: bool = True) -> dict[str, str]:
    lines = [f"- [Deploy](deploy.md) — {STALE}", *filler(205), f"- [Deploy](deploy.md) — {FRESH}"]
    return {"MEMORY.md": eol.join(lines) + (eol if final else "")}


def workspace() -> dict[str, str]:
    lines = ["# Index", f"- {STALE}", *filler(205), f"- {FRESH}", "- closing line"]
    return {"memory.md": "\n".join(lines) + "\n", "soul.md": "## name\nAda\n"}


def hermes() -> dict[str, str]:
    head = [STALE, *(f"Entry {i} on topic {i * 7919 % 10007}" for i in range(130))]
    tail = [f"Later entry {i} on subject {i * 104729 % 10007}" for i in range(60)]
    return {"memories/MEMORY.md": "\n§\n".join([*head, FRESH, *tail])}


def openclaw() -> dict[str, str]:
    lines = ["# Memory", f"- {STALE}", *filler(300, 60), f"- {FRESH}", *filler(120, 60)]
    return {"AGENTS.md": "# Rules\n", "SOUL.md": "# Soul\n", "MEMORY.md": "\n".join(lines) + "\n"}


def codex() -> dict[str, str]:
    lines = ["# Summary", f"- {STALE}", *filler(100, 60), f"- {FRESH}", *filler(100, 60)]
    return {"memory_summary.md": "\n".join(lines) + "\n", "MEMORY.md": "# Tasks\n"}


CASES = {
    "claude": (claude(), "MEMORY.md"),
    "claude-crlf-no-final-newline": (claude("\r\n", final=False), "MEMORY.md"),
    "workspace": (workspace(), "memory.md"),
    "hermes": (hermes(), "memories/MEMORY.md"),
    "openclaw": (openclaw(), "MEMORY.md"),
    "codex": (codex(), "memory_summary.md"),
}


def memory(root: Path) -> dict[str, str]:
    """The memory's bytes by file, the agents' lock files aside (Hermes' per-file lock,
    which memtui takes as Hermes does, stays)."""
    return {rel: d for rel, d in memory_digest(root).items() if not rel.endswith(".lock")}


def without_fresh(old: bytes, case: str) -> bytes:
    """The file's bytes with the fresh statement's place gone: its line with its ending
    (the last line, without one: the ending before it); a Hermes entry with the
    separator before it."""
    fresh = FRESH.encode()
    if case == "hermes":
        return old.replace("\n§\n".encode() + fresh, b"", 1)
    at = old.index(fresh)
    start = old.rindex(b"\n", 0, at) + 1
    stop = old.find(b"\n", at) + 1
    if not stop:  # the last line, without an ending
        return old[: start - (2 if old[:start].endswith(b"\r\n") else 1)]
    return old[:start] + old[stop:]


def cut_corrections(root: Path) -> list[tuple[str | None, int | None, str | None]]:
    store = open_store(root, today=TODAY_DATE)
    return [(f.file, f.line, f.layout) for f in store.findings if f.code == "cut-correction"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_correction_past_the_cut_is_found_at_its_line(tmp_path: Path, case: str) -> None:
    files, rel = CASES[case]
    root = write_tree(tmp_path / "s", files)
    text = (root / rel).read_bytes().decode()
    store = open_store(root, today=TODAY_DATE)
    found = [f for f in store.findings if f.code == "cut-correction"]
    assert [(f.file, f.line) for f in found] == [(rel, line_of(text, FRESH))]
    assert found[0].level == "warning" and found[0].layout in store.layouts
    assert f"about 'deploy target' than line {line_of(text, STALE)}" in found[0].message


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_fix_puts_the_newer_in_place_of_the_older_and_undo_puts_back_every_byte(
    tmp_path: Path, case: str
) -> None:
    files, rel = CASES[case]
    root = write_tree(tmp_path / "s", files)
    before = memory(root)
    old = (root / rel).read_bytes()
    store = open_store(root, today=TODAY_DATE)
    finding = next(f for f in store.findings if f.code == "cut-correction")
    fixes.plan(store, finding).run(dry_run=False)
    new = (root / rel).read_bytes()
    assert new.count(FRESH.encode()) == 1 and STALE.encode() not in new
    assert old.replace(STALE.encode(), FRESH.encode()).count(FRESH.encode()) == 2
    assert new == without_fresh(old, case).replace(STALE.encode(), FRESH.encode())
    assert cut_corrections(root) == []
    undo(root)
    assert memory(root) == before


@pytest.mark.parametrize("case", ["claude", "hermes"])
def test_a_reopen_gives_back_an_unchanged_files_corrections_and_works_out_a_changed_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    files, rel = CASES[case]
    root = write_tree(tmp_path / "s", files)
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() + 10**10)  # every file past RACY_NS
    first = open_store(root, today=TODAY_DATE, reopen=True)
    worked: list[object] = []
    monkeypatch.setattr(cut_correction, "_in_file", lambda *a: worked.append(a) or [])
    again = open_store(root, today=TODAY_DATE, previous=first)
    assert again.findings == first.findings and not worked
    assert [f.code for f in again.findings].count("cut-correction") == 1
    with (root / rel).open("a", encoding="utf-8") as fh:
        fh.write("\n§\nOne more entry" if case == "hermes" else "- one more line\n")
    changed = open_store(root, today=TODAY_DATE, previous=again)
    assert len(worked) == 1 and "cut-correction" not in [f.code for f in changed.findings]


def test_hermes_entries_stay_separated_as_hermes_joins_them(tmp_path: Path) -> None:
    files, rel = CASES["hermes"]
    root = write_tree(tmp_path / "s", files)
    store = open_store(root, today=TODAY_DATE)
    finding = next(f for f in store.findings if f.code == "cut-correction")
    fixes.plan(store, finding).run(dry_run=False)
    text = (root / rel).read_text()
    entries = text.split("\n§\n")
    assert "\n§\n".join(e.strip() for e in entries) == text
    assert entries[0] == FRESH and len(entries) == len(files[rel].split("\n§\n")) - 1
    codes = {f.code for f in open_store(root, today=TODAY_DATE).findings}
    assert "memory-drift" not in codes


def test_a_correction_in_the_loaded_tail_is_no_finding(tmp_path: Path) -> None:
    """Hermes gives the head and the tail of an over-cap file: the newest entry, last,
    is loaded, and so is the stale one: both before the agent, nothing past the cut."""
    head = [STALE, *(f"Entry {i} on topic {i * 7919 % 10007}" for i in range(200))]
    root = write_tree(tmp_path / "s", {"memories/MEMORY.md": "\n§\n".join([*head, FRESH])})
    assert cut_corrections(root) == []


def test_an_older_statement_past_the_cut_by_its_date_is_no_correction(tmp_path: Path) -> None:
    lines = [f"- 2026-05-01 {FRESH}", *filler(205), f"- 2026-03-01 {STALE}"]
    root = write_tree(tmp_path / "s", {"MEMORY.md": "\n".join(lines) + "\n"})
    assert cut_corrections(root) == []
    lines = [f"- 2026-03-01 {STALE}", *filler(205), f"- 2026-05-01 {FRESH}"]
    root = write_tree(tmp_path / "t", {"MEMORY.md": "\n".join(lines) + "\n"})
    [found] = [f for f in open_store(root).findings if f.code == "cut-correction"]
    assert found.line == 207 and "dated 2026-05-01, the other 2026-03-01" in found.message


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Deploy target is staging", "Deploy target is prod"),
        ("User's timezone: UTC+8", "User's timezone: UTC+1"),
        ("Preferred editor: vim", "Preferred editor: Visual Studio Code"),
        ("部署目标是 staging", "部署目标是 prod"),
        ("- **Package manager**: npm (see notes)", "- **Package manager**: pnpm (see notes)"),
    ],
)
def test_same_subject_with_another_value_is_a_correction(old: str, new: str) -> None:
    assert _corrects(_words(old, None), _words(new, None))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Deploy target is staging", "Deploy target is staging"),  # a duplicate
        ("Deploy target is staging", "deploy target is Staging."),  # the same, spelled
        ("User's timezone: UTC+8", "User's timezone: UTC+8 (Singapore)"),  # says more
        ("Alice's birthday is May 3", "Bob's birthday is May 3"),  # another subject
        ("The user prefers dark mode", "The user prefers concise answers"),  # no key
        ("Important: always run tests first", "Important: never push on Fridays"),
        ("Run make test before committing", "Run make lint before pushing"),
        (
            "desc: credit notes; search MEMORY.md first, then the summary it names",
            "desc: feature flags; search MEMORY.md first, then the summary it names",
        ),
        ("Colour scheme is colour", "Colour scheme is color"),  # a spelling
    ],
)
def test_what_is_no_correction(old: str, new: str) -> None:
    assert _corrects(_words(old, None), _words(new, None)) is None


def test_no_finding_on_the_demo_store(tmp_path: Path) -> None:
    from memtui.demo import write_demo

    root = tmp_path / "demo"
    write_demo(root, size=3)
    subs = [root, *(p for p in sorted(root.iterdir()) if p.is_dir() and not p.name.startswith("."))]
    for sub in subs:
        try:
            store = open_store(sub, today=TODAY_DATE)
        except Exception:  # a folder that is no store of its own (archive/, sops/)
            continue
        assert [f for f in store.findings if f.code == "cut-correction"] == [], sub


def test_check_sarif_and_github_carry_the_code(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "s", claude())
    sarif = run_cli("check", "--store", str(root), "--format", "sarif")
    assert '"cut-correction"' in sarif.stdout
    github = run_cli("check", "--store", str(root), "--format", "github")
    assert "cut-correction" in github.stdout and "MEMORY.md,line=207" in github.stdout


def test_the_fix_is_refused_when_the_file_changed_since_the_check(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "s", claude())
    store = open_store(root, today=TODAY_DATE)
    finding = next(f for f in store.findings if f.code == "cut-correction")
    (root / "MEMORY.md").write_text("- [Other](other.md) — the agent wrote\n")
    before = memory(root)
    with pytest.raises(fixes.Refused, match="changed since it was checked"):
        fixes.plan(store, finding).run(dry_run=False)
    assert memory(root) == before


def test_every_correction_of_a_file_is_fixed_in_one_operation(tmp_path: Path) -> None:
    tz_old, tz_new = "User's timezone: UTC+8", "User's timezone: UTC+1"
    lines = [f"- {STALE}", f"- {tz_old}", *filler(205), f"- {tz_new}", f"- {FRESH}"]
    root = write_tree(tmp_path / "s", {"MEMORY.md": "\n".join(lines) + "\n"})
    before = memory(root)
    store = open_store(root, today=TODAY_DATE)
    found = fixes.find_findings(store, "cut-correction")
    assert [f.line for f in found] == [208, 209]
    fixes.apply(fixes.plan_all(store, found), dry_run=False)
    text = (root / "MEMORY.md").read_text()
    expect = [f"- {FRESH}", f"- {tz_new}", *filler(205)]
    assert text == "\n".join(expect) + "\n"
    undo(root)
    assert memory(root) == before


def test_memtui_fix_shows_the_move_then_applies_it_and_undo_takes_it_back(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "s", claude())
    before = memory(root)
    dry = run_cli("fix", "--store", str(root), "MEMORY.md:207")
    assert dry.returncode == 0, dry.stderr
    assert f"+- [Deploy](deploy.md) — {FRESH}" in dry.stdout and memory(root) == before
    done = run_cli("fix", "--store", str(root), "MEMORY.md:207", "--apply")
    assert done.returncode == 0, done.stderr
    assert STALE not in (root / "MEMORY.md").read_text()
    assert run_cli("undo", "--store", str(root)).returncode == 0
    assert memory(root) == before
