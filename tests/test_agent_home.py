"""An agent's whole home as a store (engine.home): Hermes' `~/.hermes` keeps its API
keys (.env, auth.json), a SQLite state.db, sessions, logs, skills, cron jobs, lock
files and backups beside its memory. memtui reads only the memory there: nothing else
is listed, searched, shown, checked, counted or drawn, and no secret is ever printed.
A memory folder (the seed layouts, Claude's, OpenClaw's) still shows an unknown file
raw, but never a root dotfile that no layout reads."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from memtui.engine.store import open_store
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.index_tree import IndexTree
from tests.conftest import tree_digest, write_tree
from tests.hostile_calls import cli
from tests.ui_helpers import built, demo_store, run

# One marker per place a secret or the agent's own state lives; none may ever be printed.
SECRETS = {
    ".env": "OPENAI_API_KEY=sk-envsecret0001\n",
    "auth.json": '{"access_token": "authsecret0002"}\n',
    "logs/agent.log": "2026-11-29 token logsecret0003\n",
    "sessions/session_1.json": '{"messages": ["sessionsecret0004"]}\n',
    "skills/notes/SKILL.md": "---\nname: notes\n---\nskillsecret0005\n",
    "cron/jobs.json": '{"jobs": ["cronsecret0006"]}\n',
    "gateway.lock": "lockinfo0007\n",
    "config.yaml.bak": "backupsecret0008\n",
    "memories/MEMORY.md.lock": "",  # Hermes' per-file flock
    "memories/.mem_k2j4.tmp": "tempsecret0009",  # Hermes' mkstemp, left by a crash
}
DB_SECRET = "dbsecret0010"
MARKERS = (*(f"secret{n:04d}" for n in (1, 2, 3, 4, 5, 6, 8, 9)), "lockinfo0007", DB_SECRET)

# Hermes' memory (SPEC §3b): entries joined by "\n§\n", the limits, the identity, a queue.
MEMORY = {
    "memories/MEMORY.md": "The user deploys on Fridays.\n§\nThe API token lives in 1Password.",
    "memories/USER.md": "Name: Ada",
    "config.yaml": "memory:\n  memory_char_limit: 2200\n  write_approval: true\n",
    "SOUL.md": "You are a careful assistant.\n",
    "pending/memory/1a2b3c4d.json": json.dumps(
        {
            "id": "1a2b3c4d",
            "subsystem": "memory",
            "action": "add",
            "summary": "remember the editor",
            "origin": "foreground",
            "created_at": 1764000000,
            "payload": {"action": "add", "target": "user", "content": "Uses Helix"},
        }
    ),
}


def hermes_home(root: Path) -> Path:
    """A Hermes home: its memory, and beside it everything that is not memory."""
    write_tree(root, {**MEMORY, **SECRETS})
    db = sqlite3.connect(root / "state.db")  # a real SQLite file: binary, not text
    db.execute("CREATE TABLE messages (body TEXT)")
    db.execute("INSERT INTO messages VALUES (?)", (DB_SECRET,))
    db.commit()
    db.close()
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "x").write_text("outside\n")
    (root / "logs" / "latest").symlink_to(outside / "x")  # a link out among the logs
    (root / "backup.db").symlink_to(outside / "x")  # and one at the root
    return root


def not_memory(root: Path) -> set[str]:
    return set(tree_digest(root)) - set(MEMORY) - {"memories", "pending", "pending/memory"}


def assert_no_secret(text: str) -> None:
    leaked = [m for m in MARKERS if m in text]
    assert not leaked, leaked


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return hermes_home(tmp_path / "hermes")


def test_the_store_of_a_hermes_home_is_its_memory_only(home: Path) -> None:
    store = open_store(home)
    assert store.layouts == ("hermes",)
    assert set(store.files) == set(MEMORY)
    assert not store.unreadable and not store.findings, store.findings


def test_check_names_nothing_but_memory(home: Path, capsys) -> None:
    code, out, err = cli(capsys, "--store", str(home), "check", "--json")
    assert code == 0, err
    named = {f["file"] for f in json.loads(out)["findings"]}
    assert not named & not_memory(home), named
    assert_no_secret(out + err)


@pytest.mark.parametrize(
    "argv",
    [
        ("list",),
        ("list", "--json"),
        ("context", "--json"),
        ("pending", "--json"),
        *(("search", m) for m in MARKERS),
        ("search", "secret", "--regex"),
        ("search", ".", "--regex", "--json"),
    ],
    ids=lambda a: " ".join(a),
)
def test_no_read_verb_prints_what_is_not_memory(home: Path, capsys, argv) -> None:
    code, out, err = cli(capsys, "--store", str(home), *argv)
    assert code == 0, err
    assert_no_secret(out + err)
    for rel in not_memory(home):
        assert f"file:{rel}" not in out


def test_search_still_finds_the_memory_beside_the_secrets(home: Path, capsys) -> None:
    code, out, _err = cli(capsys, "--store", str(home), "search", "token", "--json")
    assert code == 0
    hits = json.loads(out)["hits"]
    assert {h["file"] for h in hits} == {"memories/MEMORY.md"}  # not logs/, not .env


@pytest.mark.parametrize("rel", [*sorted(SECRETS), "state.db"])
def test_show_refuses_every_file_that_is_not_memory(home: Path, capsys, rel: str) -> None:
    code, out, err = cli(capsys, "--store", str(home), "show", f"file:{rel}")
    assert code == 1 and f"no entry 'file:{rel}'" in err, err
    assert_no_secret(out + err)


def test_show_a_memory_file_of_the_home(home: Path, capsys) -> None:
    code, out, err = cli(capsys, "--store", str(home), "show", "file:SOUL.md")
    assert code == 0, err
    assert "careful assistant" in out


def test_stores_counts_only_the_memory(tmp_path: Path, monkeypatch, capsys) -> None:
    user = tmp_path / "user"
    hermes_home(user / ".hermes")
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.delenv("HERMES_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "stores", "--json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["layouts"] == ["hermes"]
    size = sum(len(text.encode("utf-8")) for text in MEMORY.values())
    assert (row["files"], row["bytes"], row["errors"]) == (len(MEMORY), size, 0)


def test_a_change_in_the_home_leaves_every_other_file_alone(home: Path, capsys) -> None:
    others = not_memory(home)
    before = {rel: d for rel, d in tree_digest(home).items() if rel in others}
    code, _out, err = cli(capsys, "--store", str(home), "add", "hermes", "memory", "Uses uv")
    assert code == 0, err
    after = {rel: d for rel, d in tree_digest(home).items() if rel in others}
    assert after == before
    assert (home / "memories" / "MEMORY.md").read_text(encoding="utf-8").endswith("Uses uv")


def _labels(tree: IndexTree) -> list[str]:
    return [node.label.plain for node in built(tree)]


def test_the_app_tree_lists_only_the_memory(home: Path) -> None:
    app = MemtuiApp(str(home), watch=False)

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        tree = app.query_one(IndexTree)
        opened = -1
        while opened != len(_labels(tree)):  # open every row, lazy groups included
            opened = len(_labels(tree))
            stack = list(tree.root.children)
            while stack:
                node = stack.pop()
                node.expand()
                stack.extend(node.children)
            await pilot.pause()
        text = "\n".join(_labels(tree))
        assert "SOUL.md" in text and "config.yaml" in text  # the home's other memory
        for rel in not_memory(home):
            assert rel.rsplit("/", 1)[-1] not in text, rel
        assert_no_secret(text)

    run(app, body, loaded=True)


# --- memory folders: unknown files raw, root dotfiles never ----------------------------


@pytest.mark.parametrize("folder", ["", "claude", "openclaw", "hermes"])
def test_no_layout_shows_a_root_dotfile(tmp_path: Path, capsys, folder: str) -> None:
    root = demo_store(tmp_path / "demo") / folder
    (root / ".env").write_text("ANTHROPIC_API_KEY=sk-envsecret0001\n")
    (root / ".netrc").write_text("machine x password authsecret0002\n")
    store = open_store(root)
    assert {".env", ".netrc"}.isdisjoint(store.files)
    for argv in (("list",), ("search", "secret"), ("show", "file:.env")):
        _code, out, err = cli(capsys, "--store", str(root), *argv)
        assert_no_secret(out + err)


def test_a_memory_folder_still_shows_unknown_files_and_its_own_dotfile(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")
    (root / "notes.txt").write_text("a note the user keeps here\n")
    (root / ".env").write_text("KEY=sk-envsecret0001\n")
    store = open_store(root)
    assert "notes.txt" in store.files  # unknown, shown raw
    assert ".mood_state_aux" in store.files  # the companion layout's own dotfile
    assert ".env" not in store.files


def test_a_root_holding_a_memory_folder_beside_hermes_keeps_its_unknown_files(
    tmp_path: Path,
) -> None:
    root = hermes_home(tmp_path / "mixed")
    write_tree(root, {"index.txt": "# index\n", "facts.md": "## PYTHON_ENV\n- use a venv\n"})
    store = open_store(root)
    assert set(store.layouts) == {"dsh", "hermes"}
    assert {"auth.json", "gateway.lock", "config.yaml.bak"} <= set(store.files)  # raw
    assert ".env" not in store.files  # a root dotfile still never
