"""What the faces offer for a Hermes Agent home (engine.commands): `memtui add
hermes`. Data only: it runs through the hermes engine code, imported when asked."""

from __future__ import annotations

from memtui.engine.commands import Ask, Command
from memtui.i18n import N_

COMMANDS = (
    Command(
        "hermes.add-entry",
        "memtui.layouts.hermes.ops:add_entry",
        verb="add",
        name="hermes",
        help=N_("an entry in Hermes' MEMORY.md (memory) or USER.md (user), as its add does"),
        asks=(
            Ask(
                "target",
                N_("MEMORY.md (the agent's notes) or USER.md (the user profile)"),
                choices=("memory", "user"),
                metavar="memory|user",
            ),
            Ask("text", N_("the entry (it may span lines; stripped as Hermes strips it)")),
        ),
    ),
)
