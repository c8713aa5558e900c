"""The index pane: the store's outline (engine.outline) as a tree. It knows no layout:
each row is an OutlineItem, drawn as its label and badges coloured by level.

Only the top of the tree is built on each snapshot; a row's children are asked of the
engine when it is first expanded (a folder may hold 5,000 entries: they are counted,
not built). Every label is a Rich Text built with `ui.safe`, since file names,
headings and descriptions are store text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from memtui.engine.model import OutlineItem
from memtui.engine.outline import CHUNK, store_outline
from memtui.engine.store import Store
from memtui.i18n import N_, _, tr
from memtui.ui.messages import EditEntry, OpenFile, Say, ShowHistory
from memtui.ui.panes import Pane
from memtui.ui.panes.tree_archive import Archiving
from memtui.ui.panes.tree_fit import Part, fit, joined, soft
from memtui.ui.safe import row
from memtui.ui.said import shown as shown_words
from memtui.ui.style import component_style

__all__ = ["CHUNK", "IndexPane", "IndexTree", "Node"]

STYLES = ("error", "warning", "info", "ok", "muted", "heat", "group")
TOGGLES = ("archive", "restore", "archive-item", "restore-item", "restore-event")
# English at import (N_), drawn translated (_draw)
HISTORY = OutlineItem(N_("History (.history)"), key="history", style="group",
                      badges=((N_("h on a file"), "muted"),))  # fmt: skip
NONE = OutlineItem(
    N_("no known layout here (memtui demo writes a sample)"), key="none", style="muted"
)
OWN_WORDS = {HISTORY.label, NONE.label, *(shown for shown, _level in HISTORY.badges)}


@dataclass(slots=True)
class Node:
    """A drawn row: its outline item and where it acts. `kids` makes its children."""

    key: str  # stable across snapshots: the expanded state and the cursor follow it
    label: Text
    rel: str | None = None  # the file it opens
    line: int | None = None  # 1-based
    entry: str | None = None  # entry id for `e` (edit)
    toggle: tuple[str, str] | None = None  # (verb, id) for `x`: archive, restore, ...
    kids: Callable[[], tuple[OutlineItem, ...]] | None = None
    filled: bool = field(default=False, compare=False)
    why: str = ""  # why e / x do nothing on it (the engine's words), said when pressed
    parts: tuple[Part, ...] = field(default=(), compare=False)  # label, badges (tree_fit)
    fitted: tuple[int, Text] | None = field(default=None, compare=False)  # (cells, label)


class IndexTree(Tree[Node]):
    """The tree itself: enter opens (the pane handles NodeSelected), arrows fold."""

    DEFAULT_CSS = """
    IndexTree {
        height: 1fr; background: $surface; scrollbar-gutter: stable; scrollbar-size-vertical: 1;
    }
    IndexTree > .index--error { color: $error; text-style: bold; }
    IndexTree > .index--warning { color: $warning; }
    IndexTree > .index--info { color: $text-muted; }
    IndexTree > .index--ok { color: $success; }
    IndexTree > .index--muted { color: $text-muted; }
    IndexTree > .index--heat { color: $warning; }
    IndexTree > .index--group { text-style: bold; }
    IndexTree.-lost > .tree--cursor, IndexTree.-lost:focus > .tree--cursor {
        background: transparent; color: $foreground; text-style: none;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *Tree.COMPONENT_CLASSES,
        *(f"index--{s}" for s in STYLES),
    }
    _sized: Size | None = None  # the size _rows_width was worked out for
    _rows_width = 0
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", N_("Open"), id="index.open"),
        Binding("right", "fold(True)", N_("Expand"), show=False),
        Binding("left", "fold(False)", N_("Collapse"), show=False),
        Binding("home,g", "edge(False)", N_("First"), show=False),  # as in every list
        Binding("end,G", "edge(True)", N_("Last"), show=False),
        # space selects for a bulk archive (x) instead of Tree's fold: right/left fold
        Binding("space", "pane('toggle_select')", N_("Select"), show=False, id="index.select"),
        Binding("asterisk", "pane('select_group')", N_("All"), show=False, id="index.select_all"),
    ]

    def action_pane(self, action: str) -> None:
        getattr(self.query_ancestor(IndexPane), f"action_{action}")()

    def render_label(self, node: TreeNode[Node], base_style: Style, style: Style) -> Text:
        """The row, shortened to fit the width left of its guides (tree_fit): the
        scrollbar's gutter is kept, so a scrollbar appearing cuts nothing."""
        text = super().render_label(node, base_style, style)
        spec = node.data
        if spec is None or not spec.parts:
            return text
        depth, up = 0, node.parent
        while up is not None and not up.is_root:
            depth, up = depth + 1, up.parent
        room = self._width() - depth * self.guide_depth
        if text.cell_len <= room or room <= 0:
            return text
        text.right_crop(len(spec.label.plain))  # what is left: the fold icon, a ✓
        room -= text.cell_len
        if spec.fitted is None or spec.fitted[0] != room:  # made once for a width
            spec.fitted = (room, fit(spec.parts, room))
        label = spec.fitted[1].copy()
        label.stylize(style)
        text.append_text(label)
        return text

    def _width(self) -> int:
        """The width rows have (the scrollbar's gutter off), worked out once a size."""
        if self._sized != self.size:
            self._sized, self._rows_width = self.size, self.scrollable_content_region.width
        return self._rows_width

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


class IndexPane(Archiving, Pane):
    """Pane 1: the store's structure. Selecting a file or section opens it in the File pane."""

    DEFAULT_CSS = """
    IndexPane { height: 1fr; }
    """  # its width is the stylesheet's (styles/memtui.tcss: #pane-index)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "history", N_("History"), id="index.history"),
        Binding("e", "edit", N_("Edit"), id="index.edit"),
        Binding("x", "archive", N_("Archive/restore"), id="index.archive"),
    ]
    COMMANDS: ClassVar[list[tuple[str, str, str]]] = [
        (N_("Index: open the selected file"), N_("At the selected line (enter)"), "open"),
        (
            N_("Index: history of the selected file"),
            N_("Its snapshots in .history (h)"),
            "history",
        ),
        (
            N_("Index: edit the selected entry"),
            N_("Topic, fact section, sop, category, file (e)"),
            "edit",
        ),
        (
            N_("Index: archive or restore the selected entry"),
            N_("Fact section, sop or topic; asks first (x)"),
            "archive",
        ),
        (
            N_("Index: expand everything built so far"),
            N_("Lazy groups stay folded"),
            "expand_all",
        ),
        (
            N_("Index: select / unselect"),
            N_("For a bulk archive with x (space)"),
            "toggle_select",
        ),
        (
            N_("Index: select every archivable row of the group"),
            N_("Topics, fact sections, sops… under the cursor's group; again to clear (*)"),
            "select_group",
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self._first = True
        self._styles: dict[str, Style] = {}
        self.selected: dict[str, str] = {}  # node key -> entry id, for a bulk archive (x)
        # the row that went away under the cursor (the agent's write), and the line the
        # cursor stays on, drawn as none, until the user moves; the row this pane changed
        self._lost: tuple[Place, int] | None = None
        self._acted: str | None = None

    def compose(self) -> ComposeResult:
        tree = IndexTree(Text("store"), id="index-tree")
        tree.show_root = False
        tree.auto_expand = False
        tree.guide_depth = 2
        tree.root.add_leaf(Text(_("loading…")))
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

    def forget(self) -> None:
        self._first, self.selected = True, {}

    def show_store(self, store: Store) -> None:
        self.store = store
        tree = self.index_tree
        self._styles = {name: component_style(tree, f"index--{name}") for name in STYLES}
        expanded, place = self._remember(tree)
        scroll_y = tree.scroll_y if not self._first else 0
        if self._first:
            tree.cursor_line = 0  # a fresh store starts at its top, not at the old row
        tree.clear()
        top = store_outline(store)
        top = [*(top or [NONE]), HISTORY]
        cursor: TreeNode[Node] | None = None
        for spec in self._specs("", top):
            found = self._add(tree.root, spec, expanded, place.key if place else None)
            cursor = cursor or found
        # its row is gone: by this pane's own archive, the cursor takes the neighbour; by
        # the agent's write, no row is current until the user moves (an id names what the
        # user saw, never a neighbour)
        gone = cursor is None and place is not None
        lost = gone and place is not None and place.key != self._acted
        if gone and not lost and place is not None:
            cursor = _neighbour(tree, place)
        self._first = False
        _lines = tree.last_line  # lay the lines out now, so the cursor lands on its node's line
        tree.scroll_to(y=scroll_y, animate=False, immediate=True)
        if cursor is not None:
            tree.move_cursor(cursor)
        elif tree.cursor_line < 0 or tree.cursor_line > tree.last_line:
            tree.cursor_line = 0
        # gone, not by this pane's own change: no row is current until the user moves
        self._lost = (place, tree.cursor_line) if lost and place is not None else None
        if gone and not lost:
            self._acted = None  # that archive's row went: spent
        tree.set_class(self._lost is not None, "-lost")
        # a selection outlives a snapshot only where its row still stands, still archivable
        present = {
            spec.key: spec.toggle[1]
            for node in _built(tree)
            if (spec := node.data) is not None and _archivable(spec)
        }
        self.selected = {k: v for k, v in self.selected.items() if present.get(k) == v}
        self.refresh_bindings()

    def _remember(self, tree: IndexTree) -> tuple[set[str] | None, Place | None]:
        if self._first:
            return None, None
        expanded = {n.data.key for n in _built(tree, open_only=True) if n.data is not None}
        if self._lost is not None:
            return expanded, self._lost[0]
        cursor = tree.cursor_node
        if cursor is None or cursor.data is None or cursor.parent is None:
            return expanded, None
        parent = cursor.parent.data.key if cursor.parent.data is not None else None
        return expanded, Place(cursor.data.key, parent, cursor.parent.children.index(cursor))

    def _add(
        self,
        parent: TreeNode[Node],
        spec: Node,
        expanded: set[str] | None,
        cursor_key: str | None,
    ) -> TreeNode[Node] | None:
        """Add a node; fill and expand it again if it was expanded before."""
        node = parent.add(self._label(spec), data=spec, allow_expand=spec.kids is not None)
        found = node if spec.key == cursor_key else None
        # first snapshot: the layouts' groups open; later ones: what the user had open
        opened = expanded if expanded is not None else self.store.data if self.store else ()
        again = spec.key in opened
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
        return self._specs(spec.key, spec.kids())

    def _specs(self, parent_key: str, items: Iterable[OutlineItem]) -> list[Node]:
        """Nodes for outline items; keys are made path-like and unique among siblings
        (two sections may share a name)."""
        seen: dict[str, int] = {}
        out = []
        for item in items:
            local = item.key or item.label
            seen[local] = seen.get(local, 0) + 1
            suffix = f"#{seen[local]}" if seen[local] > 1 else ""
            key = f"{parent_key}/{local}{suffix}" if parent_key else local
            verb = next((v for v in TOGGLES if v in item.verbs), None)
            target = item.target if item.target is not None else item.entry_id
            parts = self._draw(item)
            out.append(
                Node(
                    key,
                    joined(parts),
                    item.file,
                    item.line,
                    item.entry_id if "edit" in item.verbs else None,
                    (verb, target) if verb and target is not None else None,
                    item.children,
                    why=item.not_offered,
                    parts=parts,
                )
            )
        return out

    def _draw(self, item: OutlineItem) -> tuple[Part, ...]:
        """The label, then each badge (joined two spaces apart); a tally's words each
        in its level."""
        text = row(self._words(item.label))
        if item.style:
            text.stylize(self._style(item.style))
        out: list[Part] = [(text, True)]
        for said, level in item.badges:
            shown = self._words(said)
            levels = level.split()
            words = shown.split(" ") if len(levels) > 1 else [shown]
            badge = Text(end="", no_wrap=True)
            for i, (word, lvl) in enumerate(zip(words, levels, strict=False)):
                if i:
                    badge.append(" ")
                badge.append_text(row(word, self._style(lvl)))  # type: ignore[arg-type]
            out.append((badge, soft(shown, level)))
        return tuple(out)

    @staticmethod
    def _words(text: str) -> str:
        """This pane's own rows in the reader's language; the engine's as it made them."""
        return _(text) if text in OWN_WORDS else shown_words(text)

    def _style(self, name: str) -> Style:
        return self._styles.get(name) or Style()

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Node]) -> None:
        self._grow(event.node)

    def _grow(self, node: TreeNode[Node]) -> None:
        for child in self._fill(node):
            node.add(self._label(child), data=child, allow_expand=child.kids is not None)

    def _label(self, spec: Node) -> Text:
        """The row as drawn: a selected row is marked as in the pending queue."""
        if spec.key not in self.selected:
            return spec.label
        return Text("✓ ", style=self._style("ok"), end="") + spec.label

    def on_tree_node_selected(self, event: Tree.NodeSelected[Node]) -> None:
        event.stop()
        self._open(event.node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Node]) -> None:
        if self._lost is not None and event.node.line != self._lost[1]:
            self._lost = None  # the user moved: on a row again
            self.index_tree.remove_class("-lost")
        self.refresh_bindings()

    # --- actions -----------------------------------------------------------------

    def _current(self) -> Node | None:
        node = self.index_tree.cursor_node
        return node.data if node is not None and self._lost is None else None

    def action_archive(self) -> None:
        spec = self._current()
        self._acted = spec.key if spec is not None else None  # the row may leave: not lost
        super().action_archive()

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
            self.post_message(Say(_("History: choose a file first"), "warning"))
            return
        self.post_message(ShowHistory(spec.rel))

    def action_edit(self) -> None:
        spec = self._current()
        if spec is None or spec.entry is None:
            why = tr(spec.why) if spec is not None and spec.why else _("this row is not an entry")
            self.post_message(Say(_("Edit: {why}").format(why=why), "warning"))
            return
        self.post_message(EditEntry(spec.entry))

    # --- selection: space, *, then x archives them all -----------------------------

    def action_toggle_select(self) -> None:
        node = self.index_tree.cursor_node
        spec = node.data if node is not None else None
        if node is None or spec is None or not _archivable(spec):
            self.post_message(
                Say(_("Select: only rows x can archive (topics, fact sections, sops…)"), "warning")
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
            self._grow(group)
            group.expand()
        rows = [n for n in group.children if n.data is not None and _archivable(n.data)]
        if not rows:
            self.post_message(Say(_("Select: nothing here x can archive"), "warning"))
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        try:
            spec = self._current()
        except Exception:  # not composed yet
            spec = None
        if action in ("edit", "archive"):
            if self.read_only:
                return False  # hidden: nothing may change
            if action == "archive" and self.selected:
                return True
            if spec is None:
                return None
            wanted = spec.entry if action == "edit" else spec.toggle
            # a row saying why it has none: the key answers with that, never silently
            return True if wanted is not None or spec.why else None
        if action == "history":
            return True if spec is not None and spec.rel is not None else None
        return True


@dataclass(frozen=True, slots=True)
class Place:
    """Where the cursor was: its row, the row it is under (None: the top) and its index
    there, so that when the row is gone the cursor takes its neighbour's."""

    key: str
    parent: str | None
    index: int


def _neighbour(tree: Tree[Node], place: Place) -> TreeNode[Node] | None:
    """The row now at the gone row's index under the same parent (the one after it, or
    the last); the parent itself when it has no rows left."""
    parent: TreeNode[Node] | None = tree.root
    if place.parent is not None:
        parent = next((n for n in _built(tree) if n.data and n.data.key == place.parent), None)
    if parent is None:
        return None
    rows = parent.children if parent.is_expanded or parent.is_root else ()
    if rows:
        return rows[min(place.index, len(rows) - 1)]
    return None if parent.is_root else parent


def _archivable(spec: Node) -> bool:
    return spec.toggle is not None and spec.toggle[0] == "archive" and bool(spec.toggle[1])


def _built(tree: Tree[Node], open_only: bool = False) -> list[TreeNode[Node]]:
    """The nodes made so far (with `open_only`: the expanded ones, under expanded ones)."""
    out, stack = [], list(tree.root.children)
    while stack:
        node = stack.pop()
        if open_only and not node.is_expanded:
            continue
        out.append(node)
        stack.extend(node.children)
    return out
