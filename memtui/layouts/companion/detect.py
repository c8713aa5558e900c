"""How the companion layout (SPEC §2) is recognised, without its parser: listing and
searching a store import only this."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection, there
from memtui.i18n import N_, msg

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

# the mood files are model.Mood.FILE and Mood.AUX
EVENTS = "memory/events.md"
PERSONA = "memory/persona.md"
MOOD = "memory/mood_state.md"
MOOD_AUX = ".mood_state_aux"
# an event id given bare: E020, E005#2, L12, each maybe @FINGERPRINT (ids.event_ref)
BARE_EVENT = re.compile(r"[EL]\d+(?:#\d+)?(?:@[0-9a-fA-F]{12})?", re.IGNORECASE)


class CompanionDetection(Detection):
    name = "companion"
    looks_for = N_("memory/events.md, memory/persona.md or memory/mood_state.md (companion)")
    title = msg("events, mood and profile")
    full = "memtui.layouts.companion.layout:Companion"
    commands_at = "memtui.layouts.companion.commands:COMMANDS"
    order = 20
    dotfiles = (MOOD_AUX,)  # the one root dotfile that is memory (engine.home)
    peeks = ("memory",)  # its files are there
    thresholds = {  # SPEC §2
        "profile_category_max": 10,
        "mood_max_snapshots": 10,
        "mood_step_valence": 0.30,
        "mood_step_energy": 0.20,
        "unresolved_max": 3,
    }

    def bare_kind(self, ref: str) -> str | None:
        return "event" if BARE_EVENT.fullmatch(ref.strip()) else None

    def detect(self, top: Listing) -> bool:
        return any(there(top, m) for m in (EVENTS, PERSONA, MOOD))
