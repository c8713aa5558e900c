"""The claude layout's outline: MEMORY.md line by line (past the cut marked), the
memories newest first (the ones recall no longer reaches marked), the archived."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, WARNING, OutlineItem
from memtui.engine.outline import Rows, tally
from memtui.i18n import msg
from memtui.layouts.claude import rules
from memtui.layouts.claude.rules import ARCHIVE, ARCHIVED, INDEX

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.layouts.claude.layout import ClaudeData

INFO = "info"


def outline(store: Store, data: ClaudeData) -> list[OutlineItem]:
    levels: dict[tuple[str | None, int | None], str] = {}
    for f in store.findings:
        levels.setdefault((f.file, f.line), f.level)
    found = Rows.of(store).by_file
    items = []
    if data.index is not None:
        items.append(_index(data, levels, tally(found.get(INDEX, ()))))
    names = Counter(m.name or m.file for m in data.memories)
    twice = {name for name, n in names.items() if n > 1}
    all_found = tally(f for m in data.memories for f in found.get(m.file, ()))
    items.append(
        OutlineItem(
            msg("memories ({n:,})", n=len(data.memories)),
            key="memories",  # not the label: its count changes with an archive
            badges=(*_over(len(data.memories)), *([all_found] if all_found else [])),
            children=lambda: tuple(
                _memory(data, i, tally(found.get(data.memories[i].file, ())), twice)
                for i in range(len(data.memories))
            ),
        )
    )
    if data.archived:
        items.append(
            OutlineItem(
                msg("archived ({n:,})", n=len(data.archived)),
                key="archived",
                file=ARCHIVE,
                children=lambda: tuple(_archived(rel) for rel in data.archived),
            )
        )
    return items


def _index(
    data: ClaudeData,
    levels: dict[tuple[str | None, int | None], str],
    findings: tuple[str, str] | None,
) -> OutlineItem:
    cut = data.loaded
    assert cut is not None
    first = cut.first_unloaded_line
    badge = (
        msg("{line_count:,} lines", line_count=cut.line_count),
        ERROR if first else _level(cut),
    )
    seen: set[str] = set()

    def rows() -> tuple[OutlineItem, ...]:
        out = []
        for line in data.lines:
            n = line.span.lineno
            badges = []
            if first is not None and n >= first:
                badges.append((msg("not loaded"), ERROR))
            if (INDEX, n) in levels:
                badges.append((levels[(INDEX, n)], levels[(INDEX, n)]))
            eid = f"claude-index:{line.target}" if line.target not in seen else None
            seen.add(line.target or "")
            out.append(
                OutlineItem(
                    line.title,
                    file=INDEX,
                    line=n,
                    entry_id=eid,
                    badges=tuple(badges),
                    verbs=("edit",) if eid else (),
                )
            )
        return tuple(out)

    badges = (badge, findings) if findings else (badge,)
    return OutlineItem(INDEX, file=INDEX, entry_id="file:MEMORY.md", badges=badges,
                       verbs=("edit",), children=rows)  # fmt: skip


def _level(cut: rules.Cut) -> str:
    near = cut.line_count >= rules.WARN_LINES or cut.unit_count >= rules.WARN_UNITS
    return WARNING if near else "ok"


def _over(count: int) -> tuple[tuple[str, str], ...]:
    return (
        ((msg("{value:,} past recall", value=count - rules.RECALL_FILES), WARNING),)
        if count > rules.RECALL_FILES
        else ()
    )


def _memory(
    data: ClaudeData, i: int, findings: tuple[str, str] | None, twice: set[str]
) -> OutlineItem:
    """A memory's row; a name several memories share is told apart by the file's."""
    m = data.memories[i]
    badges: list[tuple[str, str]] = [
        (m.type or "no type", INFO if m.type in rules.TYPES else WARNING)
    ]
    if m.modified_at is not None:  # Claude's own stamp (metadata.modified)
        badges.append((msg("modified {date}", date=m.modified_at.date().isoformat()), INFO))
    if i >= rules.RECALL_FILES:
        badges.append((msg("not recalled"), WARNING))
    if findings:
        badges.append(findings)
    label = m.name or m.file
    return OutlineItem(
        f"{label} · {m.file}" if label in twice else label,
        key=f"file:{m.file}",
        file=m.file,
        line=1,
        entry_id=f"claude:{m.file}",
        badges=tuple(badges),
        verbs=("edit", "archive"),
    )


def _archived(rel: str) -> OutlineItem:
    name = rel[len(ARCHIVE) + 1 : -len(ARCHIVED)] if rel.endswith(ARCHIVED) else rel
    return OutlineItem(name, file=rel, entry_id=f"claude:{name}", verbs=("restore",))
