"""The claude layout's finding codes (SPEC §5): code -> (default level, meaning). The
index codes it shares with the workspace layout are about MEMORY.md here."""

from memtui.engine.model import ERROR, WARNING
from memtui.i18n import N_

CODES: dict[str, tuple[str, str]] = {
    "index-size": (WARNING, N_("MEMORY.md near Claude's cut (200 lines or 25,000 UTF-16 units)")),
    "pointer-missing": (ERROR, N_("a MEMORY.md pointer names a memory file that does not exist")),
    "pointer-duplicate": (WARNING, N_("two MEMORY.md pointers name one memory file")),
    "index-content": (
        WARNING,
        N_("a MEMORY.md line that is no pointer: content belongs in a memory"),
    ),
    "topic-orphan": (WARNING, N_("a memory file with no MEMORY.md pointer")),
    "index-truncated": (ERROR, N_("MEMORY.md lines or units past Claude's cut are never loaded")),
    "index-line-long": (WARNING, N_("a MEMORY.md index line over 150 characters")),
    "memory-type": (
        WARNING,
        N_("front matter type missing or not user/feedback/project/reference"),
    ),
    "memory-description": (WARNING, N_("front matter description missing or empty")),
    "recall-cutoff": (WARNING, N_("more than 200 memory files: the oldest are never recalled")),
}
