"""Finding the stores on this machine (SPEC §3b): `memtui stores [--json]` and
engine.stores, on a temporary HOME holding one store of each agent, a broken one and
hostile folders (links out, a loop, a FIFO, an unreadable folder, a name that is not
UTF-8). Each store is listed once, with the layouts its own detection gives, its size
and its findings counted as `check` counts them; no traceback, nothing written."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from memtui.cli import main
from memtui.engine import stores
from memtui.engine.store import open_store
from tests.conftest import run_cli, tree_digest, write_tree
from tests.helpers import ENV, WAIT

DSH = {"index.txt": "# index\n", "facts.md": "## PYTHON_ENV\n- use a venv\n"}
CLAUDE = {
    "MEMORY.md": "- [user_role.md](user_role.md) — who the user is\n",
    "user_role.md": "---\nname: role\ndescription: the user's role\ntype: user\n---\nA dev.\n",
}
# a pointer to a file that is not there: one error (pointer-missing)
CLAUDE_BROKEN = {
    "MEMORY.md": "- [a.md](a.md) — about a\n- [gone.md](gone.md) — missing\n",
    "a.md": "---\nname: a\ndescription: a thing\ntype: feedback\n---\nBody.\n",
}
# Hermes' own files (SPEC §3b): entries joined by "\n§\n", no trailing newline
HERMES = {
    "memories/MEMORY.md": "The user deploys on Fridays.\n§\nProject uses uv.",
    "memories/USER.md": "Name: Ada",
    "config.yaml": "memory:\n  write_approval: true\n",
}
OPENCLAW = {
    "AGENTS.md": "# Agents\nBe brief.\n",
    "SOUL.md": "# Soul\nCurious.\n",
    "MEMORY.md": "# Memory\n- likes tea\n",
    "memory/2026-11-28.md": "# 2026-11-28\n- shipped\n",
}
KEYS = {"path", "real", "layouts", "files", "bytes", "errors", "warnings", "problem"}


def size_of(files: dict[str, str]) -> int:
    return sum(len(text.encode("utf-8")) for text in files.values())


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return temporary_home(tmp_path, monkeypatch)


def temporary_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty HOME, the current folder an empty one beside it, no HERMES_HOME."""
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "cwd").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("HERMES_HOME", raising=False)
    monkeypatch.chdir(tmp_path / "cwd")
    return home


def by_path(found: list[stores.FoundStore]) -> dict[str, stores.FoundStore]:
    return {s.path: s for s in found}


def claude_project(home: Path, name: str, files: dict[str, str]) -> Path:
    return write_tree(home / ".claude" / "projects" / name / "memory", files)


# --- what is listed, with what ------------------------------------------------------------


def test_each_usual_place_is_listed_with_its_layouts_size_and_counts(home: Path) -> None:
    dsh = write_tree(home / ".dsh" / "memory", DSH)
    one = claude_project(home, "-home-ada-one", CLAUDE)
    two = claude_project(home, "-home-ada-two", CLAUDE_BROKEN)
    (home / ".claude" / "projects" / "-home-ada-none").mkdir()  # a project with no memory
    found = stores.stores()
    assert [s.path for s in found] == [str(dsh), str(one), str(two)]
    got = by_path(found)
    assert got[str(dsh)].layouts == ("dsh",)
    assert got[str(one)].layouts == got[str(two)].layouts == ("claude",)
    for root, files in ((dsh, DSH), (one, CLAUDE), (two, CLAUDE_BROKEN)):
        s = got[str(root)]
        assert (s.files, s.bytes, s.problem) == (len(files), size_of(files), None)
        opened = open_store(root)
        assert (s.errors, s.warnings) == (opened.count("error"), opened.count("warning"))
    assert got[str(two)].errors == 1  # its pointer-missing
    assert got[str(dsh)].warnings == 1  # index.txt has no auto segment


def test_the_current_folder_is_listed_when_it_is_a_store_and_only_then(
    home: Path, tmp_path: Path
) -> None:
    assert stores.find() == []
    here = write_tree(tmp_path / "here", DSH)
    found = stores.find(cwd=str(here))
    assert [(s.path, s.layouts, s.measured) for s in found] == [(str(here), ("dsh",), False)]


def test_finding_is_quick_listing_only_measuring_opens(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """find() runs the layouts' detection only: no store is opened (parsed) until
    measured, so a face can show the list before the slow part."""
    claude_project(home, "-p", CLAUDE)
    opened: list[str] = []
    real_open = open_store
    monkeypatch.setattr(
        "memtui.engine.store.open_store", lambda p, *a, **k: opened.append(p) or real_open(p)
    )
    found = stores.find()
    assert opened == [] and found[0].files is None and not found[0].measured
    done = dict(stores.measured(found))
    assert opened == [found[0].path] and done[0].files == 2


def test_closing_the_measuring_early_opens_no_further_store(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's list closed while stores are still being opened: those not begun are
    dropped (a quit never waits for a whole machine's stores)."""
    for n in range(5):
        claude_project(home, f"-p{n}", CLAUDE)
    found = stores.find()
    opened: list[str] = []
    opener: list[threading.Thread] = []
    second_started, release = threading.Event(), threading.Event()

    def slow_second(path: str, *args: object, **kwargs: object) -> object:
        opened.append(path)
        if len(opened) == 2:
            opener.append(threading.current_thread())
            second_started.set()
            release.wait(WAIT)
        return open_store(path)

    monkeypatch.setattr("memtui.engine.store.open_store", slow_second)
    results = stores.measured(found, workers=1)
    first = next(results)
    assert second_started.wait(WAIT), "the second store was never begun"
    results.close()
    release.set()
    opener[0].join(WAIT)  # the pool's one thread ends once it has nothing left to open
    assert not opener[0].is_alive()
    assert first[0] == 0 and opened == [found[0].path, found[1].path]


def test_a_hermes_home_its_profiles_and_hermes_home_are_listed(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hermes = write_tree(home / ".hermes", HERMES)
    work = write_tree(home / ".hermes" / "profiles" / "work", {"memories/USER.md": "Name: Ada"})
    (home / ".hermes" / "profiles" / "empty").mkdir()  # a profile with no memory yet
    elsewhere = write_tree(tmp_path / "hermes-elsewhere", HERMES)
    monkeypatch.setenv("HERMES_HOME", str(elsewhere))
    got = by_path(stores.stores())
    assert list(got) == [str(hermes), str(work), str(elsewhere)]
    assert all(s.layouts == ("hermes",) and s.problem is None for s in got.values())
    for root in (hermes, work, elsewhere):
        opened = open_store(root)
        assert got[str(root)].files == len(opened.files) >= 1
        assert got[str(root)].errors == opened.count("error")


def test_an_openclaw_workspace_is_listed(home: Path) -> None:
    ws = write_tree(home / ".openclaw" / "workspace", OPENCLAW)
    (found,) = stores.stores()
    assert (found.path, found.layouts, found.problem) == (str(ws), ("openclaw",), None)
    opened = open_store(ws)
    assert (found.errors, found.warnings) == (opened.count("error"), opened.count("warning"))


# --- hostile folders ----------------------------------------------------------------------


def test_a_store_reached_through_a_link_is_listed_where_found_and_once(
    home: Path, tmp_path: Path
) -> None:
    """A memory folder that is a link out of HOME (dotfiles kept elsewhere) is the
    user's own: listed at the path found, `real` naming where it leads. A second link
    to a store already listed adds nothing."""
    outside = write_tree(tmp_path / "dotfiles" / "claude-memory", CLAUDE)
    project = home / ".claude" / "projects" / "-linked"
    project.mkdir(parents=True)
    (project / "memory").symlink_to(outside)
    dsh = write_tree(home / ".dsh" / "memory", DSH)
    again = home / ".claude" / "projects" / "-again"
    again.mkdir()
    (again / "memory").symlink_to(dsh)
    found = stores.stores()
    assert [(s.path, s.real) for s in found] == [
        (str(dsh), str(dsh)),
        (str(project / "memory"), str(outside)),
    ]
    assert found[1].files == len(CLAUDE) and found[1].problem is None


def test_a_link_inside_a_store_that_leads_out_is_counted_not_followed(
    home: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("---\ntype: user\n---\n" + "x" * 5000, "utf-8")
    root = claude_project(home, "-p", CLAUDE)
    (root / "leak.md").symlink_to(secret)
    (s,) = stores.stores()
    assert (s.files, s.bytes) == (len(CLAUDE), size_of(CLAUDE))  # the secret is not read
    codes = [f.code for f in open_store(root).findings if f.level == "error"]
    assert "path-escape" in codes and s.errors == len(codes)


def test_loops_fifos_and_names_that_are_not_utf8_are_listed_without_a_traceback(
    home: Path,
) -> None:
    (home / ".dsh").mkdir()
    os.symlink("memory", home / ".dsh" / "memory")  # a link to itself
    (home / ".openclaw").mkdir()
    os.mkfifo(home / ".openclaw" / "workspace")  # a FIFO where a folder is expected
    fifo_project = claude_project(home, "-fifo", {"a.md": CLAUDE_BROKEN["a.md"]})
    os.mkfifo(fifo_project / "MEMORY.md")  # never opened: reading it would block
    bad = os.path.join(os.fsencode(home), b".claude", b"projects", b"-caf\xe9", b"memory")
    os.makedirs(bad)
    for name, text in CLAUDE.items():
        with open(os.path.join(bad, name.encode()), "wb") as f:
            f.write(text.encode())
    found = stores.stores()
    shown = [s.shown for s in found]
    assert shown == [
        str(home / ".claude" / "projects" / "-caf\\xe9" / "memory"),
        str(fifo_project),
    ]
    assert [(s.files, s.problem) for s in found] == [(2, None), (1, None)]
    json.dumps([s.as_json() for s in found], ensure_ascii=False).encode("utf-8")  # no surrogate


def test_a_folder_that_cannot_be_read_is_listed_with_the_reason(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Running as root, chmod cannot make a folder unreadable: os.listdir and
    os.scandir refuse it as the kernel would for another user."""
    locked = claude_project(home, "-locked", CLAUDE)
    claude_project(home, "-open", CLAUDE)
    refuse(monkeypatch, str(locked))
    found = stores.stores()
    assert [(s.path, s.layouts, s.files) for s in found] == [
        (str(locked), (), None),
        (str(home / ".claude" / "projects" / "-open" / "memory"), ("claude",), 2),
    ]
    assert found[0].problem == f"{locked}: cannot be read (permission denied)"


def refuse(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    for name in ("listdir", "scandir"):
        real = getattr(os, name)

        def denied(p: object = ".", _real: object = real) -> object:
            if os.fspath(p) == path:  # type: ignore[arg-type]
                raise PermissionError(13, "Permission denied", path)
            return _real(p)  # type: ignore[operator]

        monkeypatch.setattr(os, name, denied)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a folder whatever its mode")
def test_a_folder_without_read_permission_is_listed_with_the_reason(home: Path) -> None:
    locked = claude_project(home, "-locked", CLAUDE)
    locked.chmod(0)
    try:
        (s,) = stores.stores()
    finally:
        locked.chmod(0o755)
    assert s.path == str(locked) and "cannot be read" in (s.problem or "")


def test_a_store_that_fails_to_open_is_listed_with_its_error_and_the_rest_still_are(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parser that trips on one store (a bug, or a file gone mid-way) costs that
    row its counts, not the whole list."""
    dsh = write_tree(home / ".dsh" / "memory", DSH)
    fine = claude_project(home, "-fine", CLAUDE)
    real_open = open_store

    def tripping(path: str, *args: object, **kwargs: object) -> object:
        if path == str(dsh):
            raise RuntimeError("parser tripped")
        return real_open(path)

    monkeypatch.setattr("memtui.engine.store.open_store", tripping)
    got = by_path(stores.stores())
    assert got[str(dsh)].problem == f"{dsh}: cannot be opened (RuntimeError: parser tripped)"
    assert got[str(dsh)].files is None and got[str(fine)].files == 2


# --- the command line ---------------------------------------------------------------------


def cli_env(home: Path) -> dict[str, str]:
    return {**ENV, "HOME": str(home), "HERMES_HOME": ""}


def test_stores_prints_a_table_and_writes_nothing(home: Path, tmp_path: Path) -> None:
    dsh = write_tree(home / ".dsh" / "memory", DSH)
    claude_project(home, "-p", CLAUDE_BROKEN)
    before = tree_digest(home)
    res = run_cli("stores", cwd=tmp_path / "cwd", env=cli_env(home))
    assert res.returncode == 0 and res.stderr == "", res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["PATH", "LAYOUTS", "FILES", "SIZE", "ERRORS", "WARNINGS"]
    assert lines[1].split() == ["~/.dsh/memory", "dsh", "2", f"{size_of(DSH)}", "B", "0", "1"]
    assert lines[2].split() == [
        "~/.claude/projects/-p/memory",
        "claude",
        "2",
        f"{size_of(CLAUDE_BROKEN)}",
        "B",
        "1",
        "0",
    ]
    assert len(lines) == 3 and tree_digest(home) == before and dsh.is_dir()


def test_stores_json_is_one_object_per_store(home: Path, tmp_path: Path) -> None:
    dsh = write_tree(home / ".dsh" / "memory", DSH)
    res = run_cli("stores", "--json", cwd=tmp_path / "cwd", env=cli_env(home))
    assert res.returncode == 0, res.stderr
    (obj,) = json.loads(res.stdout)
    assert set(obj) == KEYS
    assert obj == {
        "path": str(dsh),
        "real": str(dsh),
        "layouts": ["dsh"],
        "files": 2,
        "bytes": size_of(DSH),
        "errors": 0,
        "warnings": 1,
        "problem": None,
    }


@pytest.mark.parametrize("as_json", [False, True])
def test_stores_with_none_found_says_so_and_exits_0(
    home: Path, tmp_path: Path, as_json: bool
) -> None:
    res = run_cli(
        "stores", *(["--json"] if as_json else []), cwd=tmp_path / "cwd", env=cli_env(home)
    )
    assert res.returncode == 0 and res.stderr == ""
    if as_json:
        assert json.loads(res.stdout) == []
    else:
        assert res.stdout.startswith("no memory store found in ~/.dsh/memory")
        assert "`memtui demo`" in res.stdout


def test_stores_on_a_hostile_home_prints_every_row_without_a_traceback(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = claude_project(home, "-locked", CLAUDE)
    refuse(monkeypatch, str(locked))
    bad = os.path.join(os.fsencode(home), b".claude", b"projects", b"-\xff", b"memory")
    os.makedirs(bad)
    with open(os.path.join(bad, b"MEMORY.md"), "wb") as f:
        f.write(CLAUDE["MEMORY.md"].encode())
    with open(os.path.join(bad, b"user_role.md"), "wb") as f:
        f.write(CLAUDE["user_role.md"].encode())
    assert main(["stores"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = out.splitlines()[1:]
    assert rows[0].startswith("~/.claude/projects/-locked/memory")
    assert rows[0].endswith(f"{locked}: cannot be read (permission denied)")
    assert rows[1].startswith("~/.claude/projects/-\\xff/memory") and "claude" in rows[1]
    assert main(["stores", "--json"]) == 0
    assert [o["path"] for o in json.loads(capsys.readouterr().out)] == [
        str(locked),
        str(home / ".claude" / "projects" / "-\\xff" / "memory"),
    ]


def test_sizes_read_as_people_read_them() -> None:
    from memtui.engine.outline import size_text  # the one every face shows (store list, viewer)

    cases = {0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 4200: "4.1 KB", 8192: "8.0 KB"}
    cases |= {25_000: "24.4 KB", 23_000_000: "21.9 MB"}  # as Claude writes its own cap
    assert {n: size_text(n) for n in cases} == cases
    assert size_text(1024 * 1024 - 1) == "1.0 MB"  # never "1024.0 KB"
