"""`memtui purge FILE --secret N`: a secret out of a file AND out of every snapshot
memtui keeps of it in .history/ (where undo would bring it back from). Cannot be undone.

Under the one store lock, in this order: the live file and the agent's own copies of it
(Hermes' drift backups) are redacted through the Transaction (snapshot, atomic
replace, read-back, audit); then the audit log's hashes of each version that held the
secret are rewritten to the redacted version's (so undo of every other change still
finds its snapshot whole, and the purged change itself has nothing left to undo), and
each snapshot holding the value is replaced by its redacted bytes (purge_history.py).
The audit records the purge (file, kind, how many snapshots) and never the value.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.ops.common import Refused
from memtui.engine.ops.purge_history import audit_alone, scrub, snapshots
from memtui.engine.scan.redact import kinds_said, masked, placeholder, secrets_in
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.errors import WriteError, plain
from memtui.engine.write.files import read_or_none, sha256
from memtui.engine.write.transaction import Receipt, Transaction, check_path
from memtui.i18n import msg


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
        got = read_or_none(path) if os.path.isfile(path) else None
        live = "" if got is None else _text(got)
        kept = [_text(data) for _f, _n, data, _m in snapshots(dirs, rel)]
        for copy in _copies(real, rel):
            got = read_or_none(os.path.join(real, copy))
            kept += [] if got is None else [_text(got)]
    finally:
        dirs.close()
    found: list[Held] = []
    values: set[str] = set()
    for now, text in [(True, live), *((False, t) for t in kept)]:
        for s in secrets_in(text):
            value = text[s.start : s.stop]
            if value in values and not now:
                continue  # each of the file's own is listed, as `check` lists them
            values.add(value)
            count = sum(value in t for t in kept)
            line = s.first if now else None
            shown = _line_shown(text, s.start)
            found.append(Held(len(found) + 1, s.kind, line, count, shown, value))
    return found


def purge(
    root: str, rel: str, number: int, *, dry_run: bool = False, listed: list[Held] | None = None
) -> Purged:
    """Take secret `number` (held()'s numbering) out of `rel` and of every snapshot of it;
    `listed`: held(root, rel) as the caller already read it (the CLI's confirm)."""
    real = os.path.realpath(root)
    rel = check_path(real, rel)
    listed = held(real, rel) if listed is None else listed
    if not 1 <= number <= len(listed):
        raise Refused(
            msg(
                "{file} holds no secret {number}: `memtui purge {file}` lists {count:,}; "
                "nothing was changed",
                file=rel,
                number=number,
                count=len(listed),
            )
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
    kind = kinds_said(k for _v, k in secrets)
    details: dict[str, Any] = {"file": rel, "kind": kind}
    with Transaction(root, "purge", details=details, dry_run=dry_run) as tx:
        data = tx.read(rel)
        if expect is not None and (data is None or sha256(data) != expect):
            raise Refused(
                msg(
                    "{file} changed since it was checked; nothing was changed: check again",
                    file=rel,
                )
            )
        live = _redacted(tx, rel, data, secrets)
        copies = [c for c in _copies(tx.root, rel) if _redacted(tx, c, tx.read(c), secrets)]
        held_by = {
            name
            for _f, name, got, _m in snapshots(tx.dirs, rel)
            if any(value.encode() in got for value, _k in secrets)
        }
        # the snapshots it had before (not the one it makes), and the agent's copies
        tx.details["snapshots"] = len(held_by) + len(copies)
        receipt = tx.commit() if live or copies else None
        if not dry_run:
            try:
                if receipt is None:
                    audit_alone(tx)
                swaps = [(value.encode(), placeholder(one).encode()) for value, one in secrets]
                for path in [rel, *copies]:
                    scrub(tx.dirs, path, swaps)
            except OSError as exc:
                raise WriteError(
                    msg(
                        "the purge of {file} stopped halfway ({why}): snapshots may still hold "
                        "the value; `memtui purge {file}` lists it, purge it again",
                        file=rel,
                        why=plain(exc),
                    )
                ) from None
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
