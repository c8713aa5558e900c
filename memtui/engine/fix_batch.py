"""The one transaction that quick fixes run in (engine/fixes.py): every fix of a code
at once (`memtui fix CODE`), or one. Each fix's step reads the files as the steps
before it left them, and what a refused step planned is dropped; at the end each file
is written once, so the dry run's diff is exactly what applies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memtui.engine.ops.common import Refused, current_text
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Transaction
from memtui.i18n import msg

_MOVE = object()  # a planned change's kind: rel arrives from another path


class Batch:
    """A Transaction's view for fix steps: read, write and move as on a Transaction."""

    LIKE_SIBLINGS = Transaction.LIKE_SIBLINGS

    def __init__(self, tx: Transaction) -> None:
        self.tx = tx
        self.root = tx.root
        self._disk: dict[str, bytes | None] = {}  # each file as the transaction read it
        self._planned: dict[str, tuple[Any, Any, Any]] = {}  # rel -> (data|_MOVE, mode, src)
        self._gone: set[str] = set()  # moved away

    def as_read(self, rel: str) -> bytes | None:
        """rel as it is on disk, under the lock (what the check saw, unless the agent wrote)."""
        if rel not in self._disk:
            self._disk[rel] = self.tx.read(rel)
        return self._disk[rel]

    def read(self, rel: str) -> bytes | None:
        """rel as the steps so far leave it."""
        if rel in self._gone:
            return None
        data, _mode, src = self._planned.get(rel, (None, None, None))
        if data is _MOVE:
            return self.as_read(src)
        return data if data is not None else self.as_read(rel)

    def text(self, rel: str, *, must_exist: bool = True) -> TextFile | None:
        """rel as the steps so far leave it, decoded (ops.common.current_text)."""
        return current_text(self, rel, must_exist=must_exist)  # type: ignore[arg-type]

    def write(self, rel: str, data: bytes, mode: int | None = None) -> None:
        self.as_read(rel)
        if rel in self._gone or self._planned.get(rel, (None,))[0] is _MOVE:
            raise Refused(
                msg("{rel} is moved by another fix of this run: fix them one by one", rel=rel)
            )
        before = self._planned.get(rel)
        self._planned[rel] = (data, before[1] if before else mode, None)

    def move(self, src: str, dst: str) -> None:
        self.as_read(src)
        if src in self._planned or dst in self._planned or src in self._gone:
            raise Refused(
                msg("{src} is changed by another fix of this run: fix them one by one", src=src)
            )
        self._planned[dst] = (_MOVE, None, src)
        self._gone.add(src)

    def attempt(self, step: Callable[[Batch], str]) -> str:
        """step(self), its plan kept only if it is not refused."""
        planned, gone = dict(self._planned), set(self._gone)
        try:
            return step(self)
        except Refused:
            self._planned, self._gone = planned, gone
            raise

    def flush(self) -> None:
        """Plan every change on the transaction, each file once, in the order planned."""
        for rel, (data, mode, src) in self._planned.items():
            if data is _MOVE:
                self.tx.move(src, rel)
            else:
                self.tx.write(rel, data, mode=mode)
