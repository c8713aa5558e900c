"""The workspace layout's outline: memory.md with its size against the thresholds, its
sections and pointers (missing, duplicate, outside the root marked), the topics, and
soul/user/agent.md with their sections (agent.md's size against its limit)."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, OutlineItem, Section
from memtui.engine.outline import Badge, Rows, chunked, each, size_text, tally
from memtui.i18n import msg
from memtui.layouts.workspace.model import Pointer, Workspace
from memtui.layouts.workspace.parse import COMPANIONS, INDEX_CAP_LINES, topic_id

if TYPE_CHECKING:
    from memtui.engine.store import Store

POINTER_BADGES = (
    ("pointer-missing", (msg("missing"), "error")),
    ("pointer-duplicate", (msg("duplicate"), "warning")),
    ("path-escape", (msg("outside root"), "error")),
)
TOPIC_BADGES = (
    ("topic-orphan", (msg("orphan"), "warning")),
    ("topic-name", (msg("bad name"), "warning")),
)


def outline(store: Store, w: Workspace) -> list[OutlineItem]:
    rows = Rows.of(store)
    t = store.config.thresholds
    out = []
    if w.index_file in rows.files:
        sections = (lambda: _index_rows(rows, w)) if w.index_sections or w.pointers else None
        out.append(rows.file(w.index_file, w.index_file, entry=rows.entry_for(w.index_file),
                             children=sections, last=_index_size(rows, w)))  # fmt: skip
    if w.topics:
        found = tally(f for name in w.topics for f in rows.by_file.get(name, ()))
        titles = {p.target: p.description for p in reversed(w.pointers)}  # the first wins
        topics = chunked(
            "topics", msg("topics"), sorted(w.topics), lambda n: _topic(rows, titles, n)
        )
        out.append(
            rows.group("topics", msg("topics"), len(w.topics), topics, found, holds=w.topics)
        )
    sections_of = {
        "soul.md": w.soul_sections,
        "user.md": w.user_sections,
        "agent.md": w.agent_sections,
    }
    for name in COMPANIONS:
        if name not in rows.files:
            continue
        size = None
        if name == "agent.md" and w.agent_bytes is not None:
            level = "warning" if w.agent_bytes > t.agent_max_bytes else "ok"
            size = (f"{size_text(w.agent_bytes)}/{size_text(t.agent_max_bytes)}", level)
        secs = sections_of[name]
        kids = (lambda n=name, s=secs: _sections(rows, n, s)) if secs else None
        row = rows.file(name, name, size, entry=rows.entry_for(name), children=kids)
        why = msg(
            "{file} is not archived: the agent loads it at every start (e edits it)", file=name
        )
        out.append(replace(row, not_offered=why))
    return out


def _index_size(rows: Rows, w: Workspace) -> Badge:
    """memory.md's lines against its hard cap, in the level of its index-size finding
    (the thresholds' word); once that blocks it, the badge says so: `blocked · 2,038/200`."""
    size = next((f for f in rows.by_file.get(w.index_file, ()) if f.code == "index-size"), None)
    shown = f"{w.index_lines:,}/{INDEX_CAP_LINES:,}"
    if size is not None and size.level == ERROR:
        return msg("blocked · {shown}", shown=shown), ERROR
    return msg("{shown} lines", shown=shown), size.level if size is not None else "ok"


def _index_rows(rows: Rows, w: Workspace) -> tuple[OutlineItem, ...]:
    """The pointers before the first section, then each section with its pointers."""
    rel = w.index_file
    codes: dict[int, set[str]] = defaultdict(set)
    for f in rows.by_file.get(rel, ()):
        if f.line:
            codes[f.line].add(f.code)
    pointers = list(w.pointers)
    first = w.index_sections[0].span.lineno if w.index_sections else None
    pointer = functools.partial(_pointer, rows, rel, codes)
    out = [pointer(p) for p in pointers if first is None or p.line < first]
    for s in w.index_sections:
        lo, hi = s.span.lineno, s.span.stop
        inside = [p for p in pointers if lo < p.line <= hi]
        kids = each(pointer, inside) if inside else None
        out.append(
            rows.row(
                f"## {s.name}",
                (f"→{len(inside):,}", "muted"),
                tally(rows.findings_in(rel, lo, hi)),
                key=f"sec:{s.name}",
                file=rel,
                line=lo,
                entry=rows.entry_for(rel),
                children=kids,
            )
        )
    return tuple(out)


def _pointer(rows: Rows, rel: str, codes: dict[int, set[str]], p: Pointer) -> OutlineItem:
    badges = [badge for code, badge in POINTER_BADGES if code in codes.get(p.line, ())]
    shown = f"{p.description} → {p.target}" if p.description else f"→ {p.target}"
    return rows.row(shown, *badges, key=f"ptr:{p.line}", file=rel, line=p.line,
                    entry=rows.entry_for(rel))  # fmt: skip


def _topic(rows: Rows, titles: dict[str, str], name: str) -> OutlineItem:
    codes = rows.codes(name)
    title = titles.get(name)
    badges = [(title, "muted")] if title else []
    badges += [badge for code, badge in TOPIC_BADGES if code in codes]
    tid = f"topic:{topic_id(name)}"
    entry = None if name in rows.store.unreadable else tid
    return rows.file(name, name, *badges, entry=entry, verb="archive", target=tid)


def _sections(rows: Rows, rel: str, secs: Iterable[Section]) -> tuple[OutlineItem, ...]:
    return tuple(
        rows.row(
            f"## {s.name}",
            (f"•{len(s.items):,}", "muted"),
            tally(rows.findings_in(rel, s.span.lineno, s.span.stop)),
            key=f"sec:{s.name}",
            file=rel,
            line=s.span.lineno,
            entry=rows.entry_for(rel),
        )
        for s in secs
    )
