"""The store as one outline: a group per layout (its rows from `Layout.outline`), the
archive when no layout shows it, and the files no layout claims. Plain data: the app's
tree draws it without knowing a layout.

Rows are made lazily: a group's children are built when it is opened, and more than
CHUNK of them are split into ranges ("sops 1–500", ...), each built when opened.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from memtui.engine.layouts import layout
from memtui.engine.model import Finding, OutlineItem
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.store import Store

CHUNK = 500  # children shown under one row before they are split into ranges
ARCHIVE = "archive"
LEVELS = ("error", "warning", "info")
MARK = {"error": "✖", "warning": "⚠", "info": "ℹ"}

Badge = tuple[str, str]
Kids = Callable[[], tuple[OutlineItem, ...]]
T = TypeVar("T")


def store_outline(store: Store) -> list[OutlineItem]:
    """The snapshot's outline, made once per snapshot (see Store.derived): read, never
    changed, by its callers."""
    return store.derived("outline", lambda: _outline(store))


def _outline(store: Store) -> list[OutlineItem]:
    from memtui.engine.layouts import registry

    layouts = registry()
    rows = Rows.of(store)
    out: list[OutlineItem] = []
    tops: list[OutlineItem] = []
    claimed: set[str] = set()
    for name, data in store.data.items():
        items = tuple(layouts[name].outline(store, data))
        tops += items
        if not any(i.holds for i in items):  # no group names its files: its entries do
            claimed.update(e.file for e in layouts[name].entries(data, titles=False, events=False))
        out.append(
            OutlineItem(name.capitalize(), key=name, style="group", children=lambda i=items: i)
        )
    archived = sorted(f for f in store.files if f.startswith(ARCHIVE + "/"))
    if archived and not any(t.folder == ARCHIVE for t in tops):
        out.append(archive_group(rows, archived))
    folders = tuple(f"{p}/" for t in tops for p in (t.file, t.folder) if p)
    claimed.update(t.file for t in tops if t.file)
    claimed.update(f for t in tops for f in t.holds)
    others = [
        f
        for f in sorted(store.files)
        if f not in claimed and not f.startswith((ARCHIVE + "/", *folders))
    ]
    if others:
        out.append(
            rows.group(
                "other",
                msg("Other files"),
                len(others),
                chunked("other", msg("files"), others, rows.plain),
            )
        )
    return out


def chunked(key: str, what: str, items: Sequence[T], make: Callable[[T], OutlineItem]) -> Kids:
    """Children in ranges of CHUNK ("sops 1–500", ...), each built only when opened."""

    def kids() -> tuple[OutlineItem, ...]:
        if len(items) <= CHUNK:
            return tuple(make(item) for item in items)
        out = []
        for start in range(0, len(items), CHUNK):
            part = items[start : start + CHUNK]
            out.append(
                OutlineItem(
                    msg(
                        "{what} {first:,}–{last:,}",
                        what=what,
                        first=start + 1,
                        last=start + len(part),
                    ),
                    key=f"{key}-{start // CHUNK}",
                    style="muted",
                    children=lambda part=part: tuple(make(item) for item in part),
                )
            )
        return tuple(out)

    return kids


def tally(findings: Iterable[Finding]) -> Badge | None:
    """Findings counted by level, as one badge: ("✖1 ⚠3", "error warning")."""
    counts: dict[str, int] = defaultdict(int)
    for f in findings:
        counts[f.level] += 1
    shown = [level for level in LEVELS if counts.get(level)]
    if not shown:
        return None
    return " ".join(f"{MARK[level]}{counts[level]:,}" for level in shown), " ".join(shown)


def level_of(value: int, warn: int, block: int, *, over: bool = False) -> str:
    """ok, warning from `warn`, error from `block` (past it, with `over`)."""
    if value > block if over else value >= block:
        return "error"
    return "warning" if value >= warn else "ok"


def size_text(n: int) -> str:
    """A byte count as people read it: 812 B, 4.1 KB, 23.0 MB, in powers of 1,024 as
    the agents write theirs (Claude's "limit: 24.4KB", the workspace's 8.0 KB), and
    never "1024.0 KB"."""
    if n < 1024:
        return f"{n} B"
    value, unit = float(n), "B"
    for unit in ("KB", "MB", "GB"):  # noqa: B007  the unit the loop stops at is the one
        value /= 1024
        if value < 1023.95:
            break
    return f"{value:,.1f} {unit}"


class Rows:
    """What every layout's rows share, made once per snapshot: the findings by file,
    the read heat, and a file's row with its unreadable / findings / heat badges."""

    _last: tuple[Store, Rows] | None = None

    def __init__(self, store: Store) -> None:
        self.store = store
        self.files = frozenset(store.files)
        self.by_file: dict[str | None, list[Finding]] = defaultdict(list)
        for f in store.findings:
            self.by_file[f.file].append(f)
        self.heat: dict[str, int] = {}  # path -> reads, as a layout's agent counts them
        for name, data in store.data.items():
            self.heat.update(layout(name).heat(data))
        self.hottest = max(self.heat.values(), default=0)

    @classmethod
    def of(cls, store: Store) -> Rows:
        last = cls._last
        if last is None or last[0] is not store:
            last = cls._last = (store, cls(store))
        return last[1]

    def codes(self, rel: str) -> set[str]:
        return {f.code for f in self.by_file.get(rel, ())}

    def findings_in(self, rel: str, first: int, last: int) -> list[Finding]:
        return [f for f in self.by_file.get(rel, ()) if f.line and first <= f.line <= last]

    def entry_for(self, rel: str) -> str | None:
        return None if rel in self.store.unreadable else f"file:{rel}"

    def file_badges(self, rel: str) -> list[Badge | None]:
        out: list[Badge | None] = []
        if rel in self.store.unreadable:
            out.append((msg("unreadable"), "error"))
        out.append(tally(f for f in self.by_file.get(rel, ()) if f.code != "unreadable"))
        reads = self.heat.get(rel)
        if reads:
            hot = self.hottest and reads * 3 >= self.hottest * 2
            out.append((f"🔥{reads:,}", "heat" if hot else "muted"))
        return out

    def file(
        self,
        rel: str,
        shown: str,
        *badges: Badge | None,
        entry: str | None = None,
        children: Kids | None = None,
        verb: str | None = None,
        target: str | None = None,
        last: Badge | None = None,
    ) -> OutlineItem:
        """A file's row: `badges`, then what every file shows, then `last`."""
        return self.row(
            shown,
            *badges,
            *self.file_badges(rel),
            last,
            key=f"file:{rel}",
            file=rel,
            entry=entry,
            children=children,
            verb=verb,
            target=target,
        )

    def plain(self, rel: str) -> OutlineItem:
        return self.file(rel, rel, entry=self.entry_for(rel))

    @staticmethod
    def row(
        label: str,
        *badges: Badge | None,
        key: str = "",
        file: str | None = None,
        line: int | None = None,
        entry: str | None = None,
        children: Kids | None = None,
        verb: str | None = None,
        target: str | None = None,
        style: str = "",
    ) -> OutlineItem:
        """A row; `entry` is what `edit` opens, `verb` (archive, restore, ...) acts on
        `target`, or on `entry` when there is no target."""
        verbs = (("edit",) if entry else ()) + ((verb,) if verb else ())
        return OutlineItem(
            label,
            file=file,
            line=line,
            entry_id=entry,
            badges=tuple(b for b in badges if b and b[0]),
            verbs=verbs,
            children=children,
            key=key,
            style=style,
            target=target,
        )

    def group(
        self,
        key: str,
        title: str,
        count: int,
        children: Kids,
        *badges: Badge | None,
        folder: str | None = None,
        holds: tuple[str, ...] = (),
    ) -> OutlineItem:
        label = msg("{title} ({count:,})", title=title, count=count)
        row = self.row(label, *badges, key=key, children=children, style="group")
        return replace(row, folder=folder, holds=holds)


PREFIX = ARCHIVE + "/"


def archive_group(rows: Rows, archived: list[str]) -> OutlineItem:
    """The archive/ folder's rows: each archived file with the verb and id that
    restores it, as a layout says (Layout.restorable)."""
    kids = chunked("archive", msg("archived"), archived, lambda rel: archived_row(rows, rel))
    return rows.group("archive", msg("archive"), len(archived), kids, folder=ARCHIVE)


def restorable(rel: str) -> tuple[str, str] | None:
    """(verb, id) that x runs on archived file `rel`, or None: the first layout's say."""
    from memtui.engine.layouts import registry

    return next(filter(None, (lay.restorable(rel) for lay in registry().values())), None)


def archived_row(rows: Rows, rel: str) -> OutlineItem:
    verb, target = restorable(rel) or (None, None)
    return rows.file(rel, rel[len(PREFIX) :], entry=rows.entry_for(rel), verb=verb, target=target)


def each(make: Callable[[Any], OutlineItem], items: Iterable[Any]) -> Kids:
    listed = tuple(items)
    return lambda: tuple(make(item) for item in listed)


def book_rows(
    book: str, archived: Sequence[Any], id_of: Callable[[Any], str], label: Callable[[Any], str]
) -> list[OutlineItem]:
    """The row of a layout's archive book (`book`, engine.ops.archive_book), its records
    below it ([] when it holds none): each restores its record (x) by its id, with its
    fingerprint when several were archived under that id. A record has .text, .line."""
    if not archived:
        return []
    ids = Counter(id_of(a) for a in archived)

    def row(a: Any) -> OutlineItem:
        from memtui.engine.identity import fingerprint

        target = id_of(a) + (f"@{fingerprint(a.text)}" if ids[id_of(a)] > 1 else "")
        return OutlineItem(label(a), file=book, line=a.line, target=target, verbs=("restore",))

    kids = tuple(archived)
    return [
        OutlineItem(
            msg("archived ({n:,})", n=len(kids)),
            key="archived",  # not the label: its count changes
            file=book,
            children=lambda: tuple(row(a) for a in kids),
        )
    ]
