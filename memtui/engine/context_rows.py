"""`context` as rows a face can draw: each file's loaded lines, the cut, and what
falls past it (named), with one kind per row so no face works the cut out again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.context import context_of, unloaded
from memtui.engine.textfile import split_lines
from memtui.engine.words import dotted
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.store import Store

HEAD, LOADED, CUT, UNLOADED, NOTE = "head", "loaded", "cut", "unloaded", "note"
AGENT = "»"  # in the line-number column: a line of the agent's own words (ContextFile.agent_lines)


def context_rows(store: Store) -> list[tuple[str, str]]:
    """(kind, text) rows: a head per file, its loaded lines numbered, then the cut
    marker and the lines the agent never sees."""
    out: list[tuple[str, str]] = []
    for name, files in context_of(store).items():
        if not files:
            out.append((NOTE, msg("{name}: nothing it loads is in this store", name=name)))
        for cf in files:
            if cf.unreadable is not None:  # named with why, never left out
                out.append((HEAD, dotted([name, cf.file, msg("not readable")])))
                said = msg("──── {note}: what the agent gets of it is not shown ────", note=cf.note)
                out.append((CUT, said))
                out.append((NOTE, ""))
                continue
            n = cf.lines
            head = [name, cf.file, msg("{n:,} line", n=n) if n == 1 else msg("{n:,} lines", n=n)]
            cut = cf.first_unloaded_line
            head.append(msg("cut at line {n}", n=cut) if cf.cut else msg("loaded whole"))
            before, after = cf.agent_lines
            if before or after:
                head.append(msg("{mark} marks the agent's own words", mark=AGENT))
            out.append((HEAD, dotted(head)))
            shown = cf.text.split("\n") if cf.text else []
            width = len(str(max(len(shown), 1) + 1))
            files = shown[before : len(shown) - after]
            first = _first_line(store, cf.file, "\n".join(files))
            out += [(LOADED, f"{AGENT:>{width}}  {t}") for t in shown[:before]]
            out += [(LOADED, f"{n:>{width}}  {t}") for n, t in enumerate(files, first)]
            out += [(LOADED, f"{AGENT:>{width}}  {t}") for t in shown[len(shown) - after :]]
            if cf.cut:
                said = msg(
                    "──── the agent's cut: {note}; {unloaded} ────",
                    note=cf.note,
                    unloaded=unloaded(store, cf),
                )
                out.append((CUT, said))
                tf = store.texts.get(cf.file)
                rest = split_lines(tf.text)[cf.first_unloaded_line - 1 :] if tf else []
                start = cf.first_unloaded_line or 0
                out += [(UNLOADED, f"{n:>{width}}  {t}") for n, t in enumerate(rest, start)]
            out.append((NOTE, ""))
    return out


def _first_line(store: Store, rel: str, text: str) -> int:
    """The file line the loaded text starts on (an agent may trim blank lines first)."""
    tf = store.texts.get(rel)
    if tf is None or not text:
        return 1
    at = tf.text.find(text[:200])
    return tf.text.count("\n", 0, at) + 1 if at >= 0 else 1
