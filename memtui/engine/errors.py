"""The root of everything the engine refuses: one class a face can catch.

Each message is written for a person: it names the file and says whether
anything changed. The CLI prints it and exits 1 (2 for a store that cannot be
opened); the app shows it.
"""

from __future__ import annotations


class MemtuiError(Exception):
    """A refusal or failure the user can act on; never a bug."""
