"""The help page (`?`): every key active where the user was, what each pane shows,
the keys of the editor and history screens, and the command palette.

The keys are read from the live bindings (the app's, the screen's and the
focused widget's, with a keymap applied), so the page never goes stale.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widgets import Static, TextArea

from memtui.i18n import N_, _
from memtui.ui.panes.registry import PANES
from memtui.ui.screens.page import PageScreen
from memtui.ui.style import component_style
from memtui.ui.widgets.footer import Footer

# The panes as the registry declares them: key, title, what each shows.
PANE_HELP = tuple((spec.key, spec.title, spec.about) for spec in PANES)

SAFETY = N_(
    "Every change memtui makes goes through one transaction: it takes the store lock "
    "(.memory.lock, shared with the agent), checks the file is still what you saw, keeps the old "
    "version in .history/, writes, reads back and logs an audit line. If the agent changed the "
    "same thing meanwhile, nothing is written and you are told. Any change can be undone from "
    "a file's history."
)


class HelpScreen(PageScreen[None]):
    """A readable page of keys; escape or q closes it."""

    DEFAULT_CSS = """
    HelpScreen #help-scroll { height: 1fr; padding: 0 2; }
    HelpScreen #help-text { width: 1fr; }
    HelpScreen > .help--heading { color: $accent; text-style: bold; }
    HelpScreen > .help--key { color: $secondary; text-style: bold; }
    HelpScreen > .help--muted { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"help--heading", "help--key", "help--muted"}
    BINDINGS = [
        Binding("escape,q", "close", N_("Close"), id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text(_("memtui help")), id="help-title", classes="page-title")
        with VerticalScroll(id="help-scroll"):
            yield Static(id="help-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-text", Static).update(self.page())
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    # --- the page -----------------------------------------------------------------

    @property
    def beneath(self) -> Screen[object] | None:
        """The screen the user was on when they asked for help."""
        stack = self.app.screen_stack
        if self in stack:
            index = stack.index(self)
            return stack[index - 1] if index > 0 else None
        return stack[-1] if stack and stack[-1] is not self else None

    def page(self) -> Text:
        out = Text(end="")
        under = self.beneath
        if under is not None:
            self._keys_where_you_were(out, under)
        self._panes(out, under)
        self._other_screens(out)
        self._add_heading(out, _("Command palette"))
        out.append("  ctrl+p  ", style=self._look("key"))
        out.append(
            _(
                "lists every action by name (maintenance, rebuilding the index, refreshing the "
                "unresolved block, and each pane's commands); type to filter, enter runs it."
            )
            + "\n"
        )
        self._add_heading(out, _("Safety"))
        out.append(f"  {_(SAFETY)}\n", style=self._look("muted"))
        return out

    def _keys_where_you_were(self, out: Text, under: Screen[object]) -> None:
        groups: dict[int, tuple[DOMNode, list[tuple[Binding, bool]]]] = {}
        for active in under.active_bindings.values():
            if not active.binding.description:
                continue
            node = active.node
            _node, bindings = groups.setdefault(id(node), (node, []))
            bindings.append((active.binding, active.enabled))
        app_group = groups.pop(id(self.app), None)
        for node, bindings in groups.values():
            self._add_heading(out, _("Keys in {where}").format(where=self._where(node)))
            self._add_bindings(out, bindings)
        if app_group is not None:
            self._add_heading(out, _("Keys everywhere"))
            self._add_bindings(out, app_group[1])

    def _panes(self, out: Text, under: Screen[object] | None) -> None:
        from memtui.ui.panes import Pane

        panes = {p.id: p for p in under.query(Pane)} if under is not None else {}
        self._add_heading(out, _("Panes"))
        for number, (key, title, what) in enumerate(PANE_HELP, 1):
            out.append(f"  {number}  ", style=self._look("key"))
            out.append(_("{title}: ").format(title=_(title)), style="bold")
            out.append(f"{_(what)}\n")
            pane = panes.get(f"pane-{key}")
            if pane is not None:
                found = [(b, True) for _key, b in _bindings_of(pane) if b.description]
                if found:
                    self._add_bindings(out, found, indent="       ")

    def _other_screens(self, out: Text) -> None:
        from memtui.ui.screens.edit import EditScreen
        from memtui.ui.screens.history import HistoryScreen

        self._add_heading(out, _("Editing an entry"))
        out.append(
            "  "
            + _(
                "The entry's exact text in an editor; nothing is locked while you type. If the "
                "agent changed the same entry meanwhile, saving stops and shows both versions."
            )
            + "\n",
            style=self._look("muted"),
        )
        # the buffer takes a key that types a character before the screen's binding does
        declared = _declared(EditScreen.BINDINGS)
        self._add_bindings(out, [(b, True) for b in declared if not _types(b)])
        read_only = [(b, True) for b in declared if _types(b)]
        self._add_bindings(out, read_only, note=_(" (when the text is read-only)"))
        self._add_heading(out, _("A file's history"))
        out.append(
            "  "
            + _("Snapshots newest first; the highlighted one's diff against the file now.")
            + "\n",
            style=self._look("muted"),
        )
        self._add_bindings(out, [(b, True) for b in _declared(HistoryScreen.BINDINGS)])
        out.append("  enter        ", style=self._look("key"))
        out.append(_("Roll back (same as r)") + "\n")

    def _add_bindings(
        self,
        out: Text,
        bindings: Iterable[tuple[Binding, bool]],
        indent: str = "  ",
        note: str = "",
    ) -> None:
        merged: dict[tuple[str, str], list[str]] = {}
        enabled: dict[tuple[str, str], bool] = {}
        for binding, on in bindings:
            name = (binding.action, binding.description)
            shown = self.app.get_key_display(binding)
            if shown not in merged.setdefault(name, []):
                merged[name].append(shown)
            enabled[name] = enabled.get(name, False) or on
        for name, keys in merged.items():
            label = ", ".join(keys)
            out.append(f"{indent}{label:<12} ", style=self._look("key"))
            dim = "" if enabled[name] else _(" (not available now)")
            out.append(f"{_(name[1])}{note}{dim}\n")

    def _add_heading(self, out: Text, title: str) -> None:
        out.append(f"\n{title}\n", style=self._look("heading"))

    def _look(self, name: str) -> Style:
        return component_style(self, f"help--{name}")  # $text-muted keeps its alpha

    def _where(self, node: DOMNode) -> str:
        if isinstance(node, Screen):
            return _("this screen")
        if isinstance(node, TextArea):
            return _("the editor (focused)")
        for key, title, _about in PANE_HELP:
            if node.id == f"pane-{key}":
                return _("the {title} pane").format(title=_(title))
        for ancestor in node.ancestors:
            for key, title, _about in PANE_HELP:
                if ancestor.id == f"pane-{key}":
                    return _("the {title} pane's list (focused)").format(title=_(title))
        name = getattr(node, "HELP_NAME", None)
        return _(name) if name else _("the focused list")


def _types(binding: Binding) -> bool:
    """A key that types a character: a focused text field takes it, unless the binding
    has priority (in the editor, q types q). Textual's own rule for the live keys
    (Screen.active_bindings, through the focused widget's _check_consume_key)."""
    char = key_to_character(binding.key)
    return not binding.priority and char is not None and char.isprintable()


def _declared(bindings: Iterable[BindingType]) -> list[Binding]:
    return [b for _key, b in BindingsMap(bindings)]


def _bindings_of(node: DOMNode) -> list[tuple[str, Binding]]:
    """A node's bindings, one a key, with the app's keymap applied."""
    return list(node._bindings)
