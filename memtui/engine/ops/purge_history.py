"""What `memtui purge` rewrites in memtui's own folder (engine.ops.purge): a file's
snapshots in .history/ that hold a value, and the audit log's hashes of those versions,
under the caller's store lock. The audit is written whole first, then each snapshot
(temp file, os.replace, fsync): a crash between leaves snapshots that still hold the
value, which `memtui purge FILE` lists again, and purging it again finishes."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

from memtui.engine.write import journal, modes
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import Unsafe
from memtui.engine.write.files import read_at, sha256, unlink_quietly, write_new
from memtui.engine.write.transaction import HISTORY, Transaction

_TEMP = ".purging"  # a snapshot's replacement, before os.replace (a crash's leftover is removed)


def snapshots(dirs: Dirs, rel: str) -> Iterator[tuple[int, str, bytes, int]]:
    """(its folder, name, bytes, mode) of each of memtui's snapshots of rel."""
    folder = dirs.own(f"{HISTORY}/{rel}", create=False)
    if folder is None:
        return
    for name in sorted(os.listdir(folder)):
        if name.endswith(_TEMP):
            unlink_quietly(name, folder)  # a purge a crash interrupted: never a snapshot
            continue
        try:
            got = read_at(folder, name, f"{HISTORY}/{rel}/{name}")
        except Unsafe:
            continue
        if got is not None:
            yield folder, name, got[0], got[1]


def scrub(dirs: Dirs, rel: str, swaps: list[tuple[bytes, bytes]]) -> None:
    """Every snapshot of rel that holds a swap's value rewritten with its replacement in
    its place, the audit log's hashes of those versions first. Under the caller's lock."""
    changed: list[tuple[int, str, bytes, int]] = []
    hashes: dict[str, str] = {}
    for folder, name, data, mode in snapshots(dirs, rel):
        new = _swapped(data, swaps)
        if new != data:
            changed.append((folder, name, new, mode))
            hashes[sha256(data)] = sha256(new)
    _rewrite_audit(dirs, rel, hashes, swaps)
    for folder, name, new, mode in changed:
        write_new(folder, name + _TEMP, new, mode & 0o777)
        os.replace(name + _TEMP, name, src_dir_fd=folder, dst_dir_fd=folder)
        os.fsync(folder)


def _swapped(data: bytes, swaps: list[tuple[bytes, bytes]]) -> bytes:
    for value, to in swaps:
        data = data.replace(value, to)
    return data


def _rewrite_audit(
    dirs: Dirs, rel: str, hashes: dict[str, str], swaps: list[tuple[bytes, bytes]]
) -> None:
    """The audit's `before`/`after` of rel that name a purged version name its redacted
    one, marked `purged`; any other line kept byte for byte. Written whole, atomically."""
    folder = dirs.own(HISTORY, create=False)
    got = None if folder is None else read_at(folder, "audit.jsonl", journal.AUDIT)
    if folder is None or got is None:
        return
    data, mode = got
    # each value as JSON writes it: the value itself is never left in the log
    escaped = [(_in_json(value), to) for value, to in swaps if value]
    lines = data.splitlines(keepends=True)
    rewritten = b"".join(_swapped(_rewritten(raw, rel, hashes), escaped) for raw in lines)
    if rewritten == data:
        return
    write_new(folder, "audit.jsonl" + _TEMP, rewritten, mode & 0o777)
    os.replace("audit.jsonl" + _TEMP, "audit.jsonl", src_dir_fd=folder, dst_dir_fd=folder)
    os.fsync(folder)


def _in_json(value: bytes) -> bytes:
    return json.dumps(value.decode("utf-8", "surrogateescape"), ensure_ascii=False)[1:-1].encode()


def _rewritten(raw: bytes, rel: str, hashes: dict[str, str]) -> bytes:
    try:
        line = json.loads(raw)
    except ValueError:
        return raw
    if not isinstance(line, dict) or not isinstance(line.get("files"), list):
        return raw
    touched = False
    for f in line["files"]:
        if not isinstance(f, dict) or rel not in (f.get("path"), f.get("source")):
            continue
        for key in ("before", "after"):
            if f.get(key) in hashes:
                f[key] = hashes[f[key]]
                f["purged"] = touched = True
    if not touched:
        return raw
    end = raw[len(raw.rstrip(b"\r\n")) :]
    return json.dumps(line, ensure_ascii=False).encode("utf-8") + end


def audit_alone(tx: Transaction) -> None:
    """The purge's own audit line when the file itself did not change (the secret was
    only in its history): no transaction commit writes one then."""
    record = {**tx.record_head(), "changes": []}
    try:  # as open as the log is now (append_at narrows it to this mode)
        mode = os.stat(os.path.join(tx.root, journal.AUDIT)).st_mode & 0o777
    except FileNotFoundError:
        mode = modes.audit_mode(tx.root, 0o600, modes.StoreMode(tx.root))
    journal.audit(tx.dirs, record, mode)
