"""What an open parsed, kept on disk for the next open of the same store in another
process: a second `memtui check` of an unchanged store costs about half the first.

`open_store(cache=True)` hands it back as its `previous`, the very path the app's
reload takes, so a file is reused only under that rule: its stat (size, mtime_ns,
ctime_ns, inode, device) unchanged since it was read, and read at least RACY_NS after
its last change (rawfile.stamp_of: git's racily-clean rule, with a margin). Only each
file's own parse is kept: what depends on the day or on the whole store (overdue
events, the index against what exists) is worked out again at every open.

Where: $XDG_CACHE_HOME/memtui (else ~/.cache/memtui), a folder that must be the
user's own and closed to others (0700), one file per store (0600: it holds the
store's text). Trusted only when its HMAC verifies with a key kept 0600 in that folder
(before anything is unpickled; the unpickler knows only memtui's classes besides), and
it was made by these very sources of memtui and its layouts, under this Python, no
later than now (a clock set back distrusts it). Anything else is ignored, never an
error. MEMTUI_NO_CACHE=1 reads and writes none.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import io
import operator
import os
import pickle
import stat
import sys
import threading
import time
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from memtui.engine.config import cache_enabled
from memtui.engine.records import maker
from memtui.engine.textfile import TextFile, Undecoded

if TYPE_CHECKING:
    from memtui.engine.store import Store

MAGIC = b"memtui-cache-1\n"
KEY_BYTES = 32
STALE_DAYS = 30

_pending: Store | None = None  # the last open that parsed something new (flush writes it)


def folder() -> str | None:
    """The cache folder, made 0700 if missing; None if it is not a folder of this
    user's that others cannot write or read (then nothing is cached)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "memtui")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    mine = stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
    return path if mine and not info.st_mode & 0o077 else None


def _own_file(fd: int, size: int | None = None) -> bool:
    """A regular file of this user's, closed to others (and of `size` bytes)."""
    info = os.fstat(fd)
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_uid == os.geteuid()
        and not info.st_mode & 0o077
        and (size is None or info.st_size == size)
    )


def _key(where: str) -> bytes | None:
    """The HMAC key, made on first use (linked into place whole: never half written)."""
    path = os.path.join(where, "key")
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            fd = -1
        except OSError:
            return None
        if fd >= 0:
            try:
                return os.read(fd, KEY_BYTES) if _own_file(fd, KEY_BYTES) else None
            finally:
                os.close(fd)
        tmp = _write_temp(where, os.urandom(KEY_BYTES))
        try:
            os.link(tmp, path)  # fails if another process made it meanwhile: read theirs
        except OSError:
            pass
        finally:
            os.unlink(tmp)
    return None


def _write_temp(where: str, data: bytes) -> str:
    tmp = os.path.join(where, f".tmp-{os.urandom(8).hex()}")  # (tempfile: 10 ms to import)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def _sources(top: str) -> list[tuple[str, int, int]]:
    """(path, size, mtime_ns) of every Python source of a package: an upgrade or an
    edit of any of them is another memtui."""
    found = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                info = os.stat(os.path.join(dirpath, name))
                found.append((os.path.join(dirpath, name), info.st_size, info.st_mtime_ns))
    return found


@cache
def _tops() -> tuple[str, ...]:
    """The top packages of memtui and of every registered layout."""
    from memtui.engine.layouts import _entry_points

    found = {ep.value.partition(":")[0].split(".")[0] for ep in _entry_points()}
    return tuple(sorted(found | {"memtui"}))


@cache
def version_tag() -> bytes:
    """What made the cache: this Python and the sources of memtui and of every
    registered layout's package (a few hundred stats, once a process)."""
    import importlib.util

    made = hashlib.sha256(sys.version.encode())
    for top in _tops():
        spec = importlib.util.find_spec(top)
        places = (spec.submodule_search_locations or []) if spec else []
        origin = [spec.origin] if spec and spec.origin and not places else []
        made.update(repr((top, *(_sources(p) for p in places), origin)).encode())
    return made.digest()


HEAD = len(MAGIC) + 32


def _header() -> bytes:
    return MAGIC + version_tag()


def _file(where: str, root: str) -> str:
    name = hashlib.sha256(root.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return os.path.join(where, f"{name}.pickle")


# --- reading ------------------------------------------------------------------------


class _Unpickler(pickle.Unpickler):
    """Only the classes of memtui and its layouts, and dates: even a cache whose HMAC
    verified names nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__:
            if name not in ("rebuild", "rows_of", "proxy"):
                raise pickle.UnpicklingError(f"{module}.{name} is not a record")
            return super().find_class(module, name)
        if module != "datetime" and module.partition(".")[0] not in _tops():
            raise pickle.UnpicklingError(f"{module}.{name} is not memtui's")
        found = super().find_class(module, name)
        if not isinstance(found, type):
            raise pickle.UnpicklingError(f"{module}.{name} is not a class")
        return found


class Kept(NamedTuple):
    """What the last open of a store kept: open_store makes its `previous` of it."""

    config: Any
    escaped: Any
    texts: Any
    memo: Any


def load(root: str) -> Kept | None:
    """What the last open of `root` kept, for open_store's `previous`; None when
    there is none to trust, or the cache cannot be used (a full disk, a read-only home)."""
    try:
        return _load(root)
    except OSError:
        return None


def load_soon(root: str) -> Callable[[], Kept | None]:
    """load(root) begun in a thread of its own: the file read and its HMAC (30 ms for
    the --size 500 demo's 29 MB) let go of the GIL, so the caller lists the store
    meanwhile. The function returned waits for them, then unpickles (in the caller)."""
    got: list[bytes | None] = [None]

    def fetch() -> None:
        with contextlib.suppress(OSError):
            got[0] = _verified(root)

    worker = threading.Thread(target=fetch, name="memtui-cache", daemon=True)
    worker.start()

    def result() -> Kept | None:
        worker.join()
        body = got[0]
        return None if body is None else _unpickled(root, body)

    return result


def _load(root: str) -> Kept | None:
    body = _verified(root)
    return None if body is None else _unpickled(root, body)


def _verified(root: str) -> bytes | None:
    """The body of root's cache file, once its header and HMAC say it is ours."""
    where = folder() if cache_enabled() else None
    key = _key(where) if where else None
    if where is None or key is None:
        return None
    try:
        fd = os.open(_file(where, root), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not _own_file(fd):
            return None
        # The header says at once whether this memtui made it (else nothing more is
        # read); the body, under the HMAC, says it again.
        with os.fdopen(os.dup(fd), "rb") as fh:
            if fh.read(HEAD) != _header():
                return None
            mac, body = fh.read(32), fh.read()
    finally:
        os.close(fd)
    if not hmac.compare_digest(mac, hmac.digest(key, body, "sha256")):
        return None
    return body


def _unpickled(root: str, body: bytes) -> Kept | None:
    try:
        got = _Unpickler(io.BytesIO(body)).load()
        tag, kept_root, written, config, escaped, texts, packed = got
        memo = _unpacked(*packed)
    except Exception:
        return None
    if tag != version_tag() or kept_root != root or written > time.time_ns():
        return None
    return Kept(config, escaped, texts, memo)


# --- writing ------------------------------------------------------------------------

_makers: dict[type, Any] = {}
_fields: dict[type, Any] = {}


def proxy(items: dict) -> MappingProxyType:
    return MappingProxyType(items)


def rebuild(cls: type, values: tuple) -> Any:
    """A record from its fields in order: records.maker's quick way when `cls` has one."""
    return _maker(cls)(*values)


def rows_of(cls: type, columns: tuple[tuple[Any, ...], ...]) -> list[Any]:
    """The records of `cls` whose fields `columns` hold, one column a field (_Rows)."""
    return list(map(_maker(cls), *columns))


def _maker(cls: type) -> Any:
    make = _makers.get(cls)
    if make is None:
        try:
            make = maker(cls)
        except TypeError:
            make = cls
        _makers[cls] = make
    return make


class _Rows:
    """Records of one class kept as a column a field, unpickled as a list by one call
    (rows_of) instead of one call each: the --size 500 demo's cache (28,000 events,
    10,000 candidates) unpickles in 109 ms instead of 125."""

    __slots__ = ("cls", "columns")

    def __init__(self, records: list[Any]) -> None:
        self.cls = type(records[0])
        get = _getter(self.cls)
        self.columns = tuple(zip(*(get(r)[:-1] for r in records), strict=True))

    def __reduce__(self) -> tuple[Any, ...]:
        return rows_of, (self.cls, self.columns)


def _runs(values: list[Any]) -> list[tuple[int, Any]]:
    """`values` as (n, runs of n records of one class) and (0, one value) pairs; a list
    of records of one class, as one value, is kept as _Rows too."""
    out: list[tuple[int, Any]] = []
    i = 0
    while i < len(values):
        cls = type(values[i])
        j = i + 1
        if _getter(cls) is not None:
            while j < len(values) and type(values[j]) is cls:
                j += 1
        if j - i > 1:
            out.append((j - i, _Rows(values[i:j])))
        else:
            out.append((0, _Rows(values[i]) if _one_class(values[i]) else values[i]))
        i = j
    return out


def _one_class(value: Any) -> bool:
    """A list of two or more records of one dataclass."""
    if type(value) is not list or len(value) < 2 or _getter(type(value[0])) is None:
        return False
    cls = type(value[0])
    return all(type(v) is cls for v in value)


def _packed(memo: Mapping[Any, Any]) -> tuple[Any, ...]:
    """The memo as its keys, texts, parses (_runs) and findings, each in order."""
    values = list(memo.values())
    return list(memo), [v[0] for v in values], _runs([v[1] for v in values]), [v[2] for v in values]


def _unpacked(keys: list[Any], tfs: list[Any], runs: list[Any], found: list[Any]) -> dict:
    results: list[Any] = []
    for n, value in runs:
        if n:
            results.extend(value)
        else:
            results.append(value)
    return dict(zip(keys, zip(tfs, results, found, strict=True), strict=True))


class _Pickler(pickle.Pickler):
    """A dataclass as its fields in order, read by one C-level attrgetter (a frozen
    slotted dataclass's own pickling sets them one Python call each: 3x slower to
    load); a mappingproxy as its dict."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if cls is MappingProxyType:
            return proxy, (dict(obj),)
        if cls is TextFile:  # its text as bytes, decoded when read (TextFile.utf8)
            return Undecoded, Undecoded.args(obj)
        get = _getter(cls)
        if get is None:
            return NotImplemented
        return rebuild, (cls, get(obj)[:-1])


def _getter(cls: type) -> Any:
    """A dataclass's fields in order and then its class, read by one C-level attrgetter
    (__class__ last, so that even one field comes as a tuple); None: no dataclass."""
    get = _fields.get(cls)
    if get is None and dataclasses.is_dataclass(cls) and cls is not TextFile:
        names = (*(f.name for f in dataclasses.fields(cls)), "__class__")
        get = _fields[cls] = operator.attrgetter(*names)
    return get


def _kept(store: Store) -> tuple[dict, dict]:
    """The texts a later open may reuse (those with a stamp) and their parses."""
    texts = {rel: tf for rel, tf in store.texts.items() if tf.stamp is not None}
    memo = {k: v for k, v in store.memo.items() if texts.get(k[1]) is v[0]}
    return texts, memo


def remember(store: Store, previous: Store | None) -> None:
    """Keep `store` for flush() if it holds anything `previous` (what was loaded) lacks."""
    global _pending
    reused = previous is not None and _reused(store.texts, previous.texts)
    if reused and _reused(store.memo, previous.memo):  # (the usual warm open: 20 ms less)
        _pending = None
        return
    texts, memo = _kept(store)
    same = (
        previous is not None
        and memo.keys() == previous.memo.keys()
        and texts.keys() == previous.texts.keys()
        and all(tf is previous.texts[rel] for rel, tf in texts.items())
    )
    _pending = store if texts and not same else None


def _reused(new: Mapping[Any, Any], old: Mapping[Any, Any]) -> bool:
    """Whether `new` holds the very values of `old`, in the same order (each value is
    one key's own: a record of what one file parsed to). Looking each key up costs a
    tuple's hash and compare: 8 ms for the --size 500 demo's 32,024 parses, this 1."""
    return len(new) == len(old) and all(map(operator.is_, new.values(), old.values()))


def flush() -> None:
    """Write what remember() kept (the caller's process; flush_detached() for a CLI)."""
    global _pending
    store, _pending = _pending, None
    # No cache then: a read-only home, a full disk, a third party's record that
    # cannot be pickled.
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
        _save(store)


def _save(store: Store | None) -> None:
    where = folder() if store is not None and cache_enabled() else None
    key = _key(where) if where else None
    if store is None or where is None or key is None:
        return
    texts, memo = _kept(store)
    buf = io.BytesIO()
    made = (
        version_tag(),
        store.root,
        time.time_ns(),
        store.config,
        store.escaped,
        texts,
        _packed(memo),
    )
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(made)
    body = buf.getvalue()
    tmp = _write_temp(where, _header() + hmac.digest(key, body, "sha256") + body)
    os.replace(tmp, _file(where, store.root))
    _prune(where)


def _prune(where: str) -> None:
    """Forget the stores whose cache was not written for STALE_DAYS (a demo in a temp
    folder; one still opened is written again by its next open), and what a writer
    killed midway left."""
    now = time.time()
    for entry in os.scandir(where):
        stale = STALE_DAYS * 86400 if entry.name.endswith(".pickle") else 3600
        if entry.name != "key" and now - entry.stat(follow_symlinks=False).st_mtime > stale:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def flush_detached() -> int | None:
    """flush() in a child of its own, so that a verb's answer never waits for it (it
    costs about as much as the open): the child's id, None when there was nothing to
    write. Only from a process without threads (a CLI verb at its end)."""
    global _pending
    if _pending is None:
        return None
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        _pending = None  # the child's to write
        return pid
    try:  # the child: no terminal, no pipe of the caller's kept open
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        flush()
    finally:
        os._exit(0)
