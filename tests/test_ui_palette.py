"""The command palette, driven as a newcomer would (ctrl+p, type, enter), on real
stores: maintenance (its dry-run report, then apply), the index rebuild and the
unresolved block change the files exactly as the CLI verbs do; the palette offers
nothing that changes files when read-only, and nothing for a layout the store lacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.command import Command, CommandList, CommandPalette
from textual.pilot import Pilot

from memtui.ui.app import MemtuiApp
from memtui.ui.commands import commands
from memtui.ui.screens.confirm import ConfirmScreen
from memtui.ui.screens.report import DryRunScreen
from tests.conftest import run_cli, tree_digest, write_tree
from tests.ui_helpers import demo_store, run, until

DERIVED = ("facts.md", "index.txt", "MEMORY.md", "memory/events.md", "sops")


def stale_store(root: Path) -> Path:
    """The demo store, with what the palette commands fix: a duplicate fact, a sop the
    index does not list, an open event the unresolved block does not show."""
    demo_store(root)
    with open(root / "facts.md", "a", encoding="utf-8") as f:
        f.write("\n## Palette test\n- the same fact twice\n- the same fact twice\n")
    (root / "sops" / "palette-new-sop.md").write_text("# A sop the index lacks\n")
    with open(root / "memory" / "events.md", "a", encoding="utf-8") as f:
        f.write(
            "\n### [E950] 2026-11-28 · 用户Todo\n**类型**：用户Todo\n"
            "**内容**：palette test todo\n**状态**：待跟进\n**到期日**：2026-10-01\n"
        )
    return root


def derived(root: Path) -> dict[str, str]:
    """The files these commands write, minus timestamps (reports and stats are dated)."""
    return {k: v for k, v in tree_digest(root).items() if k.startswith(DERIVED)}


async def palette(pilot: Pilot, app: MemtuiApp, query: str, title: str) -> None:
    """ctrl+p, type `query`, and once the palette's search has settled on the command
    `title` (it searches as you type, in a worker), enter."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*query)
    await until(pilot, lambda: highlighted(app) == title, what=f"{title!r} highlighted")
    await pilot.press("enter")


def highlighted(app: MemtuiApp) -> str | None:
    """The title of the command the palette would run on enter, once its search is done."""
    screen = app.screen
    assert isinstance(screen, CommandPalette)
    searching = any(
        w.group == CommandPalette._GATHER_COMMANDS_GROUP and not w.is_finished for w in app.workers
    )
    options = screen.query_one(CommandList)
    index = options.highlighted
    if searching or index is None:
        return None
    option = options.get_option_at_index(index)
    return option.hit.text if isinstance(option, Command) else None  # type: ignore[return-value]


def test_maintenance_shows_its_report_then_applies_as_the_cli_does(tmp_path: Path) -> None:
    root = stale_store(tmp_path / "app")
    cli = shutil.copytree(root, tmp_path / "cli")
    before = tree_digest(root)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await palette(pilot, app, "maintenance dry", "Run maintenance (dry run)")
        await until(pilot, lambda: isinstance(app.screen, DryRunScreen))
        report = app.screen
        assert isinstance(report, DryRunScreen)
        text = "\n".join(report.lines)
        assert "the same fact twice" in text and "removed by apply" in text
        assert "-- the same fact twice" in text  # the diff of facts.md apply would write
        assert tree_digest(root) == before  # a dry run writes nothing
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: any(t.startswith("maintain: wrote") for _, t in app.said))

    app = SayingApp(root)
    run(app, body)
    assert run_cli("maintain", "--apply", "--store", str(cli)).returncode == 0
    assert derived(root) == derived(cli) != {k: before[k] for k in derived(cli) if k in before}


def test_index_rebuild_and_unresolved_block_as_memtui_index_does(tmp_path: Path) -> None:
    root = stale_store(tmp_path / "app")
    cli = shutil.copytree(root, tmp_path / "cli")
    before = derived(root)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await palette(pilot, app, "rebuild the dsh index", "Rebuild the dsh index")
        await until(pilot, lambda: any(t.startswith("rebuild index:") for _, t in app.said))
        await palette(pilot, app, "refresh the unresolved", "Refresh the unresolved block")
        await until(pilot, lambda: any(t.startswith("refresh unresolved:") for _, t in app.said))

    run(SayingApp(root), body)
    assert run_cli("index", "--store", str(cli)).returncode == 0
    assert derived(root) == derived(cli) != before
    assert "palette-new-sop" in (root / "index.txt").read_text(encoding="utf-8")
    assert "palette test todo" in (root / "MEMORY.md").read_text(encoding="utf-8")


def test_read_only_palette_offers_nothing_that_writes(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "store")
    before = tree_digest(root)
    writing = {
        "Run maintenance and apply",
        "Rebuild the dsh index",
        "Add a fact",
        "Add an event",
        "Refresh the unresolved block",
        "Pending: accept",
        "Pending: reject",
        "Pending: edit the candidate",
        "Events: mark done / reopen",
        "Events: edit the event",
        "Index: edit the selected entry",
        "Index: archive or restore the selected entry",
        "File: edit the entry at the cursor",
        "Events: archive or restore the event",
        "Undo the last operation",
        "Warnings: fix the finding",
    }

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        titles = {c.title for c in commands(app)}
        app.read_only = False  # what the same store offers when it may be changed
        assert {c.title for c in commands(app)} - titles == writing
        app.read_only = True
        assert "Run maintenance (dry run)" in titles  # reading only: offered
        await pilot.press("5", "a")  # a key that would accept says why nothing happens
        await until(pilot, lambda: any("read-only" in t for _, t in app.said))

    run(SayingApp(root, read_only=True), body)
    assert tree_digest(root) == before


def test_palette_offers_no_commands_for_a_layout_the_store_lacks(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n## Projects\n- {garden} → memory_garden.md\n",
            "memory_garden.md": "# Garden\nroses\n",
        },
    )

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        titles = [c.title for c in commands(app)]
        assert not [t for t in titles if t.startswith(("Events:", "Pending:", "Mood:"))]
        assert not [t for t in titles if "maintenance" in t or "unresolved" in t]
        assert "Index: open the selected file" in titles

    run(SayingApp(root), body)


class SayingApp(MemtuiApp):
    """The whole app (every pane; no file watcher), recording what it says."""

    def __init__(self, root: Path, **kwargs: object) -> None:
        super().__init__(str(root), watch=False, **kwargs)  # type: ignore[arg-type]
        self.said: list[tuple[str, str]] = []

    def say(self, text: str, *, severity: object = "information", title: str = "") -> None:
        self.said.append((str(severity), text))
        super().say(text, severity=severity, title=title)


async def answer_prompt(pilot: Pilot, app: MemtuiApp, text: str) -> None:
    from memtui.ui.screens.prompt import PromptScreen

    await until(pilot, lambda: isinstance(app.screen, PromptScreen))
    app.screen.query_one("Input").value = text  # type: ignore[attr-defined]
    await pilot.press("enter")


async def choose(pilot: Pilot, app: MemtuiApp, wanted: str) -> None:
    from memtui.ui.screens.choose import ChoiceScreen

    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
    screen = app.screen
    assert isinstance(screen, ChoiceScreen)
    await pilot.press(*["down"] * screen.choices.index(wanted), "enter")


def test_add_a_fact_and_an_event_as_memtui_add_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = demo_store(tmp_path / "app")
    cli = shutil.copytree(root, tmp_path / "cli")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await palette(pilot, app, "add a fact", "Add a fact")
        await choose(pilot, app, "DOCKER")
        await answer_prompt(pilot, app, "docker compose v2 on nas")
        await answer_prompt(pilot, app, "docker compose version → v2.29")
        await until(pilot, lambda: any(t.startswith("add fact to DOCKER:") for _, t in app.said))
        await palette(pilot, app, "add an event", "Add an event")
        await choose(pilot, app, "约定")
        await answer_prompt(pilot, app, "周五一起看电影")
        await answer_prompt(pilot, app, "2026-12-04")
        await until(pilot, lambda: any(t.startswith("add 约定 event:") for _, t in app.said))

    run(SayingApp(root), body)
    fact = ("add", "fact", "DOCKER", "docker compose v2 on nas")
    assert (
        run_cli(
            *fact, "--evidence", "docker compose version → v2.29", "--store", str(cli)
        ).returncode
        == 0
    )
    event = ("add", "event", "约定", "周五一起看电影", "--due", "2026-12-04")
    assert run_cli(*event, "--store", str(cli)).returncode == 0
    for rel in ("facts.md", "index.txt", "memory/events.md"):
        assert (root / rel).read_bytes() == (cli / rel).read_bytes(), rel
    assert "周五一起看电影" in (root / "memory/events.md").read_text(encoding="utf-8")


def test_add_an_event_asks_again_for_a_bad_due_date_keeping_what_was_typed(
    tmp_path: Path,
) -> None:
    """A due date that is no date is refused in the question itself (the engine's
    words), the text as typed; the type and content given before are kept."""
    from memtui.ui.screens.prompt import PromptScreen

    root = demo_store(tmp_path / "app")
    events = root / "memory/events.md"
    before = events.read_bytes()

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await palette(pilot, app, "add an event", "Add an event")
        await choose(pilot, app, "约定")
        await answer_prompt(pilot, app, "周五一起看电影")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        due = app.screen
        await answer_prompt(pilot, app, "2026-02-30")
        await pilot.pause()
        assert app.screen is due, "the due date is asked again"
        hint = str(due.query_one("#prompt-hint").render())
        assert "2026-02-30" in hint and "not a real date" in hint
        assert due.query_one("Input").value == "2026-02-30"  # type: ignore[attr-defined]
        assert events.read_bytes() == before
        await answer_prompt(pilot, app, "2026-12-04")
        await until(pilot, lambda: any(t.startswith("add 约定 event:") for _, t in app.said))

    run(SayingApp(root), body)
    added = events.read_text(encoding="utf-8")[len(before.decode("utf-8")) :]
    assert "**内容**：周五一起看电影" in added and "**到期日**：2026-12-04" in added


def test_read_only_dry_run_report_offers_no_apply(tmp_path: Path) -> None:
    """The shell hands the report its apply, or none when read-only: `a` writes nothing."""
    root = stale_store(tmp_path / "store")
    before = tree_digest(root)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        app.action_command("dsh.maintain-report")
        await until(pilot, lambda: isinstance(app.screen, DryRunScreen))
        assert app.screen.apply is None
        assert "a applies it" not in str(app.screen.query_one("#report-note").render())
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, DryRunScreen)  # nothing to confirm: no apply

    run(SayingApp(root, read_only=True), body)
    assert tree_digest(root) == before
