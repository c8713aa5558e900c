"""`memtui purge FILE --secret N`: a secret out of a file AND out of every snapshot
memtui keeps of it in .history/ (where undo would bring it back from). Cannot be undone.

Under the one store lock, in this order: the live file is redacted through the
Transaction (snapshot, atomic replace, read-back, audit); then the audit log's hashes
of each version that held the secret are rewritten to the redacted version's (so undo
of every other change still finds its snapshot whole, and the purged change itself has
nothing left to undo), the audit written whole first; then each snapshot holding the
value is replaced by its redacted bytes (temp file, os.replace, fsync). A crash between
leaves snapshots that still hold the value: `memtui purge FILE` lists it again, and
purging it again finishes. The audit records the purge (file, kind, how many
snapshots) and never the value.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.ops.common import Refused
from memtui.engine.scan.redact import MASK, masked, placeholder, secrets_in
from memtui.engine.write import journal
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import Unsafe
from memtui.engine.write.files import read_at, read_or_none, sha256, unlink_quietly, write_new
from memtui.engine.write.transaction import HISTORY, Receipt, Transaction, check_path, who

_TEMP = ".purging"  # a snapshot's replacement, before os.replace (a crash's leftover is removed)


@dataclass(frozen=True)
class Held:
    """One secret FILE holds now or held in a snapshot: numbered as `purge` lists them."""

    number: int
    kind: str
    line: int | None  # where it is in the file now (None: only in its history)
    snapshots: int  # how many snapshots of the file hold it
    shown: str  # its line, the value masked
    value: str = field(repr=False)  # never printed, never written to the log

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "line": self.line,
            "snapshots": self.snapshots,
            "shown": self.shown,
        }


@dataclass(frozen=True)
class Purged:
    file: str
    kind: str
    live: bool  # the file itself held it (and was redacted)
    snapshots: int  # snapshots rewritten
    receipt: Receipt | None  # the live file's change
    dry_run: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "kind": self.kind,
            "live": self.live,
            "snapshots": self.snapshots,
            "dry_run": self.dry_run,
            "txid": self.receipt.txid if self.receipt else None,
        }


def _snapshots(dirs: Dirs, rel: str) -> Iterator[tuple[int, str, bytes, int]]:
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


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape").removeprefix("\ufeff")


def _line_shown(text: str, start: int) -> str:
    begin = text.rfind("\n", 0, start) + 1
    stop = text.find("\n", start)
    line = masked(text[begin : len(text) if stop == -1 else stop].rstrip("\r"))
    return line if len(line) <= 100 else line[:99] + "…"


def _copies(root: str, rel: str) -> list[str]:
    """The agent's own copies of rel beside it (Detection.history_of: Hermes' `.bak.<t>`)."""
    from memtui.engine.layouts import detectors

    return [path for det in detectors().values() for path, _when in det.history_of(root, rel)]


def held(root: str, rel: str) -> list[Held]:
    """The secrets of `rel`: those in the file now first, in order (as `check` numbers
    them), then those only its snapshots (memtui's, and its agent's own copies) still
    hold, oldest snapshot first."""
    real = os.path.realpath(root)
    rel = check_path(real, rel)
    dirs = Dirs(real)
    try:
        path = os.path.join(real, rel)
        live = _text(open(path, "rb").read()) if os.path.isfile(path) else ""  # noqa: SIM115
        kept = [_text(data) for _f, _n, data, _m in _snapshots(dirs, rel)]
        for copy in _copies(real, rel):
            got = read_or_none(os.path.join(real, copy))
            kept += [] if got is None else [_text(got)]
    finally:
        dirs.close()
    found: dict[str, Held] = {}
    for source, text in [(None, live), *((n, t) for n, t in enumerate(kept))]:
        for s in secrets_in(text):
            value = text[s.start : s.stop]
            if value in found:
                continue
            count = sum(value in t for t in kept)
            line = s.first if source is None else None
            shown = _line_shown(text, s.start)
            found[value] = Held(len(found) + 1, s.kind, line, count, shown, value)
    return list(found.values())


def purge(root: str, rel: str, number: int, *, dry_run: bool = False) -> Purged:
    """Take secret `number` (held()'s numbering) out of `rel` and of every snapshot of it."""
    real = os.path.realpath(root)
    rel = check_path(real, rel)
    listed = held(real, rel)
    if not 1 <= number <= len(listed):
        raise Refused(
            f"{rel} holds no secret {number}: `memtui purge {rel}` lists "
            f"{len(listed):,}; nothing was changed"
        )
    secret = listed[number - 1]
    return purge_values(real, rel, [(secret.value, secret.kind)], dry_run=dry_run)


def purge_values(
    root: str,
    rel: str,
    secrets: list[tuple[str, str]],
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Purged:
    """Each (value, kind) out of `rel` and out of every snapshot of it, as purge() does;
    `expect`: the sha256 of the file as the user saw it (a finding's fix), else refused."""
    kind = " and ".join(dict.fromkeys(k for _v, k in secrets))
    details: dict[str, Any] = {"file": rel, "kind": kind}
    with Transaction(root, "purge", details=details, dry_run=dry_run) as tx:
        data = tx.read(rel)
        if expect is not None and (data is None or sha256(data) != expect):
            raise Refused(f"{rel} changed since it was checked; nothing was changed: check again")
        live = _redacted(tx, rel, data, secrets)
        copies = [c for c in _copies(tx.root, rel) if _redacted(tx, c, tx.read(c), secrets)]
        held_by = {
            name
            for _f, name, got, _m in _snapshots(tx.dirs, rel)
            if any(value.encode() in got for value, _k in secrets)
        }
        # the snapshots it had before (not the one it makes), and the agent's copies
        tx.details["snapshots"] = len(held_by) + len(copies)
        receipt = tx.commit() if live or copies else None
        if not dry_run:
            if receipt is None:
                _audit_alone(tx, details={**tx.details})
            for value, one in secrets:
                for path in [rel, *copies]:
                    _scrub(tx.dirs, path, value.encode(), placeholder(one).encode())
    return Purged(rel, kind, live, len(held_by) + len(copies), receipt, dry_run)


def _redacted(
    tx: Transaction, rel: str, data: bytes | None, secrets: list[tuple[str, str]]
) -> bool:
    """Plan rel with each value replaced by its placeholder; whether it held any."""
    new = data
    for value, kind in secrets:
        if new is not None:
            new = new.replace(value.encode(), placeholder(kind).encode())
    if new is None or new == data:
        return False
    tx.write(rel, new)
    return True


def _scrub(dirs: Dirs, rel: str, value: bytes, to: bytes) -> None:
    """Every snapshot of rel that holds `value` rewritten with `to` in its place, the audit
    log's hashes of those versions first. Under the caller's lock."""
    changed: list[tuple[int, str, bytes, int]] = []
    hashes: dict[str, str] = {}
    for folder, name, data, mode in _snapshots(dirs, rel):
        if value in data:
            new = data.replace(value, to)
            changed.append((folder, name, new, mode))
            hashes[sha256(data)] = sha256(new)
    _rewrite_audit(dirs, rel, hashes, value, to)
    for folder, name, new, mode in changed:
        write_new(folder, name + _TEMP, new, mode & 0o777)
        os.replace(name + _TEMP, name, src_dir_fd=folder, dst_dir_fd=folder)
        os.fsync(folder)


def _rewrite_audit(dirs: Dirs, rel: str, hashes: dict[str, str], value: bytes, to: bytes) -> None:
    """The audit's `before`/`after` of rel that name a purged version name its redacted
    one, marked `purged`; any other line kept byte for byte. Written whole, atomically."""
    folder = dirs.own(HISTORY, create=False)
    got = None if folder is None else read_at(folder, "audit.jsonl", journal.AUDIT)
    if folder is None or got is None:
        return
    data, mode = got
    lines = data.splitlines(keepends=True)
    escaped = json.dumps(value.decode("utf-8", "surrogateescape"), ensure_ascii=False)[1:-1]
    out = []
    for raw in lines:
        new = _rewritten(raw, rel, hashes)
        if escaped and escaped.encode() in new:  # the value itself: never in the log
            new = new.replace(escaped.encode(), to)
        out.append(new)
    rewritten = b"".join(out)
    if rewritten == data:
        return
    write_new(folder, "audit.jsonl" + _TEMP, rewritten, mode & 0o777)
    os.replace("audit.jsonl" + _TEMP, "audit.jsonl", src_dir_fd=folder, dst_dir_fd=folder)
    os.fsync(folder)


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


def _audit_alone(tx: Transaction, details: dict[str, Any]) -> None:
    """The purge's own audit line when the file itself did not change (the secret was
    only in its history): no transaction commit writes one then."""
    import datetime as dt

    from memtui.engine.write import modes

    record = {
        "txid": tx.txid,
        "opid": tx.opid,
        "op": tx.op,
        "who": who(),
        "time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "details": details,
        "changes": [],
    }
    try:  # as open as the log is now (append_at narrows it to this mode)
        mode = os.stat(os.path.join(tx.root, journal.AUDIT)).st_mode & 0o777
    except FileNotFoundError:
        mode = modes.audit_mode(tx.root, 0o600, modes.StoreMode(tx.root))
    journal.audit(tx.dirs, record, mode)


__all__ = ["MASK", "Held", "Purged", "held", "purge"]
