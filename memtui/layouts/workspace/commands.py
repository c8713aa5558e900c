"""What the faces offer for a workspace store (engine.commands): `memtui add topic`.
Data only: it runs through the workspace engine code, imported when asked."""

from __future__ import annotations

from memtui.engine.commands import Ask, Command

COMMANDS = (
    Command(
        "workspace.add-topic",
        "memtui.layouts.workspace.ops:add_topic",
        verb="add",
        name="topic",
        help="a memory_<name>.md topic with its index pointer",
        asks=(
            Ask("name", "the topic's name: memory_<name>.md"),
            Ask("section", "the memory.md section for its pointer", flag="--section"),
            Ask("description", "the pointer's text", flag="--description"),
            Ask(
                "body", "the topic's text (-: stdin)", flag="--body-file", metavar="F", kind="file"
            ),
        ),
    ),
)
