"""A layout whose module cannot be imported: it needs a package that is not installed."""

from memtui_not_installed import helper  # noqa: F401  (ImportError: what the test wants)

from memtui.engine.layouts.base import Detection


class MissingDetection(Detection):
    name = "broken-import"
    full = "memtui_broken.missing:MissingDetection"
