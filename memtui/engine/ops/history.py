"""A file's history: its snapshots in .history/, a diff against now, rollback.

A rollback is an ordinary transaction, so the version it replaces is itself
snapshotted first: every rollback can be rolled back.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from memtui.engine.diff import unified
from memtui.engine.ops.common import Refused, update_json
from memtui.engine.textfile import Unreadable, decode
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import Unsafe
from memtui.engine.write.files import read_at, read_or_none, sha256
from memtui.engine.write.transaction import HISTORY, Receipt, Transaction, check_path
from memtui.i18n import msg

STATS = "memory_stats.json"


@dataclass(frozen=True, slots=True)
class Snapshot:
    name: str  # "<UTC stamp>.<n>", as given to --to (an agent's copy: its file name)
    path: str  # relative to the root: .history/<file>/<name>, or the agent's copy
    size: int
    digest: str
    # An agent's own copy (Detection.history_of): which layout's, and its UTC stamp.
    kept_by: str = "memtui"
    at: str = ""

    @property
    def stamp(self) -> str:
        return self.at or self.name.split(".", 1)[0]  # 20261129T231500Z

    @property
    def time(self) -> str:
        s = self.stamp
        return f"{s[:4]}-{s[4:6]}-{s[6:8]} {s[9:11]}:{s[11:13]}:{s[13:15]} UTC"

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "path": self.path,
            "time": self.time,
            "size": self.size,
            "sha256": self.digest,
            "kept_by": self.kept_by,
        }


def snapshots(root: str, rel: str) -> list[Snapshot]:
    """The file's snapshots, newest first."""
    real = os.path.realpath(root)
    rel = check_path(real, rel)
    dirs = Dirs(real)  # never through a link: .history may not lead out of the store
    try:
        folder = dirs.own(f"{HISTORY}/{rel}", create=False)
        found = []
        for name in [] if folder is None else os.listdir(folder):
            try:
                got = read_at(folder, name, f"{HISTORY}/{rel}/{name}")
            except Unsafe:
                continue  # a link, folder or FIFO among the snapshots is none of them
            data = b"" if got is None else got[0]
            found.append(Snapshot(name, f"{HISTORY}/{rel}/{name}", len(data), sha256(data)))
        found += _agents_copies(real, rel, dirs)
    finally:
        dirs.close()
    return sorted(found, key=_order, reverse=True)


def _agents_copies(root: str, rel: str, dirs: Dirs) -> list[Snapshot]:
    """The copies of `rel` its agent keeps itself (Detection.history_of), read as the
    snapshots are: never through a link."""
    from memtui.engine.layouts import detectors

    found = []
    for name, det in detectors().items():
        for path, when in det.history_of(root, rel):
            folder = dirs.own(os.path.dirname(path), create=False)
            try:
                got = None if folder is None else read_at(folder, os.path.basename(path), path)
            except Unsafe:
                continue
            data = b"" if got is None else got[0]
            at = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(when))
            base = os.path.basename(path)
            found.append(Snapshot(base, path, len(data), sha256(data), name, at))
    return found


def agents_history(root: str, rel: str) -> list[dict[str, str]]:
    """What the layouts found at the root keep of the file's past themselves
    (Layout.file_history), each version with the layout's name, newest first a layout."""
    from memtui.engine.detection import layouts_at
    from memtui.engine.layouts import registry

    real = os.path.realpath(root)
    rel = check_path(real, rel)
    layouts = registry()
    return [
        {"layout": name, **version}
        for name in layouts_at(real)
        for version in layouts[name].file_history(real, rel)
    ]


def _order(s: Snapshot) -> tuple[str, int]:
    if s.at:
        return s.at, -1
    stamp, _, n = s.name.partition(".")
    return stamp, int(n) if n.isascii() and n.isdigit() and len(n) < 19 else 0


def pick(root: str, rel: str, name: str | None) -> Snapshot:
    found = snapshots(root, rel)
    if not found:
        raise Refused(msg("{rel} has no history yet", rel=rel))
    if name is None:
        return found[0]
    folder = os.path.dirname(found[0].path)
    wanted = _snapshot_name(root, folder, name)
    if wanted is None:
        raise Refused(
            msg(
                "{name} is not a snapshot of {rel} (its snapshots are in "
                "{folder}/; see `memtui history {rel}`); nothing changed",
                name=name,
                rel=rel,
                folder=folder,
            )
        )
    for snap in found:
        if snap.name == wanted:
            return snap
    raise Refused(
        msg("{rel} has no snapshot {name!r} (see `memtui history {rel}`)", rel=rel, name=name)
    )


def _snapshot_name(root: str, folder: str, given: str) -> str | None:
    """The snapshot name `given` means: a bare name, or a path (from the root, from
    here, or absolute) into the file's own history folder. Another file's snapshot of
    the same name is not this file's: None."""
    if "/" not in given and os.sep not in given:
        return given
    real_root = os.path.realpath(root)
    own = os.path.realpath(os.path.join(real_root, folder))
    for path in (os.path.join(real_root, given), os.path.abspath(given)):
        parent, name = os.path.split(os.path.normpath(path))
        if os.path.realpath(parent) == own:
            return name
    return None


def diff(root: str, rel: str, name: str | None = None) -> str:
    """The snapshot (default: the newest) against the file as it is now."""
    snap = pick(root, rel, name)
    old = _text(read_or_none(os.path.join(root, snap.path)), snap.path)
    new = _text(read_or_none(os.path.join(root, rel)), rel)
    return unified(old, new, rel)


ABSENT = "absent"  # rollback's `expected` when the user saw no file


def rollback(
    root: str,
    rel: str,
    name: str | None = None,
    *,
    expected: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """Put the snapshot (default: the newest) back, through the transaction.

    `expected`: the sha256 of the file the user compared the snapshot with (ABSENT:
    there was no file); if the agent has written it since, nothing changes and the
    conflict says what changed."""
    snap = pick(root, rel, name)
    with Transaction(
        root, "rollback", details={"file": rel, "to": snap.name}, dry_run=dry_run
    ) as tx:
        got = tx.read_own(snap.path)  # never through a link out of .history
        data, mode = got if got is not None else (None, None)
        if data is None or sha256(data) != snap.digest:
            raise Refused(
                msg("snapshot {path} changed while rolling back; nothing changed", path=snap.path)
            )
        if tx.read(rel) == data:
            raise Refused(msg("{rel} is already at snapshot {name}", rel=rel, name=snap.name))
        expect = tx.SEEN if expected is None else None if expected == ABSENT else expected
        own = snap.kept_by == "memtui"  # an agent's copy has its own mode, not the file's
        tx.write(rel, data, expect=expect, mode=mode if own else None)  # the mode it had, too
        if rel != STATS and os.path.exists(os.path.join(tx.root, STATS)):
            update_json(tx, STATS, _count_rollback)
        return tx.commit()


def _count_rollback(stats: dict[str, object]) -> None:
    count = stats.get("rollbacks", 0)
    stats["rollbacks"] = (count if isinstance(count, int) else 0) + 1


def _text(data: bytes | None, rel: str) -> str:
    if data is None:
        return ""
    got = decode(rel, data)
    if isinstance(got, Unreadable):
        raise Refused(
            msg("{rel} is {reason}; it cannot be shown as a diff", rel=rel, reason=got.reason)
        )
    return got.text
