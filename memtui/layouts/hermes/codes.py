"""The hermes layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, WARNING
from memtui.i18n import N_

CODES: dict[str, tuple[str, str]] = {
    "char-limit": (WARNING, N_("Hermes' MEMORY.md / USER.md characters against the limit")),
    "entry-duplicate": (WARNING, N_("the same Hermes entry twice")),
    "memory-drift": (
        ERROR,
        N_("a file Hermes' own parse and join would change: it refuses to write"),
    ),
    "pending-stale": (WARNING, N_("a staged replace/remove whose old_text matches no one entry")),
    "pending-over-limit": (WARNING, N_("approving the staged write would exceed the limit")),
    "pending-bad-record": (ERROR, N_("a staged record that is not JSON or not the expected shape")),
}
