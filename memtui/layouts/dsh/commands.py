"""What the faces offer for a dsh store (engine.commands): `memtui add fact|sop`,
`memtui maintain` and the palette's maintenance, index rebuild and new fact. Data
only: each runs and checks through the dsh engine code, imported when asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memtui.engine.commands import Ask, Command

if TYPE_CHECKING:
    from memtui.engine.store import Store
    from memtui.engine.write.transaction import Receipt

HERE = "memtui.layouts.dsh.commands"
OPS = "memtui.layouts.dsh.entries"

EVIDENCE = Ask(
    "evidence",
    "how it was verified",
    prompt="Evidence: how was it verified? (No Execution, No Memory)",
    flag="--evidence",
    placeholder="ran …",
    check=f"{HERE}:check_evidence",
)

COMMANDS = (
    Command(
        "dsh.maintain-report",
        f"{HERE}:maintain",
        title="Run maintenance (dry run)",
        about="Duplicates, near-duplicates and what apply would change; nothing is written",
        label="maintenance",
        writes=False,
        then="dsh.maintain",
    ),
    Command(
        "dsh.maintain",
        f"{HERE}:maintain",
        verb="maintain",
        help="really remove exact duplicates",
        title="Run maintenance and apply",
        about="Remove exact duplicate facts, refresh counts",
        label="maintain",
        confirm="Remove exact duplicate facts and refresh counts? (undo: history)",
    ),
    Command(
        "dsh.rebuild-index",
        f"{OPS}:rebuild_index",
        title="Rebuild the dsh index",
        about="The automatic segment of index.txt",
        label="rebuild index",
    ),
    Command(
        "dsh.add-fact",
        f"{OPS}:add_fact",
        verb="add",
        name="fact",
        help="a fact line in a facts.md section",
        title="Add a fact",
        about="To a facts.md section, with its evidence",
        label="add fact to {section}",
        asks=(
            Ask(
                "section",
                "the facts.md section (## NAME), e.g. PYTHON_ENV",
                prompt="Add a fact to which section of facts.md?",
                options=f"{HERE}:sections",
                other="The new section",
            ),
            Ask("text", "the fact, one line", prompt="The fact, for ## {section}"),
            EVIDENCE,
        ),
    ),
    Command(
        "dsh.add-sop",
        f"{OPS}:add_sop",
        verb="add",
        name="sop",
        help="a sops/<name>.md procedure",
        asks=(
            Ask("name", "the sop's name: sops/<name>.md"),
            Ask("body", "the procedure (-: stdin)", flag="--body-file", metavar="F", kind="file"),
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
