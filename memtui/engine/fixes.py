"""Quick fixes for findings: a registry keyed by finding code.

A fix is planned from one finding of a store snapshot and runs as one engine
change through the one Transaction, first as a dry run (the diff to show), then
for real: the same code both times, so what applies is what was shown. It is
refused, with nothing written, if the finding's file changed since the check.

A layout adds its own fixes with `register(layout, code, planner)`; the built-in ones
(ops/fix_workspace.py, ops/fix_companion.py) register themselves on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused
from memtui.engine.write.transaction import Receipt


@dataclass(frozen=True)
class Fix:
    finding: Finding
    title: str  # what it does, in words: "add a pointer to memory_x.md in memory.md"
    run: Callable[[bool], Receipt] = field(repr=False)  # run(dry_run)
    choices: tuple[str, ...] = ()  # what the user picks among (--choose), if anything
    needs_choice: bool = False  # the fix does nothing until something is chosen
    ask: str = ""  # what to choose, in words: "the items under '爱好' to archive"


# (root, the store snapshot, the finding, what the user chose) -> the fix
Planner = Callable[[str, Any, Finding, tuple[str, ...]], Fix]

# (layout, code) -> planner: codes are shared between layouts (claude's pointer-missing
# is about MEMORY.md, the workspace's about memory.md), so a fix is its layout's only
_PLANNERS: dict[tuple[str, str], Planner] = {}
_loaded = False


def register(layout: str, code: str, planner: Planner) -> None:
    """The hook for a layout's fixes: `planner` fixes that layout's findings of `code`."""
    _PLANNERS[(layout, code)] = planner


def _builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from memtui.engine.ops import fix_companion, fix_workspace

        for layout, module in (("workspace", fix_workspace), ("companion", fix_companion)):
            for code, planner in module.FIXES.items():
                register(layout, code, planner)


def codes() -> list[str]:
    """Every finding code that has a fix."""
    _builtin()
    return sorted({code for _, code in _PLANNERS})


def fixable(finding: Finding) -> bool:
    _builtin()
    return (finding.layout or "", finding.code) in _PLANNERS


def plan(store: Any, finding: Finding, choose: tuple[str, ...] = ()) -> Fix:
    """The fix for one finding of `store` (Refused if its code has none)."""
    _builtin()
    planner = _PLANNERS.get((finding.layout or "", finding.code))
    if planner is None:
        raise Refused(
            f"no quick fix for {finding.code} ({where(finding)}); fixes exist for: "
            + ", ".join(f"{code} ({layout})" for layout, code in sorted(_PLANNERS))
        )
    return planner(store.root, store, finding, tuple(choose))


def where(f: Finding) -> str:
    if f.file is None:
        return "the store"
    return f.file if f.line is None else f"{f.file}:{f.line}"


_AT_LINE = re.compile(r"(.+):(\d+)")


def find_finding(store: Any, ref: str) -> Finding:
    """The finding `ref` names: N (the Nth that `memtui check` lists, from 1), FILE:LINE,
    FILE (a finding without a line) or a CODE (its first finding). Refused if none, or
    if FILE:LINE / FILE names more than one fixable finding."""
    found: list[Finding] = list(store.findings)
    if ref.isdigit():
        n = int(ref)
        if not 1 <= n <= len(found):
            raise Refused(f"there is no finding {n}: `memtui check` lists {len(found)}")
        return found[n - 1]
    match = _AT_LINE.fullmatch(ref)
    if match:
        hits = [f for f in found if f.file == match.group(1) and f.line == int(match.group(2))]
    else:
        hits = [f for f in found if f.code == ref] or [f for f in found if f.file == ref]
        if hits and hits[0].code == ref:
            return hits[0]  # a code: its first finding (run the fix again for the next)
    if not hits:
        raise Refused(f"no finding {ref!r} (see `memtui check`); nothing was changed")
    if len(hits) > 1:
        fixes = [f for f in hits if fixable(f)]
        if len(fixes) == 1:
            return fixes[0]
        listed = "; ".join(f"{f.code}" for f in hits)
        raise Refused(f"{ref} has {len(hits)} findings ({listed}): name one by its number")
    return hits[0]


def read_checked(tx: Any, store: Any, rel: str) -> Any:
    """The finding's file as a TextFile, under the lock, if it is as the check read it."""
    from memtui.engine.ops.common import current_text

    unchanged(tx, store, rel)
    return current_text(tx, rel)


def unchanged(tx: Any, store: Any, rel: str) -> bytes:
    """The file's bytes under the lock, Refused if they are not what the check read
    (the agent wrote it since: the finding may not hold any more)."""
    from memtui.engine.write.files import sha256

    data = tx.read(rel)
    seen = store.texts.get(rel)
    if data is None or seen is None or sha256(data) != seen.digest():
        raise Refused(
            f"{rel} changed since it was checked (the agent wrote to it?); "
            "nothing was changed: check again"
        )
    return data
