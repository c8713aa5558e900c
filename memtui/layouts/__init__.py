"""The built-in layout packages, one per agent memory layout (SPEC §1-§3b).

Each is found as a third party's would be: through its `memtui.layouts` entry point
(pyproject.toml; engine/layouts/__init__.py reads them). A package holds all its
layout knows: detection, parsing, findings, thresholds, outline, context, operations,
commands and demo. Nothing outside it names it.
"""
