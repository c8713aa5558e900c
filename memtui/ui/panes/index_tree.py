"""The index pane: every layout of the store as a tree, with threshold and finding badges.

Only the top of the tree is built on each snapshot; a node's children are made when it
is first expanded (a dsh store may hold 5,000 sops: they are counted, not built, and
then shown in chunks of CHUNK). Every label is a Rich Text built with `ui.safe`, since
file names, headings and descriptions are store text.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from memtui.engine.archive import ARCHIVED_EVENTS, ARCHIVED_PROFILE
from memtui.engine.layouts import registry
from memtui.engine.layouts import workspace as ws_layout
from memtui.engine.model import Finding, Section
from memtui.engine.store import Store
from memtui.ui.editing import say
from memtui.ui.messages import EditEntry, OpenFile, RunOp, ShowHistory
from memtui.ui.panes import Pane
from memtui.ui.safe import row
from memtui.ui.style import component_style, size_text

LISTED = 12  # entries a bulk archive's confirm names before "… and N more"
CHUNK = 500  # children shown under one node before they are split into ranges
LEVEL_MARK = {"error": "✖", "warning": "⚠", "info": "ℹ"}
JSON_FILES = (
    "memory-meta.json",
    "memory_stats.json",
    "maintenance-report.json",
    "file_access_stats.json",
)
COMPANION_FILES = (
    ("memory/events.md", "events.md"),
    ("memory/persona.md", "persona.md"),
    ("memory/user_profile.md", "user_profile.md"),
    ("memory/mood_state.md", "mood_state.md"),
    ("MEMORY.md", "MEMORY.md"),
    (".mood_state_aux", ".mood_state_aux"),
)
OWN_VIEWS = frozenset({"workspace", "companion", "dsh"})  # drawn here; the others from outlines
LAYOUTS = frozenset(registry())  # every layout's group is open on the first snapshot


@dataclass(slots=True)
class Node:
    """What a tree node stands for. `kids` makes its children, on first expansion."""

    key: str  # stable across snapshots: the expanded state and the cursor follow it
    label: Text
    rel: str | None = None  # the file it opens
    line: int | None = None  # 1-based
    entry: str | None = None  # entry id for `e` (edit)
    toggle: tuple[str, str] | None = None  # ("archive" | "restore", entry id) for `x`
    kids: Callable[[], list[Node]] | None = None
    filled: bool = field(default=False, compare=False)


class IndexTree(Tree[Node]):
    """The tree itself: enter opens (the pane handles NodeSelected), arrows fold."""

    DEFAULT_CSS = """
    IndexTree { height: 1fr; background: $surface; }
    IndexTree > .index--error { color: $error; text-style: bold; }
    IndexTree > .index--warning { color: $warning; }
    IndexTree > .index--info { color: $text-muted; }
    IndexTree > .index--ok { color: $success; }
    IndexTree > .index--muted { color: $text-muted; }
    IndexTree > .index--heat { color: $warning; }
    IndexTree > .index--group { text-style: bold; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *Tree.COMPONENT_CLASSES,
        "index--error",
        "index--warning",
        "index--info",
        "index--ok",
        "index--muted",
        "index--heat",
        "index--group",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open", id="index.open"),
        Binding("right", "fold(True)", "Expand", show=False),
        Binding("left", "fold(False)", "Collapse", show=False),
        Binding("home,g", "edge(False)", "First", show=False),  # as in every list
        Binding("end,G", "edge(True)", "Last", show=False),
        # space selects for a bulk archive (x) instead of Tree's fold: right/left fold
        Binding("space", "pane('toggle_select')", "Select", show=False, id="index.select"),
        Binding("asterisk", "pane('select_group')", "All", show=False, id="index.select_all"),
    ]

    def action_pane(self, action: str) -> None:
        getattr(self.query_ancestor(IndexPane), f"action_{action}")()

    def action_edge(self, last: bool) -> None:
        self.move_cursor_to_line(self.last_line if last else 0)

    def action_fold(self, expand: bool) -> None:
        node = self.cursor_node
        if node is None:
            return
        if expand and node.allow_expand and not node.is_expanded:
            node.expand()
        elif not expand and node.is_expanded:
            node.collapse()
        elif not expand and node.parent is not None and not node.parent.is_root:
            self.move_cursor(node.parent)


class IndexPane(Pane):
    """Pane 1: the store's structure. Selecting a file or section opens it in the File pane."""

    DEFAULT_CSS = """
    IndexPane { height: 1fr; }
    """  # its width is the stylesheet's (styles/memtui.tcss: #pane-index)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "history", "History", id="index.history"),
        Binding("e", "edit", "Edit", id="index.edit"),
        Binding("x", "archive", "Archive/restore", id="index.archive"),
    ]
    COMMANDS: ClassVar[list[tuple[str, str, str]]] = [
        ("Index: open the selected file", "At the selected line (enter)", "open"),
        ("Index: history of the selected file", "Its snapshots in .history (h)", "history"),
        ("Index: edit the selected entry", "Topic, fact section, sop, category, file (e)", "edit"),
        (
            "Index: archive or restore the selected entry",
            "Fact section, sop or topic; asks first (x)",
            "archive",
        ),
        ("Index: expand everything built so far", "Lazy groups stay folded", "expand_all"),
        ("Index: select / unselect", "For a bulk archive with x (space)", "toggle_select"),
        (
            "Index: select every archivable row of the group",
            "Topics, fact sections, sops… under the cursor's group; again to clear (*)",
            "select_group",
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self._first = True
        self._styles: dict[str, Style] = {}
        self.selected: dict[str, str] = {}  # node key -> entry id, for a bulk archive (x)

    def compose(self) -> ComposeResult:
        tree = IndexTree(Text("store"), id="index-tree")
        tree.show_root = False
        tree.auto_expand = False
        tree.guide_depth = 2
        tree.root.add_leaf(Text("loading…"))
        yield tree

    def restyle(self) -> None:
        """Badge colours are resolved from the theme when labels are made: make them again."""
        if self.store is not None:
            self.show_store(self.store)

    @property
    def index_tree(self) -> IndexTree:
        return self.query_one(IndexTree)

    def focus(self, scroll_visible: bool = True) -> IndexPane:
        self.index_tree.focus(scroll_visible)
        return self

    # --- building ----------------------------------------------------------------

    def show_store(self, store: Store) -> None:
        self.store = store
        tree = self.index_tree
        self._styles = {
            name: component_style(tree, f"index--{name}")
            for name in ("error", "warning", "info", "ok", "muted", "heat", "group")
        }
        expanded, cursor_key = self._remember(tree)
        scroll_y = tree.scroll_y
        builder = _Builder(store, self._styles)
        tree.clear()
        cursor: TreeNode[Node] | None = None
        for spec in builder.top():
            found = self._add(tree.root, spec, expanded, cursor_key)
            cursor = cursor or found
        self._first = False
        _ = tree.last_line  # lay the lines out now, so the cursor lands on its node's line
        tree.scroll_to(y=scroll_y, animate=False, immediate=True)
        if cursor is not None:
            tree.move_cursor(cursor)
        elif tree.cursor_line < 0 or tree.cursor_line > tree.last_line:
            tree.cursor_line = 0
        # a selection outlives a snapshot only where its row still stands, still archivable
        present = {
            spec.key: spec.toggle[1]
            for node in _built(tree)
            if (spec := node.data) is not None and _archivable(spec)
        }
        self.selected = {k: v for k, v in self.selected.items() if present.get(k) == v}
        self.refresh_bindings()

    def _remember(self, tree: IndexTree) -> tuple[set[str] | None, str | None]:
        if self._first:
            return None, None
        expanded: set[str] = set()
        stack = list(tree.root.children)
        while stack:
            node = stack.pop()
            if node.is_expanded and node.data is not None:
                expanded.add(node.data.key)
                stack.extend(node.children)
        cursor = tree.cursor_node
        return expanded, cursor.data.key if cursor is not None and cursor.data else None

    def _add(
        self,
        parent: TreeNode[Node],
        spec: Node,
        expanded: set[str] | None,
        cursor_key: str | None,
    ) -> TreeNode[Node] | None:
        """Add a node; rebuild and expand it again if it was expanded before."""
        node = parent.add(self._label(spec), data=spec, allow_expand=spec.kids is not None)
        found = node if spec.key == cursor_key else None
        # first snapshot: the layouts open; later ones: what the user had open
        again = spec.key in (LAYOUTS if expanded is None else expanded)
        if spec.kids is not None and again:
            for child in self._fill(node):
                hit = self._add(node, child, expanded, cursor_key)
                found = found or hit
            node.expand()
        return found

    def _fill(self, node: TreeNode[Node]) -> list[Node]:
        spec = node.data
        if spec is None or spec.kids is None or spec.filled:
            return []
        spec.filled = True
        return _unique(spec.key, spec.kids())

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Node]) -> None:
        self._add_children(event.node)

    def _add_children(self, node: TreeNode[Node]) -> None:
        for child in self._fill(node):
            node.add(self._label(child), data=child, allow_expand=child.kids is not None)

    def _label(self, spec: Node) -> Text:
        """The row as drawn: a selected row is marked as in the pending queue."""
        if spec.key not in self.selected:
            return spec.label
        return Text("✓ ", style=self._styles.get("ok") or "", end="") + spec.label

    def on_tree_node_selected(self, event: Tree.NodeSelected[Node]) -> None:
        event.stop()
        self._open(event.node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Node]) -> None:
        self.refresh_bindings()

    # --- actions -----------------------------------------------------------------

    def _current(self) -> Node | None:
        node = self.index_tree.cursor_node
        return node.data if node is not None else None

    def _open(self, node: TreeNode[Node]) -> None:
        spec = node.data
        if spec is not None and spec.rel is not None:
            self.post_message(OpenFile(spec.rel, spec.line))
        elif node.allow_expand:
            node.toggle()

    def action_open(self) -> None:
        node = self.index_tree.cursor_node
        if node is not None:
            self._open(node)

    def action_expand_all(self) -> None:
        self.index_tree.root.expand_all()

    def action_history(self) -> None:
        spec = self._current()
        if spec is None or spec.rel is None:
            self.app.notify("History: choose a file first", severity="warning")
            return
        self.post_message(ShowHistory(spec.rel))

    def action_edit(self) -> None:
        spec = self._current()
        if spec is None or spec.entry is None:
            self.app.notify("Edit: this node is not an entry memtui can edit", severity="warning")
            return
        self.post_message(EditEntry(spec.entry))

    # --- selection: space, *, then x archives them all -----------------------------

    def action_toggle_select(self) -> None:
        node = self.index_tree.cursor_node
        spec = node.data if node is not None else None
        if node is None or spec is None or not _archivable(spec):
            self.app.notify(
                "Select: only rows x can archive (topics, fact sections, sops…)",
                severity="warning",
            )
            return
        self._mark([node], spec.key not in self.selected)

    def action_select_group(self) -> None:
        """Every archivable row under the cursor's group; again to clear them."""
        node = self.index_tree.cursor_node
        if node is None:
            return
        group = node if node.allow_expand or node.parent is None else node.parent
        if not group.is_root and not group.is_expanded:
            self._add_children(group)
            group.expand()
        rows = [n for n in group.children if n.data is not None and _archivable(n.data)]
        if not rows:
            self.app.notify("Select: nothing here x can archive", severity="warning")
            return
        self._mark(rows, not all(n.data.key in self.selected for n in rows))  # type: ignore[union-attr]

    def _mark(self, nodes: list[TreeNode[Node]], on: bool) -> None:
        for node in nodes:
            spec = node.data
            assert spec is not None and spec.toggle is not None
            if on:
                self.selected[spec.key] = spec.toggle[1]
            else:
                self.selected.pop(spec.key, None)
            node.set_label(self._label(spec))
        self.refresh_bindings()

    def _archive_selected(self) -> None:
        """One confirm listing them, then one action (one operation for undo)."""
        from memtui.engine import ops

        entries = list(dict.fromkeys(self.selected.values()))
        root = self.store.root if self.store is not None else ""
        shown = [(entry, self._shown(entry)) for entry in entries]

        def archive_all() -> list[Any]:
            return [ops.archive(root, entry, expect=fp) for entry, fp in shown]

        listed = [f"  {e}" for e in entries[:LISTED]]
        if len(entries) > LISTED:
            listed.append(f"  … and {len(entries) - LISTED} more")
        question = (
            f"Archive these {len(entries)}? They move under archive/ and leave the index; "
            "z undoes them all.\n" + "\n".join(listed)
        )
        self.post_message(RunOp(f"archive {len(entries)} entries", archive_all, confirm=question))

    def action_archive(self) -> None:
        if self.selected:
            self._archive_selected()
            return
        spec = self._current()
        if spec is None or spec.toggle is None:
            self.app.notify(
                "Archive: choose a fact section, a sop, a topic or an archived one",
                severity="warning",
            )
            return
        verb, entry = spec.toggle
        if verb == "restore-event":
            self.app.notify(
                "Archived events are restored in the Events pane: 3, then v lists them, "
                "then x restores the highlighted one"
            )
            return
        if verb in ("archive-item", "restore-item"):
            self._pick_profile_item(verb, entry)
            return
        root = self.store.root if self.store is not None else ""
        fn = _toggle_op(root, verb, entry, self._shown(entry if verb == "archive" else spec.rel))
        if verb == "archive":
            question = (
                f"Archive {entry}? It moves under archive/ and leaves the index; "
                "press x on it there to restore it."
            )
        else:
            question = f"Restore {entry} from archive/ to where it was?"
        self.post_message(RunOp(f"{verb} {entry}", fn, confirm=question))

    def _shown(self, ref: str | None) -> str | None:
        """The fingerprint of entry `ref` (a file: `rel`) as this snapshot shows it: the
        engine refuses the action if the agent has changed it since."""
        from memtui.engine.entries import EntryNotFound, fingerprint_of, resolve

        store = self.store
        if store is None or not ref:
            return None
        try:
            entry = resolve(store, ref if ":" in ref else f"file:{ref}")
        except EntryNotFound:
            return None
        return fingerprint_of(store, entry)

    # --- profile items: x asks which one ----------------------------------------

    def _pick_profile_item(self, verb: str, category: str) -> None:
        store = self.store
        if store is None or store.companion is None:
            return
        if verb == "archive-item":
            cat = next((c for c in store.companion.profile if c.name == category), None)
            if cat is None or not cat.items:
                say(self.app, f"{category}: no items to archive", severity="warning")
                return
            shown = self._shown(f"profile:{category}")
            self._choose_item(verb, [(category, item) for item in cat.items], None, shown)
        else:
            self._read_archived_profile(store)

    @work(thread=True, exclusive=True, group="archived-profile")
    def _read_archived_profile(self, store: Store) -> None:
        from memtui.engine.archive import archived_profile

        pairs, problem = archived_profile(store)
        self.app.call_from_thread(self._choose_item, "restore-item", pairs, problem)

    def _choose_item(
        self,
        verb: str,
        pairs: list[tuple[str, str]],
        problem: str | None,
        shown: str | None = None,
    ) -> None:
        """Which item, then archive or restore it; `shown`: the category's fingerprint
        as displayed (an item is named by its text, so a restore needs none)."""
        from memtui.engine import ops
        from memtui.ui.screens.choose import ChoiceScreen

        if not pairs:
            say(self.app, problem or "no archived profile items", severity="warning")
            return
        archiving = verb == "archive-item"
        question = (
            f"Archive which item of {pairs[0][0]}? It moves to archive/memory/user_profile.md."
            if archiving
            else "Restore which item? It goes back to the end of its category."
        )
        choices = [item if archiving else f"{cat} · {item}" for cat, item in pairs]
        op = ops.archive if archiving else ops.restore
        app: Any = self.app
        root = app.root

        def picked(index: int | None) -> None:
            if index is None:
                return
            cat, item = pairs[index]
            label = f"{'archive' if archiving else 'restore'} {cat} item"
            app.confirm(
                f"{'Archive' if archiving else 'Restore'} “{item}” ({cat})?",
                lambda: app.run_op(
                    label, lambda: op(root, f"profile:{cat}", item=item, expect=shown)
                ),
            )

        app.push_screen(ChoiceScreen(question, choices), picked)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        try:
            spec = self._current()
        except Exception:  # not composed yet
            spec = None
        if action in ("edit", "archive"):
            if getattr(self.app, "read_only", False):
                return False  # hidden: nothing may change
            if action == "archive" and self.selected:
                return True
            if spec is None:
                return None
            wanted = spec.entry if action == "edit" else spec.toggle
            return True if wanted is not None else None
        if action == "history":
            return True if spec is not None and spec.rel is not None else None
        return True


def _toggle_op(root: str, verb: str, entry: str, shown: str | None) -> Callable[[], Any]:
    """The engine call for x on `entry`, refused if it is no longer as `shown`."""
    from memtui.engine import ops

    op = ops.archive if verb == "archive" else ops.restore
    return lambda: op(root, entry, expect=shown)


def _archivable(spec: Node) -> bool:
    return spec.toggle is not None and spec.toggle[0] == "archive" and bool(spec.toggle[1])


def _built(tree: Tree[Node]) -> list[TreeNode[Node]]:
    out, stack = [], list(tree.root.children)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def _unique(parent_key: str, specs: list[Node]) -> list[Node]:
    """Keys are made path-like and unique among siblings (two sections may share a name)."""
    seen: dict[str, int] = {}
    for spec in specs:
        local = spec.key
        seen[local] = seen.get(local, 0) + 1
        suffix = f"#{seen[local]}" if seen[local] > 1 else ""
        spec.key = f"{parent_key}/{local}{suffix}"
    return specs


# --- what the tree shows -----------------------------------------------------------


class _Builder:
    """Makes Node specs from one snapshot; children are closures over it (lazy)."""

    def __init__(self, store: Store, styles: dict[str, Style]) -> None:
        self.store = store
        self.styles = styles
        self.by_file: dict[str | None, list[Finding]] = defaultdict(list)
        for f in store.findings:
            self.by_file[f.file].append(f)
        self.files = frozenset(store.files)
        self.heat = store.dsh.heat if store.dsh else {}
        self.hottest = max(self.heat.values(), default=0)
        self.covered: set[str] = set()

    # labels ----------------------------------------------------------------------

    def style(self, name: str) -> Style:
        return self.styles.get(name) or Style()

    def label(self, name: str, *badges: Text | None, style: str = "") -> Text:
        text = row(name)
        if style:
            text.stylize(self.style(style))
        for badge in badges:
            if badge:
                text.append("  ")
                text.append_text(badge)
        return text

    def badge(self, text: str, level: str) -> Text:
        return Text(text, style=self.style(level), end="")

    def counts(self, findings: Iterable[Finding]) -> Text | None:
        tally: dict[str, int] = defaultdict(int)
        for f in findings:
            tally[f.level] += 1
        if not tally:
            return None
        out = Text(end="")
        for level in ("error", "warning", "info"):
            if tally.get(level):
                if out:
                    out.append(" ")
                out.append(f"{LEVEL_MARK[level]}{tally[level]}", style=self.style(level))
        return out

    def file_badges(self, rel: str) -> list[Text | None]:
        """Unreadable, findings count and read heat: what every file node shows."""
        out: list[Text | None] = []
        reason = self.store.unreadable.get(rel)
        if reason is not None:
            out.append(self.badge("unreadable", "error"))
        out.append(self.counts(f for f in self.by_file.get(rel, ()) if f.code != "unreadable"))
        reads = self.heat.get(rel)
        if reads:
            hot = self.hottest and reads * 3 >= self.hottest * 2
            out.append(self.badge(f"🔥{reads}", "heat" if hot else "muted"))
        return out

    def level_badge(self, text: str, level: str | None) -> Text:
        return self.badge(text, level or "ok")

    def entry_for(self, rel: str) -> str | None:
        return None if rel in self.store.unreadable else f"file:{rel}"

    def file(
        self,
        rel: str,
        shown: str,
        *badges: Text | None,
        entry: str | None = None,
        kids: Callable[[], list[Node]] | None = None,
        toggle: tuple[str, str] | None = None,
        last: Text | None = None,
    ) -> Node:
        self.covered.add(rel)
        label = self.label(shown, *badges, *self.file_badges(rel), last)
        return Node(f"file:{rel}", label, rel, None, entry, toggle, kids)

    def group(
        self, key: str, title: str, count: int | None, kids: Callable[[], list[Node]], *badges
    ) -> Node:
        shown = f"{title} ({count})" if count is not None else title
        return Node(key, self.label(shown, *badges, style="group"), kids=kids)

    def chunked(self, key: str, what: str, items: list[Any], make: Callable[[Any], Node]):
        """Children in ranges of CHUNK ("sops 1-500", …), each built only when expanded."""

        def kids() -> list[Node]:
            if len(items) <= CHUNK:
                return [make(item) for item in items]
            out = []
            for start in range(0, len(items), CHUNK):
                part = items[start : start + CHUNK]
                title = f"{what} {start + 1}–{start + len(part)}"
                out.append(
                    Node(
                        f"{key}-{start // CHUNK}",
                        self.label(title, style="muted"),
                        kids=functools.partial(_each, make, part),
                    )
                )
            return out

        return kids

    def findings_in(self, rel: str, first: int, last: int) -> list[Finding]:
        return [f for f in self.by_file.get(rel, ()) if f.line and first <= f.line <= last]

    # the top ---------------------------------------------------------------------

    def top(self) -> list[Node]:
        store = self.store
        out: list[Node] = []
        if store.workspace:
            out.append(Node("workspace", self.label("Workspace", style="group"), kids=self.ws()))
        if store.companion:
            out.append(Node("companion", self.label("Companion", style="group"), kids=self.cp()))
        if store.dsh:
            out.append(Node("dsh", self.label("Dsh", style="group"), kids=self.dsh()))
        out += self.outlined()
        archived = sorted(f for f in self.files if f.startswith("archive/"))
        if archived and not store.dsh:
            out.append(self.archive_group(archived))
        others = self.others()
        if others:
            out.append(
                self.group(
                    "other",
                    "Other files",
                    len(others),
                    self.chunked("other", "files", others, self.plain_file),
                )
            )
        out.append(
            Node(
                "history",
                self.label(
                    "History (.history)",
                    self.badge("h on a file", "muted"),
                    style="group",
                ),
            )
        )
        if not out[:-1]:
            out.insert(
                0,
                Node(
                    "none",
                    self.label("no known layout here (memtui demo writes a sample)", style="muted"),
                ),
            )
        return out

    def others(self) -> list[str]:
        """Files no layout node claims (worked out without building the lazy nodes)."""
        claimed: set[str] = set()
        store = self.store
        if store.workspace:
            w = store.workspace
            claimed.update((w.index_file, *ws_layout.COMPANIONS, *w.topics))
        if store.companion:
            claimed.update(rel for rel, _ in COMPANION_FILES)
        if store.dsh:
            claimed.update(("index.txt", "facts.md", ws_layout.DSH_L0, *JSON_FILES))
            claimed.update(s.file for s in store.dsh.sops)
            claimed.update(c.file for c in store.dsh.candidates)
        claimed.update(self.outline_files())
        return sorted(
            f
            for f in self.files
            if f not in claimed
            and not f.startswith("archive/")
            and not (store.dsh and f.startswith(("sops/", "pending/")))
        )

    # layouts drawn from their outline (engine: Layout.outline) ---------------------

    def outlined(self) -> list[Node]:
        """A group per layout this tree has no own view of, its rows the layout's outline."""
        layouts = registry()
        out = []
        for name, data in self.store.data.items():
            if name in OWN_VIEWS:
                continue
            items = layouts[name].outline(self.store, data)
            kids = functools.partial(self.outline_nodes, name, items)
            out.append(Node(name, self.label(name.capitalize(), style="group"), kids=kids))
        return out

    def outline_nodes(self, key: str, items: Iterable[Any]) -> list[Node]:
        return _unique(key, [self.outline_node(key, item) for item in items])

    def outline_node(self, parent: str, item: Any) -> Node:
        badges = [self.badge(text, level) for text, level in item.badges]
        entry = item.entry_id if "edit" in item.verbs else None
        verb = next((v for v in ("archive", "restore") if v in item.verbs), None)
        toggle = (verb, item.entry_id) if verb and item.entry_id else None
        children = item.children
        kids = (
            (lambda: self.outline_nodes(f"{parent}/{item.label}", children())) if children else None
        )
        if item.file:
            self.covered.add(item.file)
        return Node(item.label, self.label(item.label, *badges), item.file, item.line, entry,
                    toggle, kids)  # fmt: skip

    def outline_files(self) -> set[str]:
        """The files the outlined layouts claim: their entries' files, and what lies
        under a folder one of their top rows stands for."""
        layouts = registry()
        claimed: set[str] = set()
        for name, data in self.store.data.items():
            if name in OWN_VIEWS:
                continue
            claimed.update(e.file for e in layouts[name].entries(data, titles=False))
            tops = [i.file for i in layouts[name].outline(self.store, data) if i.file]
            claimed.update(tops)
            claimed.update(f for f in self.files if any(f.startswith(t + "/") for t in tops))
        return claimed

    def plain_file(self, rel: str) -> Node:
        return self.file(rel, rel, entry=self.entry_for(rel))

    # workspace -------------------------------------------------------------------

    def ws(self) -> Callable[[], list[Node]]:
        def kids() -> list[Node]:
            store = self.store
            w = store.workspace
            assert w is not None
            t = store.config.thresholds
            out = []
            if w.index_file in self.files:
                level = (
                    "error"
                    if w.index_lines >= t.index_block_lines
                    else "warning"
                    if w.index_lines >= t.index_warn_lines
                    else None
                )
                lines = self.level_badge(
                    f"{w.index_lines} lines · warn {t.index_warn_lines} · "
                    f"block {t.index_block_lines} · cap {ws_layout.INDEX_CAP_LINES}",
                    level,
                )
                out.append(
                    self.file(
                        w.index_file,
                        w.index_file,
                        entry=self.entry_for(w.index_file),
                        last=lines,  # long: after the findings, which stay in a narrow sidebar
                        kids=self.index_sections if w.index_sections or w.pointers else None,
                    )
                )
            if w.topics:
                findings = [f for name in w.topics for f in self.by_file.get(name, ())]
                out.append(
                    self.group(
                        "topics",
                        "topics",
                        len(w.topics),
                        self.chunked("topics", "topics", sorted(w.topics), self.topic),
                        self.counts(findings),
                    )
                )
            sections = {
                "soul.md": w.soul_sections,
                "user.md": w.user_sections,
                "agent.md": w.agent_sections,
            }
            for name in ws_layout.COMPANIONS:
                if name not in self.files:
                    continue
                extra = None
                if name == "agent.md" and w.agent_bytes is not None:
                    over = w.agent_bytes > t.agent_max_bytes
                    extra = self.level_badge(
                        f"{size_text(w.agent_bytes)}/{size_text(t.agent_max_bytes)}",
                        "warning" if over else None,
                    )
                secs = sections[name]
                out.append(
                    self.file(
                        name,
                        name,
                        extra,
                        entry=self.entry_for(name),
                        kids=functools.partial(self.sections, name, secs) if secs else None,
                    )
                )
            return out

        return kids

    def index_sections(self) -> list[Node]:
        w = self.store.workspace
        assert w is not None
        rel = w.index_file
        by_line: dict[int, list[Finding]] = defaultdict(list)
        for f in self.by_file.get(rel, ()):
            if f.line:
                by_line[f.line].append(f)
        out: list[Node] = []
        pointers = list(w.pointers)
        pointer = functools.partial(self.pointer, by_line=by_line)
        first = w.index_sections[0].span.lineno if w.index_sections else None
        out.extend(self.pointer(p, by_line) for p in pointers if first is None or p.line < first)
        for s in w.index_sections:
            lo, hi = s.span.lineno, s.span.stop
            inside = [p for p in pointers if lo < p.line <= hi]
            found = self.findings_in(rel, lo, hi)
            out.append(
                Node(
                    f"sec:{s.name}",
                    self.label(
                        f"## {s.name}", self.badge(f"→{len(inside)}", "muted"), self.counts(found)
                    ),
                    rel,
                    s.span.lineno,
                    self.entry_for(rel),
                    kids=functools.partial(_each, pointer, inside) if inside else None,
                )
            )
        return out

    def pointer(self, p: Any, by_line: dict[int, list[Finding]]) -> Node:
        codes = {f.code for f in by_line.get(p.line, ())}
        badges = []
        if "pointer-missing" in codes:
            badges.append(self.badge("missing", "error"))
        if "pointer-duplicate" in codes:
            badges.append(self.badge("duplicate", "warning"))
        if "path-escape" in codes:
            badges.append(self.badge("outside root", "error"))
        shown = f"{p.description} → {p.target}" if p.description else f"→ {p.target}"
        rel = self.store.workspace.index_file  # type: ignore[union-attr]
        return Node(f"ptr:{p.line}", self.label(shown, *badges), rel, p.line, self.entry_for(rel))

    def topic(self, name: str) -> Node:
        w = self.store.workspace
        assert w is not None
        titles = {p.target: p.description for p in reversed(w.pointers)}  # the first wins
        codes = {f.code for f in self.by_file.get(name, ())}
        badges = []
        if "topic-orphan" in codes:
            badges.append(self.badge("orphan", "warning"))
        if "topic-name" in codes:
            badges.append(self.badge("bad name", "warning"))
        title = titles.get(name)
        if title:
            badges.insert(0, self.label(title, style="muted"))
        topic_id = ws_layout.topic_id(name)
        entry = None if name in self.store.unreadable else f"topic:{topic_id}"
        return self.file(name, name, *badges, entry=entry, toggle=("archive", f"topic:{topic_id}"))

    def sections(self, rel: str, secs: Iterable[Section]) -> list[Node]:
        out = []
        for s in secs:
            found = self.findings_in(rel, s.span.lineno, s.span.stop)
            out.append(
                Node(
                    f"sec:{s.name}",
                    self.label(
                        f"## {s.name}", self.badge(f"•{len(s.items)}", "muted"), self.counts(found)
                    ),
                    rel,
                    s.span.lineno,
                    self.entry_for(rel),
                )
            )
        return out

    # companion -------------------------------------------------------------------

    def cp(self) -> Callable[[], list[Node]]:
        def kids() -> list[Node]:
            c = self.store.companion
            assert c is not None
            out = []
            for rel, shown in COMPANION_FILES:
                if rel not in self.files:
                    continue
                badges: list[Text | None] = []
                kids_of = None
                if rel == "memory/events.md":
                    real = [e for e in c.events if not e.is_sentinel]
                    opened = sum(1 for e in real if e.is_open)
                    overdue = sum(1 for f in self.by_file.get(rel, ()) if f.code == "event-overdue")
                    badges.append(self.badge(f"{len(real)} events · {opened} open", "muted"))
                    if overdue:
                        badges.append(self.badge(f"{overdue} overdue", "warning"))
                elif rel == "memory/persona.md":
                    badges.append(self.badge(f"{len(c.persona_details)} details", "muted"))
                elif rel == "memory/user_profile.md" and c.profile:
                    badges.append(self.badge(f"{len(c.profile)} categories", "muted"))
                    kids_of = self.profile
                elif rel == "memory/mood_state.md" and c.mood is not None:
                    m = c.mood
                    v = "?" if m.valence is None else f"{m.valence:+.2f}"
                    e = "?" if m.energy is None else f"{m.energy:.2f}"
                    badges.append(
                        self.badge(f"v {v} · e {e} · {len(m.snapshots)} snapshots", "muted")
                    )
                    if m.healing_guard_on:
                        badges.append(self.badge("guard on", "warning"))
                elif rel == "MEMORY.md":
                    stale = any(f.code == "unresolved-stale" for f in self.by_file.get(rel, ()))
                    if stale:
                        badges.append(self.badge("stale", "warning"))
                out.append(self.file(rel, shown, *badges, entry=self.entry_for(rel), kids=kids_of))
            return out

        return kids

    def profile(self) -> list[Node]:
        c = self.store.companion
        assert c is not None
        limit = self.store.config.thresholds.profile_category_max
        out = []
        for cat in c.profile:
            full = len(cat.items) > limit
            badges = [self.level_badge(f"{len(cat.items)}/{limit}", "warning" if full else None)]
            if cat.core:
                badges.append(self.badge("★ core", "heat"))
            out.append(
                Node(
                    f"cat:{cat.name}",
                    self.label(cat.name, *badges),
                    cat.span.file,
                    cat.span.lineno,
                    f"profile:{cat.name}",
                    ("archive-item", cat.name),  # x: which item, then archive it
                )
            )
        return out

    # dsh -------------------------------------------------------------------------

    def dsh(self) -> Callable[[], list[Node]]:
        def kids() -> list[Node]:
            d = self.store.dsh
            assert d is not None
            t = self.store.config.thresholds
            out = []
            if ws_layout.DSH_L0 in self.files:
                out.append(
                    self.file(
                        ws_layout.DSH_L0,
                        ws_layout.DSH_L0,
                        self.badge("L0 rules", "muted"),
                        entry=self.entry_for(ws_layout.DSH_L0),
                    )
                )
            if "index.txt" in self.files:
                n = d.index_lines
                level = (
                    "error" if n > t.l1_max_lines else "warning" if n >= t.l1_warn_lines else None
                )
                codes = {f.code for f in self.by_file.get("index.txt", ())}
                stale = self.badge("stale", "warning") if "index-stale" in codes else None
                out.append(
                    self.file(
                        "index.txt",
                        "index.txt",
                        self.level_badge(f"{n}/{t.l1_max_lines} lines", level),
                        stale,
                        entry=self.entry_for("index.txt"),
                    )
                )
            if "facts.md" in self.files:
                facts = sum(len(s.fact_lines) for s in d.fact_sections)
                out.append(
                    self.file(
                        "facts.md",
                        "facts.md",
                        self.badge(f"{facts} facts · {len(d.fact_sections)} sections", "muted"),
                        entry=self.entry_for("facts.md"),
                        kids=self.fact_sections if d.fact_sections else None,
                    )
                )
            if d.sops:
                out.append(
                    self.group(
                        "sops",
                        "sops",
                        len(d.sops),
                        self.chunked("sops", "sops", list(d.sops), self.sop),
                        self.counts(f for s in d.sops for f in self.by_file.get(s.file, ())),
                    )
                )
            if d.candidates:
                out.append(
                    self.group(
                        "pending",
                        "pending",
                        len(d.candidates),
                        self.chunked("pending", "candidates", list(d.candidates), self.candidate),
                        self.counts(f for c in d.candidates for f in self.by_file.get(c.file, ())),
                    )
                )
            archived = sorted(f for f in self.files if f.startswith("archive/"))
            if archived:
                out.append(self.archive_group(archived))
            for rel in JSON_FILES:
                if rel in self.files:
                    bad = any(f.code == "json-invalid" for f in self.by_file.get(rel, ()))
                    invalid = self.badge("invalid JSON", "error") if bad else None
                    out.append(self.file(rel, rel, invalid, entry=self.entry_for(rel)))
            return out

        return kids

    def fact_sections(self) -> list[Node]:
        d = self.store.dsh
        assert d is not None
        out = []
        for s in d.fact_sections:
            found = self.findings_in("facts.md", s.span.lineno, s.span.stop)
            out.append(
                Node(
                    f"fact:{s.name}",
                    self.label(
                        s.name,
                        self.badge(f"{len(s.fact_lines)} facts", "muted"),
                        self.counts(found),
                    ),
                    s.span.file,
                    s.span.lineno,
                    f"fact:{s.name}",
                    ("archive", f"fact:{s.name}"),
                )
            )
        return out

    def sop(self, sop: Any) -> Node:
        title = self.label(sop.title, style="muted") if sop.title != sop.name else None
        entry = None if sop.file in self.store.unreadable else f"sop:{sop.name}"
        return self.file(
            sop.file, sop.name, title, entry=entry, toggle=("archive", f"sop:{sop.name}")
        )

    def candidate(self, cand: Any) -> Node:
        codes = {f.code for f in self.by_file.get(cand.file, ())}
        what = self.label(f"{cand.entry_type or '?'} → {cand.target or '?'}", style="muted")
        badges: list[Text | None] = [what]
        if "pending-no-evidence" in codes:
            badges.append(self.badge("no evidence", "warning"))
        if not cand.valid:
            badges.append(self.badge("invalid", "error"))
        return self.file(cand.file, cand.id, *badges)

    def archive_group(self, archived: list[str]) -> Node:
        return self.group(
            "archive",
            "archive",
            len(archived),
            self.chunked("archive", "archived", archived, self.archived),
        )

    def archived(self, rel: str) -> Node:
        toggle = None
        name = rel[len("archive/") :]
        if name.startswith("sops/") and name.endswith(".md") and name.count("/") == 1:
            toggle = ("restore", f"sop:{name[5:-3]}")
        elif name.startswith("facts/") and name.endswith(".md") and name.count("/") == 1:
            toggle = ("restore", f"fact:{name[6:-3]}")
        elif "/" not in name and ws_layout.TOPIC_LIKE.fullmatch(name):
            toggle = ("restore", f"topic:{ws_layout.topic_id(name)}")
        elif name.startswith("rejected/") and name.endswith(".md") and name.count("/") == 1:
            toggle = ("restore", f"pending:{name[9:-3]}")  # back to pending/
        elif rel == ARCHIVED_PROFILE:
            toggle = ("restore-item", "")  # x: which archived item, then restore it
        elif rel == ARCHIVED_EVENTS:
            toggle = ("restore-event", "")  # restored from the Events pane
        return self.file(rel, name, entry=self.entry_for(rel), toggle=toggle)


def _each(make: Callable[[Any], Node], items: Iterable[Any]) -> list[Node]:
    return [make(item) for item in items]
