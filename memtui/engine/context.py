"""What each layout's agent loads at the start of a session (SPEC §3c)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memtui.engine.layouts import registry
from memtui.engine.model import ContextFile
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.store import Store


def context_of(store: Store) -> dict[str, list[ContextFile]]:
    """Layout name -> the files its agent is given, each with its cut."""
    layouts = registry()
    return {name: layouts[name].context(store, data) for name, data in store.data.items()}


def context_json(store: Store) -> dict[str, Any]:
    """`memtui context --json` (SPEC §3c)."""
    return {
        "root": store.root,
        "layouts": [
            {"layout": name, "files": [f.to_json() for f in files]}
            for name, files in context_of(store).items()
        ],
    }


def unloaded(store: Store, cf: ContextFile) -> str:
    """What lies past the cut, named: the first line not loaded and how many follow."""
    if cf.first_unloaded_line is None:
        return ""
    first = cf.first_unloaded_line
    if cf.last_unloaded_line is not None:
        total = cf.last_unloaded_line
    else:
        tf = store.texts.get(cf.file)
        total = tf.text.count("\n") + (0 if tf.text.endswith("\n") else 1) if tf else 0
    left = max(total - first + 1, 0)
    v = {
        "where": msg("line {n}", n=first)
        if total <= first
        else msg("lines {first} to {last}", first=first, last=total),
        "count": msg("{n:,} line", n=left) if left == 1 else msg("{n:,} lines", n=left),
    }
    if cf.last_unloaded_line is not None:
        return msg(
            "not loaded: {where} ({count}); from line {again} on, the end is loaded again",
            again=total + 1,
            **v,
        )
    return msg("not loaded: {where} ({count})", **v)
