"""The layouts a load skipped, said once a run as a notification (engine.store): a
third party's layout that could not be loaded or failed is never silent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memtui.engine.store import skipped_layouts
from memtui.i18n import _, tr


def say_skipped_layouts(say: Callable[..., Any]) -> None:
    """`say` (the app's notify, store text literal) each layout skipped since last asked."""
    for why in skipped_layouts():
        say(tr(why), severity="warning", title=_("layout skipped"))
