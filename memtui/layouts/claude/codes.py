"""The claude layout's finding codes (SPEC §5): code -> (default level, meaning). The
index codes it shares with the workspace layout are about MEMORY.md here."""

from memtui.engine.model import ERROR, WARNING

CODES: dict[str, tuple[str, str]] = {
    "index-size": (WARNING, "MEMORY.md near Claude's cut (200 lines or 25,000 UTF-16 units)"),
    "pointer-missing": (ERROR, "a MEMORY.md pointer names a memory file that does not exist"),
    "pointer-duplicate": (WARNING, "two MEMORY.md pointers name one memory file"),
    "index-content": (WARNING, "a MEMORY.md line that is no pointer: content belongs in a memory"),
    "topic-orphan": (WARNING, "a memory file with no MEMORY.md pointer"),
    "index-truncated": (ERROR, "MEMORY.md lines or units past Claude's cut are never loaded"),
    "index-line-long": (WARNING, "a MEMORY.md index line over 150 characters"),
    "memory-type": (WARNING, "front matter type missing or not user/feedback/project/reference"),
    "memory-description": (WARNING, "front matter description missing or empty"),
    "recall-cutoff": (WARNING, "more than 200 memory files: the oldest are never recalled"),
}
