"""The hermes layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, WARNING

CODES: dict[str, tuple[str, str]] = {
    "char-limit": (WARNING, "Hermes' MEMORY.md / USER.md characters against the limit"),
    "entry-duplicate": (WARNING, "the same Hermes entry twice"),
    "memory-drift": (ERROR, "a file Hermes' own parse and join would change: it refuses to write"),
    "pending-stale": (WARNING, "a staged replace/remove whose old_text matches no one entry"),
    "pending-over-limit": (WARNING, "approving the staged write would exceed the limit"),
    "pending-bad-record": (ERROR, "a staged record that is not JSON or not the expected shape"),
}
