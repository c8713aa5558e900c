"""open_store(cache=True): what the last open of a store parsed, kept in the user's cache
folder for the next open in another process (engine/cache.py). A cached open must
equal a fresh one, findings included, after any change; a cache that is not this
user's own, not whole, not this memtui's or from a clock now behind is ignored."""

from __future__ import annotations

import datetime as dt
import errno
import io
import os
import pickle
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.engine import cache, config, reader
from memtui.engine.store import Store, open_store
from tests.helpers import TODAY_DATE, demo_template, fresh_copy

SETTLED = 10 * 10**9  # the fake clock runs this far ahead: every file is past RACY_NS


class Clock:
    """time.time_ns as the racily-clean rule and the cache read it, `ahead` ns ahead."""

    def __init__(self) -> None:
        self.ahead = SETTLED
        self.real = time.time_ns

    def __call__(self) -> int:
        return self.real() + self.ahead


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr(time, "time_ns", made)
    return made


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache on (conftest turns it off), in this test's own folder."""
    monkeypatch.delenv(config.NO_CACHE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(cache, "_pending", None)  # and nothing left pending after
    yield tmp_path / "xdg" / "memtui"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_template(tmp_path_factory, "demo")


def cached(root: Path, today: dt.date = TODAY_DATE) -> Store:
    """An open through the cache, then the cache written (a verb's end)."""
    store = open_store(root, today, cache=True)
    cache.flush()
    return store


def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths memtui reads from now on."""
    got: list[str] = []
    plain, full = reader.plain_text, reader.read_file

    def plain_text(path: str, rel: str, limit: int, keep=None):  # type: ignore[no-untyped-def]
        got.append(rel)
        return plain(path, rel, limit, keep)

    def read_file(path: str, rel: str, limit: int):  # type: ignore[no-untyped-def]
        if not got or got[-1] != rel:  # (not again after plain_text left it to this)
            got.append(rel)
        return full(path, rel, limit)

    monkeypatch.setattr(reader, "plain_text", plain_text)
    monkeypatch.setattr(reader, "read_file", read_file)
    return got


def test_a_second_open_reads_no_unchanged_file_and_equals_a_fresh_one(
    demo: Path, tmp_path: Path, home: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = fresh_copy(demo, tmp_path)
    first = cached(root)
    read = reads(monkeypatch)
    second = open_store(root, TODAY_DATE, cache=True)
    assert read == []  # every file's text and parse came from the cache
    assert second == first == open_store(root, TODAY_DATE)
    read.clear()
    (root / "facts.md").write_text("# 事实\n\n## NEW\n- one\n", encoding="utf-8")
    third = open_store(root, TODAY_DATE, cache=True)
    assert read == ["facts.md"]  # the one changed file, and only it
    assert third == open_store(root, TODAY_DATE) != second


def test_the_cache_is_the_users_alone(demo: Path, tmp_path: Path, home: Path, clock: Clock) -> None:
    cached(fresh_copy(demo, tmp_path))
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    files = sorted(p.name for p in home.iterdir())
    assert len(files) == 2 and "key" in files  # the key and one store's file
    assert all(stat.S_IMODE((home / n).stat().st_mode) == 0o600 for n in files)


def test_a_folder_others_can_open_is_not_used(
    demo: Path, tmp_path: Path, home: Path, clock: Clock
) -> None:
    root = fresh_copy(demo, tmp_path)
    cached(root)
    home.chmod(0o755)
    assert cache.folder() is None and cache.load(str(root)) is None
    assert cached(root) == open_store(root, TODAY_DATE)


def _cache_file(home: Path) -> Path:
    return next(p for p in home.iterdir() if p.suffix == ".pickle")


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flipped(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    raw[-100] ^= 1
    path.write_bytes(bytes(raw))


def _hostile(path: Path) -> None:
    """A pickle that would run a command, with a valid HMAC (as if the key leaked):
    the unpickler still refuses every name that is not memtui's."""
    import hashlib
    import hmac

    body = pickle.dumps(os.system, protocol=5)  # names posix.system
    key = (path.parent / "key").read_bytes()
    mac = hmac.new(key, body, hashlib.sha256).digest()
    path.write_bytes(cache._header() + mac + body)


def _linked(path: Path) -> None:
    target = path.with_name("elsewhere")
    path.rename(target)
    path.symlink_to(target)


def _opened_to_others(path: Path) -> None:
    path.chmod(0o644)


@pytest.mark.parametrize(
    "spoil", [_truncated, _flipped, _hostile, _linked, _opened_to_others], ids=lambda f: f.__name__
)
def test_a_cache_file_that_is_not_whole_or_not_ours_is_ignored(
    spoil, demo: Path, tmp_path: Path, home: Path, clock: Clock
) -> None:
    root = fresh_copy(demo, tmp_path)
    cached(root)
    assert cache.load(str(root)) is not None
    spoil(_cache_file(home))
    if spoil is _hostile:  # no record class: refused by name, not run
        with pytest.raises(pickle.UnpicklingError, match=r"posix\.system is not memtui's"):
            cache._Unpickler(io.BytesIO(_cache_file(home).read_bytes()[cache.HEAD + 32 :])).load()
    assert cache.load(str(root)) is None
    assert cached(root) == open_store(root, TODAY_DATE)
    assert cache.load(str(root)) is not None  # written anew


def test_another_memtui_or_a_clock_set_back_trusts_nothing(
    demo: Path, tmp_path: Path, home: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = fresh_copy(demo, tmp_path)
    cached(root)
    clock.ahead -= 3600 * 10**9  # an hour back: before the cache was written
    assert cache.load(str(root)) is None
    clock.ahead += 3600 * 10**9
    assert cache.load(str(root)) is not None
    monkeypatch.setattr(cache, "version_tag", lambda: b"another memtui")
    assert cache.load(str(root)) is None


def test_the_version_tag_follows_memtuis_sources(tmp_path: Path) -> None:
    """An edit of any source (an upgrade) is another memtui: its caches are not read."""
    (tmp_path / "a.py").write_text("x = 1\n")
    before = cache._sources(str(tmp_path))
    (tmp_path / "a.py").write_text("x = 22\n")
    assert cache._sources(str(tmp_path)) != before
    assert cache.version_tag() == cache.version_tag()


def test_a_cache_that_cannot_be_written_is_no_cache(
    demo: Path, tmp_path: Path, home: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(where: str, data: bytes) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cache, "_write_temp", full)
    root = fresh_copy(demo, tmp_path)
    assert cached(root) == open_store(root, TODAY_DATE)  # the key cannot be made either
    assert cache.load(str(root)) is None


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_cache_that_cannot_be_read_is_no_cache(
    demo: Path, tmp_path: Path, home: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read fails in the thread that reads the cache while the store is listed."""
    root = fresh_copy(demo, tmp_path)
    cached(root)
    where: list[str] = []

    def failing(root: str) -> bytes:
        where.append(threading.current_thread().name)
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(cache, "_verified", failing)
    assert cached(root) == open_store(root, TODAY_DATE)
    assert where == ["memtui-cache"]


def test_a_cache_folder_that_is_a_file_is_no_cache(
    demo: Path, tmp_path: Path, home: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "xdg").write_text("not a folder")
    root = fresh_copy(demo, tmp_path)
    assert cache.folder() is None
    assert cached(root) == open_store(root, TODAY_DATE)


def test_memtui_no_cache_reads_and_writes_nothing(
    demo: Path, tmp_path: Path, home: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(config.NO_CACHE, "1")
    root = fresh_copy(demo, tmp_path)
    assert cached(root) == open_store(root, TODAY_DATE)
    assert not home.exists()


def test_a_verb_writes_the_cache_in_a_child_after_its_answer(
    demo: Path, tmp_path: Path, home: Path, clock: Clock
) -> None:
    root = fresh_copy(demo, tmp_path)
    open_store(root, TODAY_DATE, cache=True)
    pid = cache.flush_detached()
    assert pid is not None
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert cache.load(str(root)) is not None
    assert cache.flush_detached() is None  # nothing left to write


def test_a_read_verb_opens_through_the_cache(
    demo: Path,
    tmp_path: Path,
    home: Path,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from memtui.cli import main

    root = fresh_copy(demo, tmp_path)
    assert main(["check", "--json", "--store", str(root)]) == 1  # the demo has errors
    cache.flush()  # (cli._end's child, when memtui is the program)
    first = capsys.readouterr().out
    read = reads(monkeypatch)
    assert main(["check", "--json", "--store", str(root)]) == 1
    assert read == [] and capsys.readouterr().out == first


def test_stale_caches_and_leftovers_are_pruned(
    demo: Path, tmp_path: Path, home: Path, clock: Clock
) -> None:
    root = fresh_copy(demo, tmp_path)
    cached(root)
    old = time.time() - cache.STALE_DAYS * 86400 - 60
    (home / ".tmp-leftover").write_bytes(b"half")
    (home / ("0" * 32 + ".pickle")).write_bytes(b"another store")
    for name in (".tmp-leftover", "0" * 32 + ".pickle"):
        os.utime(home / name, (old, old))
    (root / "facts.md").write_text("# 事实\n", encoding="utf-8")
    cached(root)
    assert sorted(p.name for p in home.iterdir()) == sorted(["key", _cache_file(home).name])


def test_files_not_yet_settled_are_not_kept(demo: Path, tmp_path: Path, home: Path) -> None:
    """Changed under RACY_NS ago (the real clock: the copy was just made), a file's stat
    cannot vouch for its text: nothing is written for a store of such files only."""
    root = fresh_copy(demo, tmp_path)
    assert cached(root) == open_store(root, TODAY_DATE)
    assert not home.exists() or not any(p.suffix == ".pickle" for p in home.iterdir())


# --- any change, then a cached open: the same as a fresh one ------------------------

POOL = [
    "memory/events.md",
    "facts.md",
    "index.txt",
    "MEMORY.md",
    "memory-meta.json",
    "memory.md",
]
GONE = [*POOL, "pending", "sops"]  # a folder: its first file
CHANGE = st.one_of(
    st.tuples(
        st.just("insert"), st.sampled_from(POOL), st.integers(0, 5000), st.binary(max_size=30)
    ),
    st.tuples(st.just("same size, mtime put back"), st.sampled_from(POOL), st.integers(0, 5000)),
    st.tuples(st.just("touch"), st.sampled_from(POOL), st.integers(-(10**6), 10**6)),
    st.tuples(st.just("rename"), st.sampled_from(GONE)),
    st.tuples(st.just("delete"), st.sampled_from(GONE)),
    st.tuples(st.just("clock"), st.integers(-3, 3)),  # hours: a clock set back or on
    st.tuples(st.just("day"), st.integers(-40, 40)),  # another day: overdue events
)


def _next_tick(probe: Path) -> None:
    """Wait out the file system's timestamp tick: a change made after this gets a change
    time no file read so far has, as a real clock gives it by the time RACY_NS has
    passed (the fake clock only says so)."""
    probe.touch()
    first = probe.stat().st_ctime_ns
    while probe.stat().st_ctime_ns == first:
        os.utime(probe)


def _target(root: Path, name: str) -> Path | None:
    """A file of the pool, or the first of a folder's (None once it is gone)."""
    path = root / name
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.suffix == ".md")
        return found[0] if found else None
    return path if path.exists() else None


def _apply(root: Path, change: tuple, clock: Clock) -> int:
    """The change made; the day offset it asks for (0 for most)."""
    kind, *args = change
    if kind == "clock":
        clock.ahead = SETTLED + args[0] * 3600 * 10**9
        return 0
    if kind == "day":
        return args[0]
    path = _target(root, args[0])
    if path is None:
        return 0
    info = path.stat()
    if kind == "insert":
        raw = path.read_bytes()
        at = args[1] % (len(raw) + 1)
        path.write_bytes(raw[:at] + args[2] + raw[at:])  # any bytes: broken UTF-8 too
    elif kind == "same size, mtime put back":
        raw = bytearray(path.read_bytes())
        if raw:
            raw[args[1] % len(raw)] ^= 0x01
        with open(path, "r+b") as fh:
            fh.write(raw)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    elif kind == "touch":
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + args[1] * 10**6))
    elif kind == "rename":
        path.rename(path.with_name("renamed-" + path.name))
    else:
        path.unlink()
    return 0


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(changes=st.lists(CHANGE, min_size=1, max_size=5))
def test_a_cached_open_after_any_change_equals_a_fresh_open(
    demo: Path, home: Path, clock: Clock, changes: list[tuple]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "xdg")  # (home restores it)
        root = Path(tmp) / "store"
        shutil.copytree(demo, root)
        probe = Path(tmp) / "probe"
        clock.ahead = SETTLED
        today = TODAY_DATE
        cached(root, today)
        for change in changes:
            _next_tick(probe)
            today += dt.timedelta(days=_apply(root, change, clock))
            fresh = open_store(root, today)
            assert cached(root, today) == fresh
            assert cached(root, today) == fresh  # from a cache this open wrote
