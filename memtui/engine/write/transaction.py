"""The transaction: every change memtui makes goes through here (SPEC §0).

    with Transaction(root, "accept") as tx:
        old = tx.read("notes.md")          # under the lock; remembered as the expected version
        tx.write("notes.md", new_bytes)    # must still be `old` at commit
        tx.move("pending/x.md", "archive/pending/x.md", expect=digest_user_saw)
        receipt = tx.commit()

commit(): conflict check -> history snapshots -> stage temp files (fsync) ->
journal (the commit point) -> os.replace / rename / unlink -> fsync folders ->
read back -> audit -> drop the journal. A crash before the journal leaves
every file old; after it, the next transaction (or `recover`) finishes the
journal, or undoes it if the agent has since written one of its files.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import getpass
import os
import socket
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.config import thresholds_at
from memtui.engine.paths import is_inside
from memtui.engine.write import journal, modes, recovery
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import (
    Conflict,
    ReadBackMismatch,
    Refused,
    Unsafe,
    WriteError,
    os_failure,
    plain,
)
from memtui.engine.write.files import (
    TEMP_MARK,
    Unsynced,
    crash_point,
    dir_mode,
    read_at,
    sha256,
    unlink_quietly,
    write_new,
)
from memtui.engine.write.lock import LOCK_NAME, WAIT_SECONDS, StoreLock
from memtui.engine.write.operation import current as current_operation
from memtui.engine.write.operation import new_id
from memtui.engine.write.operation import notes as audit_notes
from memtui.engine.write.snapshots import HISTORY, keep, stamp
from memtui.i18n import msg

AUDIT = journal.AUDIT
_SEEN: Any = object()  # expect: the version this transaction read
Where = Callable[..., str]  # where(rel, version=0): the path a snapshot was kept at


@dataclass(frozen=True, slots=True)
class Change:
    action: str  # write | remove | move
    path: str  # the file written or removed; for a move, where it went
    before: str | None  # sha256 of the version replaced (None: there was none)
    after: str | None  # sha256 now (None: removed)
    source: str | None = None  # a move's origin
    snapshot: str | None = None  # where the old bytes were kept
    old: bytes | None = field(default=None, repr=False)  # for diffs
    new: bytes | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        data = {
            "action": self.action,
            "path": self.path,
            "before": self.before,
            "after": self.after,
            "snapshot": self.snapshot,
        }
        if self.source:
            data["source"] = self.source
        return data


@dataclass(frozen=True, slots=True)
class Receipt:
    txid: str
    op: str
    changes: tuple[Change, ...]
    dry_run: bool
    details: dict[str, Any]
    notes: tuple[str, ...] = ()  # what settling an earlier interrupted change did

    def to_json(self) -> dict[str, Any]:
        data = {
            "txid": self.txid,
            "op": self.op,
            "dry_run": self.dry_run,
            "details": self.details,
            "changes": [c.to_json() for c in self.changes],
        }
        if self.notes:
            data["recovered"] = list(self.notes)
        return data


def who() -> str:
    name = os.environ.get("MEMTUI_WHO")
    if name:
        return name
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid())
    return f"{user}@{socket.gethostname()}"


class Transaction:
    SEEN = _SEEN  # expect=: the version this transaction read (the default)
    LIKE_SIBLINGS = -1  # mode=: a new file of the user's own text, as open as its siblings

    def __init__(
        self,
        root: str,
        op: str,
        *,
        details: dict[str, Any] | None = None,
        dry_run: bool = False,
        lock_wait: float | None = None,
    ) -> None:
        self.root = os.path.realpath(root)
        self.op = op
        self.details = {**audit_notes(), **(details or {})}
        self.dry_run = dry_run
        self.txid = new_id()
        self.opid = current_operation() or self.txid  # a bulk action's chunks share one
        self._store_mode = modes.StoreMode(self.root)  # for a new lock file and audit log
        wait = WAIT_SECONDS if lock_wait is None else lock_wait
        self._lock = StoreLock(self.root, wait, of_store=self._store_mode)
        self._dirs: Dirs | None = None
        self._file_locks: list[StoreLock] = []  # an agent's own per-file locks, also held
        self._limit = thresholds_at(self.root).max_file_bytes
        self.recovered: list[str] = []  # what settling an earlier interrupted change did
        self._seen: dict[str, str | None] = {}
        self._plan: list[dict[str, Any]] = []
        self._data: dict[str, bytes] = {}
        self._versions: dict[str, list[bytes]] = {}  # rel -> what it holds in turn before _data
        self._version_paths: dict[str, list[str]] = {}  # rel -> where those were kept
        self._sibling_modes: modes.Siblings | None = None
        self._old: dict[str, bytes | None] = {}
        self._modes: dict[str, int] = {}  # mode of every file read, as it was read
        self._after: dict[str, str | None] = {}  # each step's new hash, once worked out
        self._staged: list[str] = []
        self._linked: list[str] = []  # snapshots that are the store file itself, until journaled
        self._touched: set[str] = set()  # every path a planned step writes, moves or removes
        self._inside_dirs: set[str] = set()  # folders already known to resolve inside root
        self._finishers: list[Callable[[Callable[[str], str]], None]] = []
        self._prune: list[str] = []  # folders to remove after the change if empty then
        self._doing = ""  # the path being worked on, for a failure's message

    # --- context -------------------------------------------------------------

    def __enter__(self) -> Transaction:
        if not self.dry_run:
            self._refuse_a_non_store()
            self._lock.acquire()
            crash_point("locked")
            try:
                with self._failing_as_nothing_changed():
                    self.recovered = recovery.recover(self.dirs)
            except BaseException:
                self._close()
                raise
        return self

    def _refuse_a_non_store(self) -> None:
        """Nothing is created outside a recognised store: not even the lock file."""
        if os.path.lexists(os.path.join(self.root, LOCK_NAME)):
            return  # a store memtui or its agent has locked before
        from memtui.engine.store import looks_like_store, no_layout

        if not looks_like_store(self.root):
            raise WriteError(
                msg("{no_layout}; nothing was created or changed", no_layout=no_layout(self.root))
            )

    def __exit__(self, *exc: object) -> None:
        try:
            if self._staged:  # commit failed before the journal: drop its temp files
                with contextlib.suppress(OSError, WriteError):
                    journal.drop_prepared(self.dirs, self.txid)
            if self._linked:  # ...and the second names it gave files it did not change
                with contextlib.suppress(OSError, WriteError):
                    self._unlink_snapshots()
        finally:
            self._close()

    def _unlink_snapshots(self) -> None:
        """A snapshot linked to a file the change never replaced would follow what an
        agent writes into it later: not a snapshot. Its bytes are in the file still."""
        for label in self._linked:
            folder = self.dirs.own(os.path.dirname(label), create=False)
            if folder is not None:
                unlink_quietly(os.path.basename(label), folder)
        self._linked = []

    def _close(self) -> None:
        try:
            if self._dirs is not None:
                self._dirs.close()
                self._dirs = None
        finally:
            while self._file_locks:
                self._file_locks.pop().release()
            self._lock.release()

    def lock(self, rel: str) -> None:
        """Also hold an agent's own lock file for one of its files, as the agent takes it
        (Detection.locks: a flock on `<file>.lock` around every read-modify-write).
        Call before reading the file; held until the transaction ends."""
        if self.dry_run:
            return
        checked = self._check(rel)
        if any(held.name == checked for held in self._file_locks):
            return  # held already (a second flock on a new descriptor would wait on us)
        held = StoreLock(self.root, self._lock.wait, name=checked)
        held.acquire()
        self._file_locks.append(held)

    @property
    def dirs(self) -> Dirs:
        if self._dirs is None:
            self._dirs = Dirs(self.root)
        return self._dirs

    @contextlib.contextmanager
    def _failing_as_nothing_changed(self, applied: bool = False) -> Iterator[None]:
        """An OSError (read-only or full disk, a folder for a file…) in words, naming the file."""
        try:
            yield
        except OSError as exc:
            raise os_failure(self._doing or exc.filename or self.root, exc, applied) from None

    # --- planning ------------------------------------------------------------

    def abs(self, rel: str) -> str:
        return os.path.join(self.root, self._check(rel))

    def _check(self, rel: str) -> str:
        """check_path, resolving each folder once per transaction (bulk accepts touch
        thousands of files in a handful of folders)."""
        return check_path(self.root, rel, self._inside_dirs)

    def _current(self, rel: str) -> tuple[bytes, int] | None:
        """(bytes, mode) as the file is now, through a checked folder; None if absent."""
        self._doing = rel
        with self._failing_as_nothing_changed():
            folder = self.dirs.store(os.path.dirname(rel), create=False)
            if folder is None:
                return None
            return read_at(folder, os.path.basename(rel), rel, self._limit)

    def read(self, rel: str) -> bytes | None:
        """The file as it is now (None: absent); its hash becomes the expected version.
        An agent's own lock for it (its layout's `locks`) is taken first, so every
        change, an undo or a rollback included, holds what the agent holds."""
        for agent_lock in _agent_locks(rel):
            self.lock(agent_lock)
        _refuse_if_held(self.root, rel)
        got = self._current(self._check(rel))
        data = None if got is None else got[0]
        self._seen[rel] = None if data is None else sha256(data)
        self._old[rel] = data
        if got is not None:
            self._modes[rel] = got[1]
        return data

    def read_own(self, rel: str) -> tuple[bytes, int] | None:
        """(bytes, mode) of a file in memtui's own folders (a snapshot); no link is followed."""
        self._doing = rel
        with self._failing_as_nothing_changed():
            folder = self.dirs.own(os.path.dirname(rel), create=False)
            return None if folder is None else read_at(folder, os.path.basename(rel), rel)

    def write(
        self,
        rel: str,
        data: bytes,
        expect: str | None = _SEEN,
        mode: int | None = None,
        versions: Sequence[bytes] = (),
    ) -> None:
        """Plan rel's new bytes. `mode`: the mode to give it (a rollback restores the mode
        it had); by default an existing file keeps its own, a new one gets one no more
        open than the files this change reads and its siblings. `versions`: what rel
        holds in turn between its current bytes and `data` (a bulk accept's earlier
        versions of one sop), each kept as a snapshot after the current one, in order."""
        self._add("write", rel, expect, data=data, mode=mode)
        for version in versions:
            self._check_size(self._check(rel), version)
        if versions:
            self._versions[self._check(rel)] = list(versions)

    def remove(self, rel: str, expect: str | None = _SEEN) -> None:
        self._add("remove", rel, expect)

    def move(self, src: str, dst: str, expect: str | None = _SEEN) -> None:
        """Rename src to dst (which must not exist): bytes unchanged, so no snapshot."""
        self._add("move", dst, expect, source=src)

    def prune(self, folder: str) -> None:
        """Remove `folder` once the change is applied if it is empty then (a folder an
        archive made that a restore empties); one that is not empty stays, and so does
        one a crash left (an empty folder holds nothing to recover)."""
        self._prune.append(self._check(folder))

    def after_snapshots(self, fn: Callable[[Where], None]) -> None:
        """Call fn(where) once the snapshots exist, before anything is staged;
        `where(rel)` is rel's snapshot path, `where(rel, k)` that of its k-th planned
        version (write's `versions`). memory-meta.json uses it to record the snapshot a
        supersede makes, in the same transaction."""
        self._finishers.append(fn)

    def planned(self, rel: str) -> bytes:
        return self._data[rel]

    def replan(self, rel: str, data: bytes) -> None:
        """Change the bytes planned for rel (from an after_snapshots callback)."""
        if rel not in self._data:
            raise WriteError(msg("internal: {rel} is not planned", rel=rel))
        self._data[rel] = data

    def _finish_plan(self, where: Where) -> None:
        finishers, self._finishers = self._finishers, []
        for fn in finishers:
            fn(where)

    def _add(self, action: str, rel: str, expect: Any, **extra: Any) -> None:
        checked = self._check(rel)
        if extra.get("source"):
            extra["source"] = self._check(extra["source"])
        key = extra.get("source") or checked
        if expect is _SEEN:
            if key not in self._seen:
                raise WriteError(msg("internal: {key} was not read before it was changed", key=key))
            expect = self._seen[key]
        touched = {checked, key}
        if touched & self._touched:
            raise WriteError(
                msg("internal: {checked} is changed twice in one transaction", checked=checked)
            )
        self._touched |= touched
        data = extra.pop("data", None)
        if data is not None:
            self._check_size(checked, data)
            self._data[checked] = data
        if extra.get("mode") is None:
            extra.pop("mode", None)
        self._plan.append({"action": action, "path": checked, "before": expect, **extra})

    def _check_size(self, checked: str, data: bytes) -> None:
        if len(data) > self._limit:
            raise WriteError(
                msg(
                    "{checked} would be {count:,} bytes, over the {_limit:,}-byte "
                    "limit (max_file_bytes); nothing was changed",
                    checked=checked,
                    count=len(data),
                    _limit=self._limit,
                )
            )

    def _siblings(self) -> modes.Siblings:
        """One per transaction: a folder's files are stat'ed once, for all its new files."""
        if self._sibling_modes is None:
            self._sibling_modes = modes.Siblings(self.dirs)
        return self._sibling_modes

    def _where(self, snapshots: dict[str, str]) -> Where:
        def where(rel: str, version: int = 0) -> str:
            return self._version_paths[rel][version - 1] if version else snapshots[rel]

        return where

    # --- commit --------------------------------------------------------------

    def commit(self) -> Receipt:
        current = self._check_conflicts()
        if self.dry_run or not self._plan:
            self._finish_plan(lambda rel, version=0: f"{HISTORY}/{rel}/<at commit>")
            return self._receipt(current, {})
        crash_point("checked")
        with self._failing_as_nothing_changed():
            self._preflight()
        private = modes.private_mode(self._modes.values())
        self.dirs.folder_mode = dir_mode(private)
        with self._failing_as_nothing_changed():
            with self.dirs.batched_fsync():
                snapshots = self._snapshot(current, private)
            self._finish_plan(self._where(snapshots))
            crash_point("snapshotted")
            temps = self._stage(private)
            crash_point("staged")
            record = self._journal_record(snapshots, temps, private)
            self._doing = journal.JOURNAL
            journal.write(self.dirs, record, private)
        self._staged = []  # from here on the journal owns the temp files
        self._linked = []  # ...and the snapshots are the change's
        crash_point("journaled")
        try:
            journal.apply(self.dirs, record["changes"])
        except OSError as exc:
            self._settle_now(exc)
            return self._receipt(current, snapshots)  # finished (and audited) by recovery
        journal.prune(self.dirs, self._prune)
        crash_point("applied")
        self._read_back()
        crash_point("verified")
        self._audit(record, private)
        crash_point("audited")
        with self._failing_as_nothing_changed(applied=True):
            journal.finish(self.dirs, self.txid)
        receipt = self._receipt(current, snapshots)
        _after_change(self.root, receipt)
        return receipt

    def _settle_now(self, exc: OSError) -> None:
        """Applying failed halfway (a disk error): settle it now, under the lock still held.
        Returns only if that finished the change; raises with what happened otherwise."""
        try:
            notes = recovery.recover(self.dirs)
        except (OSError, WriteError):
            raise os_failure(self._doing or self.root, exc, applied=True) from None
        if notes == [] or not notes[0].endswith(": completed after an interruption"):
            raise WriteError(f"{exc.filename or self.root}: {plain(exc)}; " + "; ".join(notes))

    def _audit(self, record: dict[str, Any], private: int) -> None:
        try:
            mode = modes.audit_mode(self.root, private, self._store_mode)
            journal.audit(self.dirs, record, mode)
        except OSError as exc:
            raise WriteError(
                msg(
                    "the change was made, but {AUDIT} could not be written "
                    "({strerror}); the next memtui command writes it",
                    AUDIT=AUDIT,
                    strerror=exc.strerror,
                )
            ) from None

    def _preflight(self) -> None:
        """memtui's own folder and audit log are usable, before anything is written: a
        link, a FIFO or a file in their place is refused now, not after the change."""
        history = self.dirs.own(HISTORY, create=False)
        if history is None:
            return
        for rel in [journal.JOURNAL, *(f"{HISTORY}/{step['path']}" for step in self._plan)]:
            self._doing = rel
            self.dirs.own(rel, create=False)  # Unsafe if any existing part is a link or a file
        self._doing = AUDIT
        try:
            info = os.stat("audit.jsonl", dir_fd=history, follow_symlinks=False)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(info.st_mode):
            raise Unsafe(
                msg("{AUDIT} is a symbolic link; memtui does not write through it", AUDIT=AUDIT)
            )
        if not stat.S_ISREG(info.st_mode):
            raise Unsafe(
                msg("{AUDIT} is not a regular file (a FIFO?); nothing was changed", AUDIT=AUDIT)
            )

    def _check_conflicts(self) -> dict[str, bytes | None]:
        """Each file must still be the version expected; say what changed if not."""
        current: dict[str, bytes | None] = {}
        for step in self._plan:
            rel = step.get("source") or step["path"]
            got = self._current(rel)
            data = None if got is None else got[0]
            current[rel] = data
            if got is not None:
                self._modes.setdefault(rel, got[1])
                if step.get("mode", self.LIKE_SIBLINGS) == self.LIKE_SIBLINGS:
                    step["mode"] = got[1]  # an existing file keeps its mode
            now = None if data is None else sha256(data)
            if now != step["before"]:
                raise Conflict(describe_conflict(rel, step["before"], self._old.get(rel), data))
            if step["action"] == "move":
                if data is None:
                    raise Conflict(msg("{rel} does not exist", rel=rel))
                if self._current(step["path"]) is not None or os.path.lexists(
                    os.path.join(self.root, step["path"])
                ):
                    raise Conflict(msg("{step} already exists; not overwritten", step=step["path"]))
        return current

    def _snapshot(self, current: dict[str, bytes | None], private: int) -> dict[str, str]:
        """Old bytes of every file about to change go to .history/<path>/<UTC>.<n>."""
        when = stamp()
        kept = [
            step["path"]
            for step in self._plan
            if step["action"] != "move"
            and (current.get(step["path"]) is not None or step["path"] in self._versions)
        ]
        siblings = self._siblings()
        new_modes = {  # a new file's versions as open as it will be (worked out once a folder)
            rel: siblings.mode(os.path.dirname(rel), private)
            for rel in kept
            if rel not in self._modes
        }
        folder_mode = dir_mode(private)

        def one(rel: str) -> list[str]:
            """The current bytes' snapshot, then each planned version's, in order (`n`
            of the names follows the order); fsynced with the others, after them all."""
            self._doing = f"{HISTORY}/{rel}"
            mode = self._modes.get(rel, new_modes.get(rel))
            if mode is None:
                mode = modes.OPEN & ~siblings.umask()
            old = current.get(rel)
            paths = []
            if old is not None:  # the file itself, which the change replaces or removes
                folder = self.dirs.store(os.path.dirname(rel), create=False)
                same_as = None if folder is None else (folder, os.path.basename(rel))
                paths.append(keep(self.dirs, rel, old, mode, when, folder_mode, unsynced, same_as))
            return paths + [
                keep(self.dirs, rel, version, mode, when, folder_mode, unsynced)
                for version in self._versions.get(rel, [])
            ]

        unsynced = Unsynced()
        try:
            where = [one(rel) for rel in kept]
            unsynced.sync(self._working_on)
        finally:
            self._linked = unsynced.links
            unsynced.close()
        snapshots = {}
        for rel, paths in zip(kept, where, strict=True):
            if current.get(rel) is not None:
                snapshots[rel] = paths.pop(0)
            self._version_paths[rel] = paths
        return snapshots

    def _working_on(self, rel: str) -> None:
        self._doing = rel

    def _stage(self, private: int) -> dict[str, str]:
        """Temp files beside their targets, named first in a `.prepare` note so that
        a crash before the journal leaves nothing the next transaction can't clean."""
        temps: dict[str, str] = {}
        for step in self._plan:
            if step["action"] == "write":
                folder, name = os.path.split(step["path"])
                temps[step["path"]] = os.path.join(folder, f".{name}{TEMP_MARK}{self.txid}.tmp")
        self._staged = list(temps.values())
        self._doing = journal.JOURNAL
        journal.prepare(self.dirs, self.txid, self._staged, private)
        siblings = self._siblings()
        writes: list[tuple[str, int, int | None]] = []  # (path, its folder, its mode)
        for step in self._plan:
            rel = step["path"]
            if step["action"] != "write":
                continue
            self._doing = rel
            folder = self.dirs.store(os.path.dirname(rel))
            assert folder is not None
            if step.get("mode", self.LIKE_SIBLINGS) == self.LIKE_SIBLINGS:  # a new file
                sources = private if "mode" not in step else modes.OPEN
                step.pop("mode", None)
                step["new_mode"] = siblings.mode(os.path.dirname(rel), sources)
            writes.append((rel, folder, step.get("mode", step.get("new_mode"))))

        unsynced = Unsynced()
        try:
            for rel, folder, mode in writes:
                self._doing = rel
                name = os.path.basename(temps[rel])
                write_new(folder, name, self._data[rel], mode, unsynced, rel)
                unsynced.folders[folder] = os.path.dirname(rel) or "."
            unsynced.sync(self._working_on)
        finally:
            unsynced.close()
        return temps

    def _journal_record(
        self, snapshots: dict[str, str], temps: dict[str, str], private: int
    ) -> dict[str, Any]:
        changes = []
        for step in self._plan:
            data = self._data.get(step["path"])
            if step["action"] == "remove":
                after = None
            else:
                after = sha256(data) if data is not None else step["before"]
            self._after[step["path"]] = after
            change = {
                **step,
                "after": after,
                "after_size": len(data) if data is not None else None,  # to see agent appends
                "temp": temps.get(step["path"]),
                "snapshot": snapshots.get(step["path"]),
            }
            change.pop("new_mode", None)
            changes.append(change)
        return {
            **self.record_head(),
            "mode": private,
            "dir_mode": dir_mode(private),
            "changes": changes,
        }

    def record_head(self) -> dict[str, Any]:
        """What the journal and the audit log say of every change: who made which, when."""
        return {
            "txid": self.txid,
            "opid": self.opid,
            "op": self.op,
            "who": who(),
            "time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "details": self.details,
        }

    def _read_back(self) -> None:
        for step in self._plan:
            if step["action"] != "write":
                continue
            try:
                got = self._current(step["path"])
            except WriteError:
                got = None
            if got is None or got[0] != self._data[step["path"]]:
                raise ReadBackMismatch(
                    msg(
                        "read-back of {step} differs from what was written; the "
                        "previous version is kept in .history/",
                        step=step["path"],
                    )
                )

    def _receipt(self, current: dict[str, bytes | None], snapshots: dict[str, str]) -> Receipt:
        changes = []
        for step in self._plan:
            rel = step["path"]
            old = current.get(step.get("source") or rel)
            new = (
                self._data.get(rel)
                if step["action"] == "write"
                else None
                if step["action"] == "remove"
                else old
            )
            after = self._after[rel] if rel in self._after else None if new is None else sha256(new)
            changes.append(
                Change(
                    step["action"],
                    rel,
                    step["before"],
                    after,
                    step.get("source"),
                    snapshots.get(rel),
                    old,
                    new,
                )
            )
        return Receipt(
            self.txid, self.op, tuple(changes), self.dry_run, self.details, tuple(self.recovered)
        )


def _after_change(root: str, receipt: Receipt) -> None:
    """Each layout that acts after a change (Detection.after_change) is told of it."""
    from memtui.engine.layouts import detectors
    from memtui.engine.layouts.base import Detection

    for detection in detectors().values():
        if type(detection).after_change is not Detection.after_change:
            detection.after_change(root, receipt)


def check_path(root: str, rel: str, inside_dirs: set[str] | None = None) -> str:
    """A relative path that stays inside the root and is not a link; else WriteError."""
    norm = os.path.normpath(rel.replace("\\", "/"))
    if os.path.isabs(rel) or norm == ".." or norm.startswith("../") or norm in ("", "."):
        raise WriteError(msg("{rel!r} leads outside the store root; refused", rel=rel))
    if norm == LOCK_NAME or norm.split("/")[0] == HISTORY:
        raise WriteError(msg("{rel!r} is memtui's own bookkeeping; refused", rel=rel))
    full = os.path.join(root, norm)
    folder = os.path.dirname(full)
    if inside_dirs is None or folder not in inside_dirs:
        if not is_inside(root, os.path.realpath(folder)):
            raise WriteError(msg("{rel!r} leads outside the store root; refused", rel=rel))
        if inside_dirs is not None:
            inside_dirs.add(folder)
    if os.path.islink(full):
        raise WriteError(
            msg("{rel!r} is a symbolic link; memtui does not write through links", rel=rel)
        )
    return norm


def describe_conflict(rel: str, expected: str | None, seen: bytes | None, now: bytes | None) -> str:
    if now is None:
        return msg(
            "{rel} was removed since it was read (by the agent?); nothing was changed", rel=rel
        )
    if expected is None:
        return msg(
            "{rel} was created since it was read (by the agent?); nothing was changed", rel=rel
        )
    if seen is not None and sha256(seen) == expected:  # else the caller's version is older
        old, new = seen.count(b"\n"), now.count(b"\n")
        if now.startswith(seen):
            return msg(
                "{rel} changed since it was read (the agent wrote to it: {n:,} line(s) "
                "appended); nothing was changed — reload and try again",
                rel=rel,
                n=new - old,
            )
        return msg(
            "{rel} changed since it was read (the agent wrote to it: now {new:,} lines, was "
            "{old:,}); nothing was changed — reload and try again",
            rel=rel,
            new=new,
            old=old,
        )
    return msg(
        "{rel} changed since it was read (the agent wrote to it); nothing was changed — "
        "reload and try again",
        rel=rel,
    )


def settle_interrupted(root: str) -> list[str]:
    """Finish or undo what a crash left in the journal, under the lock; what it did."""
    if not journal.pending(os.path.realpath(root)) and not journal.prepared(root):
        return []
    with Transaction(root, "recover") as tx:
        return tx.recovered


def _refuse_if_held(root: str, rel: str) -> None:
    """Refuse, before anything is written, a change to a file an agent holds by a lock
    memtui cannot take (Detection.held: a lock file naming a live process)."""
    from memtui.engine.layouts import detectors

    for found in detectors().values():
        reason = found.held(root, rel)
        if reason:
            raise Refused(reason)


@functools.lru_cache(maxsize=4096)
def _agent_locks(rel: str) -> tuple[str, ...]:
    """The lock files beside memtui's own that some layout's agent takes for `rel` (a
    layout's rule for a path, so kept: a bulk accept reads thousands of files). Asked of
    the detections: a write imports no layout's parser for it (a fifth of a second's
    imports, a twentieth of a bulk accept)."""
    from memtui.engine.layouts import detectors

    return tuple(
        name for found in detectors().values() for name in found.locks(rel) if name != LOCK_NAME
    )
