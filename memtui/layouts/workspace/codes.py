"""The workspace layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, WARNING
from memtui.i18n import N_

CODES: dict[str, tuple[str, str]] = {
    "index-size": (
        WARNING,
        N_("memory.md line count against its cap (error from the block level)"),
    ),
    "pointer-missing": (ERROR, N_("an index pointer names a file that does not exist")),
    "pointer-duplicate": (WARNING, N_("two pointers name one file")),
    "index-content": (
        WARNING,
        N_("a line in the index that is neither heading, pointer nor blank"),
    ),
    "topic-orphan": (WARNING, N_("a memory_<name>.md with no pointer")),
    "topic-name": (WARNING, N_("a topic file name that is not memory_[a-z0-9_]+.md")),
    "agent-size": (WARNING, N_("agent.md over its size threshold")),
    "user-duplicate": (WARNING, N_("the same field or item twice in user.md")),
}
