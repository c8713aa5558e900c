"""The layouts this run skipped, named on stderr once (engine.layouts.newly_broken):
a third party's layout that could not be loaded or failed is never silent."""

from __future__ import annotations

import sys

from memtui.cli.output import warn
from memtui.i18n import _, tr

REGISTRY = "memtui.engine.layouts"


def warn_skipped_layouts() -> None:
    """A warning for each layout skipped since the last call; nothing to import when no
    layout was asked for (`--help`, `completion`)."""
    registry = sys.modules.get(REGISTRY)
    if registry is None:
        return
    for why in registry.newly_broken():
        warn(_("warning: {why}").format(why=tr(why)))
