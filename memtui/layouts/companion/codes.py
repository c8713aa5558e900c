"""The companion layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, INFO, WARNING

CODES: dict[str, tuple[str, str]] = {
    "event-duplicate-id": (ERROR, "two events share a number"),
    "event-missing-id": (ERROR, "an event heading without a usable number"),
    "event-bad-date": (ERROR, "a date or due date that is not a real date"),
    "event-stars": (ERROR, "情绪强度 outside 1-5 stars"),
    "promise-no-due": (WARNING, "a 约定 without 到期日"),
    "event-overdue": (WARNING, "an open event past its due date"),
    "sentinel-missing": (INFO, "no [E000] … last_active line"),
    "profile-category-full": (WARNING, "a profile category over 10 items"),
    "mood-range": (ERROR, "valence or energy out of range, or not a number"),
    "mood-step": (WARNING, "a step between snapshots over the bound"),
    "mood-snapshots": (WARNING, "more than 10 snapshots"),
    "mood-top-mismatch": (WARNING, "current values differ from the newest snapshot"),
    "mood-guard": (WARNING, "valence rose while the healing-loop guard is on"),
    "unresolved-stale": (WARNING, "MEMORY.md's unresolved block differs from events.md"),
}
