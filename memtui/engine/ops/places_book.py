"""The places book, `archive/.memtui/places.jsonl`: one JSON line per archived entry,
with where its lines were (ops.places), numbered in the order of archiving; and
notes of the archive files and folders an archive created (`made`), so that a
restore that empties one removes it again and archive + restore leaves every file as
it was. A record is used once; the book goes when nothing is left in it. An archive
made before the book existed is restored as before.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from memtui.engine.config import Thresholds
from memtui.engine.ops.lines import encode, load
from memtui.engine.ops.places import Place, rows
from memtui.engine.write.transaction import Transaction

FOLDER = "archive/.memtui"  # hidden: no store scan lists it
BOOK = f"{FOLDER}/places.jsonl"


def _was(place: Place, side: str) -> Any:
    """The anchor on `side` as the archive recorded it (relink may have moved it since)."""
    return place.get(f"was_{side}", place.get(side))


_OTHER = {"above": "below", "below": "above"}


def _near(place: Place, side: str, anchors: set[Any]) -> bool:
    """The place's anchor on `side`, as recorded or as moved since, is one of `anchors`."""
    return _was(place, side) in anchors or place.get(side) in anchors


def _gap(back: Place, its: str, gap: str, other: Place, theirs: str) -> int | None:
    """The blank lines between `back` put back and the entry beside it: those `back` took
    along (`its`) and left (`gap`), less those the other one took along (`theirs`)."""
    counts = [len(back.get(its) or ()), back.get(gap), len(other.get(theirs) or ())]
    if not all(isinstance(c, int) for c in counts):
        return None
    return max(0, counts[0] + counts[1] - counts[2])


class Book:
    """The places book under one transaction: an archive adds to it (`save`); a restore
    takes from it and `settle`s it (removed, with the folders left empty, once empty)."""

    def __init__(self, tx: Transaction, limits: Thresholds) -> None:
        self.tx = tx
        self.tf = load(tx, BOOK, limits, must_exist=False)
        self.lines = rows(self.tf.text) if self.tf else []
        self.changed = False
        self.leaving: set[str] = set()  # paths this change moves away or removes

    def _records(self) -> list[tuple[int, dict[str, Any]]]:
        out = []
        for i, raw in enumerate(self.lines):
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if isinstance(record, dict):
                out.append((i, record))
        return out

    def add(self, record: dict[str, Any]) -> None:
        """A record, numbered after those in the book (`seq`: the order of archiving)."""
        if "made" not in record:
            seqs = [r.get("seq") for _, r in self._records()]
            record = {**record, "seq": max((n for n in seqs if isinstance(n, int)), default=0) + 1}
        if self.lines and not self.lines[-1].endswith("\n"):
            self.lines[-1] += "\n"
        self.lines.append(json.dumps(record, ensure_ascii=False) + "\n")
        self.changed = True

    def made(self, rel: str, *, shared: bool) -> None:
        """Note what of rel is missing before this archive writes it: its folders, and
        rel itself when it is a `shared` archive file (a moved file leaves with its
        restore anyway)."""
        parts = rel.split("/")
        noted = {r.get("made") for _, r in self._records()}
        for depth in range(1, len(parts) + (1 if shared else 0)):
            path = "/".join(parts[:depth])
            if path not in noted and not os.path.lexists(os.path.join(self.tx.root, path)):
                self.add({"made": path, "folder": depth < len(parts)})

    def take(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
        """The last record `match` accepts, and every such record out of the book."""
        found = [(i, r) for i, r in self._records() if "made" not in r and match(r)]
        if not found:
            return None
        drop = {i for i, _ in found}
        self.lines = [raw for i, raw in enumerate(self.lines) if i not in drop]
        self.changed = True
        return found[-1][1]

    def relink(self, record: dict[str, Any], back: Place) -> None:
        """`back`, a place of `record`, was put back. Entries archived after it, in a run
        right below (or above) it, had their places recorded without it: now `back` is
        their neighbour again, so entries archived one after another come back in their
        order, whichever comes back first."""
        seq = record.get("seq") if isinstance(record.get("seq"), int) else 0
        found = [
            (i, r)
            for i, r in self._records()
            if r.get("file") == record.get("file") and (r.get("seq") or seq + 1) > seq
        ]
        places = [p for _, r in found for p in (r.get("places") or [r.get("place")])]
        places = [p for p in places if isinstance(p, dict) and p is not back]
        # A run below `back` took over its anchor above, or that of a run above it
        # (archived after it too), and the other way round: grown until both hold.
        anchors = {side: {back.get(side), _was(back, side)} for side in _OTHER}
        while True:
            below = self._run(places, back, "above", anchors["above"], [])
            runs = {
                "above": below,
                "below": self._run(places, back, "below", anchors["below"], below),
            }
            grown = {
                side: anchors[side] | {_was(p, side) for p in runs[_OTHER[side]]}
                for side in anchors
            }
            if grown == anchors:
                break
            anchors = grown
        for side, run in runs.items():
            other = _OTHER[side]
            for p in run:
                p.setdefault(f"was_{side}", p.get(side))
                p[side] = back.get("last" if side == "above" else "first")
                theirs = ("lead", "trail") if side == "above" else ("trail", "lead")
                p[f"gap_{side}"] = _gap(back, theirs[1], f"gap_{other}", p, theirs[0])
        for i, record in found:
            now = json.dumps(record, ensure_ascii=False) + "\n"
            if now != self.lines[i]:
                self.lines[i] = now
                self.changed = True

    @staticmethod
    def _run(
        places: list[Place], back: Place, side: str, anchors: set[Any], taken: list[Place]
    ) -> list[Place]:
        """The places in a run beside `back` on the other side of `side` (below it, for
        "above"): each one right beside the one before, its anchor on `side` one of
        `anchors`; none of those `taken` by the run on the other side."""
        other = _OTHER[side]
        touch = "first" if side == "above" else "last"
        run: list[Place] = []
        at = back.get(other)  # (as it is now: an entry put back beside it ends the run)
        while at is not None:
            p = next(
                (
                    p
                    for p in places
                    if p.get(touch) == at
                    and _near(p, side, anchors)
                    and not any(p is q for q in taken)
                ),
                None,
            )
            if p is None or any(p is q for q in run):  # (a run never loops)
                break
            run.append(p)
            at = _was(p, other)
        return run

    def emptied(self, rel: str) -> bool:
        """rel is left empty by this change: True if an archive made it (the caller
        removes it then, and the note goes)."""
        hits = [i for i, r in self._records() if r.get("made") == rel and not r.get("folder")]
        if not hits:
            return False
        self.lines = [raw for i, raw in enumerate(self.lines) if i not in set(hits)]
        self.changed = True
        self.leaving.add(rel)
        return True

    def restored(
        self, record: dict[str, Any] | None, place: Any, archive: str, left: str
    ) -> str | None:
        """After a restore that took `record` (and put its `place` back) out of the file
        `archive`, leaving `left` there: the entries beside it follow it (relink), and
        the book settles. The archive file's new text, or None when an archive made it
        and nothing is left in it: then it goes too."""
        if record is not None and isinstance(place, dict):
            self.relink(record, place)
        gone = not left and self.emptied(archive)
        if gone:
            self.tx.remove(archive)
        self.settle()
        return None if gone else left

    def save(self) -> None:
        """An archive's records and notes, after those there were."""
        if self.changed:
            self.tx.write(BOOK, encode(self.tf, "".join(self.lines)))

    def settle(self) -> None:
        """After a restore: the book's new text, or its removal when nothing is left in
        it, and the removal of each folder an archive made that is left empty."""
        folders = [(i, r["made"]) for i, r in self._records() if r.get("folder")]
        pruned = self._empty(folders, self.leaving | {BOOK, FOLDER})
        kept = [raw for i, raw in enumerate(self.lines) if i not in pruned]
        if self.tf is not None and not any(raw.strip() for raw in kept):
            self.tx.remove(BOOK)
            for folder in [FOLDER, *pruned.values()]:
                self.tx.prune(folder)
            return
        pruned = self._empty(folders, self.leaving)  # the book stays, and its folder
        if pruned or self.changed:
            kept = [raw for i, raw in enumerate(self.lines) if i not in pruned]
            self.tx.write(BOOK, encode(self.tf, "".join(kept)))
        for folder in pruned.values():
            self.tx.prune(folder)

    def _empty(self, folders: list[tuple[int, str]], gone: set[str]) -> dict[int, str]:
        """The made folders (by their note's line) that hold nothing but what is gone
        (deepest first, so a folder holding only emptied folders goes too); a note of
        a folder that is no longer there goes as well."""
        out: dict[int, str] = {}
        for i, folder in sorted(folders, key=lambda f: -f[1].count("/")):
            try:
                names = os.listdir(os.path.join(self.tx.root, folder))
            except OSError:
                out[i] = folder
                continue
            if all(f"{folder}/{n}" in gone or f"{folder}/{n}" in out.values() for n in names):
                out[i] = folder
        return out
