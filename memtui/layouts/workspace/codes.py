"""The workspace layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, WARNING

CODES: dict[str, tuple[str, str]] = {
    "index-size": (WARNING, "memory.md line count against its cap (error from the block level)"),
    "pointer-missing": (ERROR, "an index pointer names a file that does not exist"),
    "pointer-duplicate": (WARNING, "two pointers name one file"),
    "index-content": (WARNING, "a line in the index that is neither heading, pointer nor blank"),
    "topic-orphan": (WARNING, "a memory_<name>.md with no pointer"),
    "topic-name": (WARNING, "a topic file name that is not memory_[a-z0-9_]+.md"),
    "agent-size": (WARNING, "agent.md over its size threshold"),
    "user-duplicate": (WARNING, "the same field or item twice in user.md"),
}
