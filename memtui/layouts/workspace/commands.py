"""What the faces offer for a workspace store (engine.commands): `memtui add topic`.
Data only: it runs through the workspace engine code, imported when asked."""

from __future__ import annotations

from memtui.engine.commands import Ask, Command
from memtui.i18n import N_

COMMANDS = (
    Command(
        "workspace.add-topic",
        "memtui.layouts.workspace.ops:add_topic",
        verb="add",
        name="topic",
        help=N_("a memory_<name>.md topic with its index pointer"),
        asks=(
            Ask("name", N_("the topic's name: memory_<name>.md")),
            Ask("section", N_("the memory.md section for its pointer"), flag="--section"),
            Ask("description", N_("the pointer's text"), flag="--description"),
            Ask(
                "body",
                N_("the topic's text (-: stdin)"),
                flag="--body-file",
                metavar="F",
                kind="file",
            ),
        ),
    ),
)
