"""What the faces offer for a Claude Code memory folder (engine.commands):
`memtui add memory`. Data only: it runs through the claude engine code, imported
when asked."""

from __future__ import annotations

from memtui.engine.commands import Ask, Command
from memtui.i18n import N_
from memtui.layouts.claude.detect import TYPES

COMMANDS = (
    Command(
        "claude.add-memory",
        "memtui.layouts.claude.ops:add_memory",
        verb="add",
        name="memory",
        help=N_("a Claude Code memory <file>.md (front matter) with its MEMORY.md line"),
        asks=(
            Ask("file", N_("the memory's file, e.g. feedback_testing.md")),
            Ask("type", N_("the memory's type"), flag="--type", choices=TYPES),
            Ask("description", N_("what recall sees, one line"), flag="--description"),
            Ask("title", N_("its name: (default: the file name)"), flag="--title", optional=True),
            Ask(
                "hook",
                N_("the index line's hook (default: the description)"),
                flag="--hook",
                optional=True,
            ),
            Ask("body", N_("the memory (-: stdin)"), flag="--body-file", metavar="F", kind="file"),
        ),
    ),
)
