"""What the faces offer for a dsh store (engine.commands): `memtui add fact|sop`,
`memtui maintain` and the palette's maintenance, index rebuild and new fact. Data
only: each runs and checks through the dsh engine code, imported when asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memtui.engine.commands import Ask, Command
from memtui.i18n import N_

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt

HERE = "memtui.layouts.dsh.commands"
OPS = "memtui.layouts.dsh.entries"

EVIDENCE = Ask(
    "evidence",
    N_("how it was verified"),
    prompt=N_("Evidence: how was it verified? (No Execution, No Memory)"),
    flag="--evidence",
    placeholder=N_("ran …"),
    check=f"{HERE}:check_evidence",
)

COMMANDS = (
    Command(
        "dsh.maintain-report",
        f"{HERE}:maintain",
        title=N_("Run maintenance (dry run)"),
        about=N_("Duplicates, near-duplicates and what apply would change; nothing is written"),
        label=N_("maintenance"),
        writes=False,
        then="dsh.maintain",
    ),
    Command(
        "dsh.maintain",
        f"{HERE}:maintain",
        verb="maintain",
        help=N_("really remove exact duplicates"),
        title=N_("Run maintenance and apply"),
        about=N_("Remove exact duplicate facts, refresh counts"),
        label=N_("maintain"),
        confirm=N_("Remove exact duplicate facts and refresh counts? (undo: history)"),
    ),
    Command(
        "dsh.rebuild-index",
        f"{OPS}:rebuild_index",
        title=N_("Rebuild the dsh index"),
        about=N_("The automatic segment of index.txt"),
        label=N_("rebuild index"),
    ),
    Command(
        "dsh.add-fact",
        f"{OPS}:add_fact",
        verb="add",
        name="fact",
        help=N_("a fact line in a facts.md section"),
        title=N_("Add a fact"),
        about=N_("To a facts.md section, with its evidence"),
        label=N_("add fact to {section}"),
        asks=(
            Ask(
                "section",
                N_("the facts.md section (## NAME), e.g. PYTHON_ENV"),
                prompt=N_("Add a fact to which section of facts.md?"),
                options=f"{HERE}:sections",
                other=N_("The new section"),
            ),
            Ask("text", N_("the fact, one line"), prompt=N_("The fact, for ## {section}")),
            EVIDENCE,
        ),
    ),
    Command(
        "dsh.add-sop",
        f"{OPS}:add_sop",
        verb="add",
        name="sop",
        help=N_("a sops/<name>.md procedure"),
        asks=(
            Ask("name", N_("the sop's name: sops/<name>.md")),
            Ask(
                "body", N_("the procedure (-: stdin)"), flag="--body-file", metavar="F", kind="file"
            ),
            EVIDENCE,
        ),
    ),
)


def maintain(root: str, *, dry_run: bool = False) -> Receipt:
    """One maintenance run: a dry run shows what applying it would write."""
    from memtui.layouts.dsh.maintain import maintain as run

    return run(root, apply=not dry_run)


def sections(store: Store) -> list[str]:
    """The facts.md sections a new fact may go to."""
    data = store.data.get("dsh")
    return [s.name for s in data.fact_sections] if data is not None else []


def check_evidence(value: Any, answers: dict[str, Any]) -> None:
    from memtui.layouts.dsh.entries import check_evidence as check

    check(value)
