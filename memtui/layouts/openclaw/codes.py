"""The openclaw layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, INFO, WARNING
from memtui.i18n import N_

CODES: dict[str, tuple[str, str]] = {
    "bootstrap-size": (
        ERROR,
        N_("an OpenClaw bootstrap file cut when injected (warning from 80%)"),
    ),
    "daily-name": (WARNING, N_("an OpenClaw daily note not named YYYY-MM-DD[-slug].md, or future")),
    "memory-case": (WARNING, N_("an OpenClaw memory.md (legacy name): never injected")),
    "bootstrap-leftover": (INFO, N_("OpenClaw's first-run BOOTSTRAP.md still present")),
    "bootstrap-retired": (INFO, N_("TOOLS.md or HEARTBEAT.md: OpenClaw injects them no more")),
}
