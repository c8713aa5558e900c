"""The app renders what the engine hands it: no module of memtui/ui imports the layouts'
registry or a layout package (memtui/layouts), the mood chart included (it draws the
engine's Mood)."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "memtui" / "ui"
ALLOWED: set[str] = set()  # none: every pane draws engine model objects
LAYOUTS = ("memtui.engine.layouts", "memtui.layouts")


def layout_imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(LAYOUTS):
            found.append(node.module or "")
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith(LAYOUTS)]
    return found


def test_no_ui_module_imports_a_layout_module():
    offenders = {
        rel: mods
        for path in sorted(UI.rglob("*.py"))
        if (rel := path.relative_to(UI).as_posix()) not in ALLOWED
        and (mods := layout_imports(path))
    }
    assert offenders == {}


# What a pane may ask of the app directly: post its wishes up (ui.messages), hand a
# worker thread's result back, watch the theme. The rest goes up as a typed message.
APP_CALLS = {"post_message", "call_from_thread"}
APP_CALLS_PENDING: set[str] = set()  # every pane talks up with messages now


def _is_self_app(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "app"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def app_uses(path: Path) -> list[str]:
    """Each use of `self.app` beyond APP_CALLS, as `line: what`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and _is_self_app(node.value):
            if node.attr not in APP_CALLS:
                found.append(f"{node.lineno}: self.app.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("getattr", "hasattr") and any(map(_is_self_app, node.args)):
                found.append(f"{node.lineno}: {node.func.id}(self.app, ...)")
        elif isinstance(node, ast.Assign | ast.AnnAssign) and _is_self_app(node.value):
            found.append(f"{node.lineno}: self.app kept in a name")  # it would hide calls
    return sorted(found, key=lambda use: int(use.partition(":")[0]))


def test_panes_talk_up_with_messages_not_through_the_app():
    offenders = {
        rel: uses
        for path in sorted((UI / "panes").glob("*.py"))
        if (rel := path.relative_to(UI).as_posix()) not in APP_CALLS_PENDING
        and (uses := app_uses(path))
    }
    assert offenders == {}


def test_screens_are_handed_what_they_need_not_probing_the_app():
    """Screens may use Textual's own app API (suspend, exit, key display), but what the
    shell decides, such as read-only, is passed in: never read by getattr."""
    offenders = {
        path.name: probes
        for path in sorted((UI / "screens").glob("*.py"))
        if (probes := [u for u in app_uses(path) if "(self.app, ...)" in u])
    }
    assert offenders == {}


def test_the_pane_rule_sees_each_way_round_it(tmp_path: Path):
    """The checker itself: a call, a getattr, an alias are each caught."""
    pane = tmp_path / "pane.py"
    pane.write_text(
        "class P:\n"
        "    def a(self):\n"
        "        self.app.run_op('x', f)\n"
        "        getattr(self.app, 'read_only', False)\n"
        "        app = self.app\n"
        "        self.app.post_message(m)\n",
        encoding="utf-8",
    )
    assert app_uses(pane) == [
        "3: self.app.run_op",
        "4: getattr(self.app, ...)",
        "5: self.app kept in a name",
    ]


def test_the_pending_pane_knows_queues_not_the_layouts_behind_them():
    """Every layout's queue, dsh's candidates included, reaches it as engine.queue items,
    never by name; it imports no layout package and builds no engine call: its changes
    go up as ApproveItems and RejectItems (ui/approving.py runs them)."""
    from memtui.engine.layouts import names

    modules = [*sorted((UI / "panes").glob("pending*.py")), UI / "panes" / "queued.py"]
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert not [n for n in names() if n in text.lower()], path.name
        assert "memtui.layouts" not in text and "RunOp" not in text, path.name
    assert len((UI / "panes" / "pending.py").read_text(encoding="utf-8").splitlines()) < 400


def test_no_pane_builds_an_engine_call() -> None:
    """A pane posts what the user wants (ChangeEntries, ApproveItems, RejectItems, ...),
    never a closure over an engine call (RunOp): the shell hands a wish to the engine."""
    panes = UI / "panes"
    offenders = sorted(
        path.name for path in panes.glob("*.py") if "RunOp" in path.read_text(encoding="utf-8")
    )
    assert offenders == []
