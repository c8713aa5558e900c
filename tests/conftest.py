"""Shared helpers: real stores in tmp_path, the real CLI in a subprocess."""

from __future__ import annotations

import gc
import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TODAY = "2026-11-29"  # MEMTUI_TODAY pins "today" so overdue findings are stable


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create `files` (relative path -> text or bytes) under root; text is written as-is."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
    return root


def tree_digest(root: Path) -> dict[str, str]:
    """Every file (and link) under root -> sha256 of its bytes or its link target."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_file():
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def memory_digest(root: Path) -> dict[str, str]:
    """tree_digest without memtui's own files (.history/, the lock file): the memory
    an undo must put back byte for byte."""
    return {
        rel: digest
        for rel, digest in tree_digest(root).items()
        if not rel.startswith(".history") and rel != ".memory.lock"
    }


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None):
    """Run the real `memtui` in a subprocess; returns CompletedProcess (text)."""
    full_env = {**os.environ, "MEMTUI_TODAY": TODAY, **(env or {})}
    full_env.pop("MEMTUI_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "memtui", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def collector():
    """Python's garbage collector restored after a test that changes it: on or off as it
    was, nothing left frozen."""
    was_enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.fixture(autouse=True, scope="session")
def pinned_today():
    """Every test (and every memtui it starts) sees TODAY as "today": overdue findings,
    new events' dates and the demo's mood never depend on the day the suite runs.
    Session-wide, so module- and session-scoped fixtures see it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMTUI_TODAY", TODAY)
        yield


@pytest.fixture(autouse=True, scope="session")
def english_from_fresh_catalogues():
    """Every test starts in English whatever the developer's locale (a test that wants
    Chinese asks with --lang, LANG or memtui.i18n.use), and the .mo are compiled from
    the .po now, as the build does (hatch_build.py): a .po edited since the last
    install is never tested through a stale .mo."""
    import importlib.util

    from memtui.i18n import choose

    repo = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("hatch_build", repo / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    build.compile_catalogues(repo)
    with pytest.MonkeyPatch.context() as patch:
        for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
            if os.environ.get(var) and choose(os.environ[var]) != "en":
                patch.setenv(var, "C.UTF-8")
        yield


@pytest.fixture(autouse=True)
def english_again():
    """The language a test chose (memtui.i18n.use is process-wide) ends with it."""
    yield
    from memtui.i18n import use

    use("en")


@pytest.fixture
def chinese() -> Iterator[None]:
    """The language zh_CN (its .mo compiled at the session's start), set before the
    app starts as the CLI does; English again after (english_again)."""
    from memtui.i18n import use

    use("zh_CN")
    yield


@pytest.fixture(autouse=True, scope="session")
def no_disk_cache():
    """No test (nor any memtui it starts) reads or writes the user's cache folder
    (engine.cache): each test's store is its own. tests/test_open_cache.py turns it on."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMTUI_NO_CACHE", "1")
        yield


@pytest.fixture
def store(tmp_path: Path):
    """A factory: store({"memory.md": "...", ...}) -> root path."""

    def make(files: dict[str, str | bytes]) -> Path:
        root = tmp_path / "store"
        root.mkdir(exist_ok=True)
        return write_tree(root, files)

    return make


# The agent takes the lock and holds it until the test lets go (at most 30 s).
HOLD = r"""
exec 9>"$ROOT/.memory.lock"
flock -x 9
echo locked
for _ in $(seq 600); do [ -e "$RELEASE" ] && exit 0; sleep 0.05; done
"""


@pytest.fixture
def agent_holding_the_lock(tmp_path: Path):
    """A demo store whose lock a bash agent holds; (root, the file that releases it)."""
    from tests.ui_helpers import demo_store

    root = demo_store(tmp_path / "store")
    release = tmp_path / "release"
    agent = subprocess.Popen(
        ["bash", "-c", HOLD],
        env={"ROOT": str(root), "RELEASE": str(release), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert agent.stdout is not None and agent.stdout.readline().strip() == "locked"
        yield root, release
    finally:
        release.touch()
        agent.wait(timeout=60)
