"""The openclaw layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, INFO, WARNING

CODES: dict[str, tuple[str, str]] = {
    "bootstrap-size": (ERROR, "an OpenClaw bootstrap file cut when injected (warning from 80%)"),
    "daily-name": (WARNING, "an OpenClaw daily note not named YYYY-MM-DD[-slug].md, or future"),
    "memory-case": (WARNING, "an OpenClaw memory.md (legacy name): never injected"),
    "bootstrap-leftover": (INFO, "OpenClaw's first-run BOOTSTRAP.md still present"),
    "bootstrap-retired": (INFO, "TOOLS.md or HEARTBEAT.md: OpenClaw injects them no more"),
}
