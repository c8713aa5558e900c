"""The quick fix for cut-correction (engine.cut_correction): the newer statement, past
the cut, takes the older's place above it, and leaves its own.

The older is not kept in the file: swapped past the cut it would still be memory the
agent writes after and may load again once the file shrinks, and this rule, taking the
later line for the newer, would then read it as a correction of the newer. Nor is it
archived: what a layout's archive holds and how it restores is each layout's own (an
OpenClaw workspace has none). It stays in memtui's snapshot of the file, which
`memtui undo` puts back byte for byte, as every change's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from memtui.engine.cut_correction import CODE, Correction, corrections
from memtui.engine.fixes import Fix, read_checked, where
from memtui.engine.ops.common import Refused
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.fix_batch import Batch
    from memtui.engine.model import Finding

Edit = tuple[int, int, int]  # (start, stop, length put there) in the text as it was
# the edits each run (a Batch) made so far, by file: where a later fix's offsets now are
_edits: WeakKeyDictionary[Batch, dict[str, list[Edit]]] = WeakKeyDictionary()


def plan(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    found = [c for c in corrections(store, finding.file) if c.newer.line == finding.line]
    if not found:
        raise Refused(
            msg(
                "{where}: no {code} there in this snapshot; nothing was changed: check again",
                where=where(finding),
                code=CODE,
            )
        )
    c = found[0]
    title = msg(
        "put line {newer} of {file} (past the cut) in place of line {older}, the older, which "
        "stays in memtui's history (`memtui undo`)",
        newer=c.newer.line,
        file=c.file,
        older=c.older.line,
    )
    details = {"code": CODE, "file": c.file, "older": c.older.line, "newer": c.newer.line}
    return Fix(finding, title, root, f"fix-{CODE}", lambda b: _move(b, store, c), details)


def _move(batch: Batch, store: Any, c: Correction) -> str:
    tf = read_checked(batch, store, c.file)
    done = _edits.setdefault(batch, {}).setdefault(c.file, [])
    text = tf.text
    newer = store.texts[c.file].text[c.newer.start : c.newer.stop]
    edits = [(c.older.start, c.older.stop, newer), (*c.newer.gone, "")]
    for start, stop, put in sorted(edits, reverse=True):  # the later first: no offset moves
        at, to = _now(done, start), _now(done, stop)
        text = text[:at] + put + text[to:]
    batch.write(c.file, tf.encode(text))
    done += [(start, stop, len(put)) for start, stop, put in edits]  # once planned
    return msg(
        "{file}: line {newer} put in place of line {older}",
        file=c.file,
        newer=c.newer.line,
        older=c.older.line,
    )


def _now(done: list[Edit], pos: int) -> int:
    """Where `pos` of the text as checked is once the earlier fixes of this run have
    changed the file (Refused when one of them changed the text around it)."""
    shift = 0
    for start, stop, put in done:
        if start < pos < stop:
            raise Refused(msg("an earlier fix of this run changed this line: fix them one by one"))
        if pos >= stop:
            shift += put - (stop - start)
    return pos + shift
