"""The companion layout's finding codes (SPEC §5): code -> (default level, meaning)."""

from memtui.engine.model import ERROR, INFO, WARNING
from memtui.i18n import N_

CODES: dict[str, tuple[str, str]] = {
    "event-duplicate-id": (ERROR, N_("two events share a number")),
    "event-missing-id": (ERROR, N_("an event heading without a usable number")),
    "event-bad-date": (ERROR, N_("a date or due date that is not a real date")),
    "event-stars": (ERROR, N_("情绪强度 outside 1-5 stars")),
    "promise-no-due": (WARNING, N_("a 约定 without 到期日")),
    "event-overdue": (WARNING, N_("an open event past its due date")),
    "sentinel-missing": (INFO, N_("no [E000] … last_active line")),
    "profile-category-full": (WARNING, N_("a profile category over 10 items")),
    "mood-range": (ERROR, N_("valence or energy out of range, or not a number")),
    "mood-step": (WARNING, N_("a step between snapshots over the bound")),
    "mood-snapshots": (WARNING, N_("more than 10 snapshots")),
    "mood-top-mismatch": (WARNING, N_("current values differ from the newest snapshot")),
    "mood-guard": (WARNING, N_("valence rose while the healing-loop guard is on")),
    "unresolved-stale": (WARNING, N_("MEMORY.md's unresolved block differs from events.md")),
}
