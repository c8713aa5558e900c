"""The root of everything the engine refuses: one class a face can catch.

Each message is written for a person: it names the file and says whether
anything changed. The CLI prints it and exits 1 (2 for a store that cannot be
opened); the app shows it.
"""

from __future__ import annotations


class MemtuiError(Exception):
    """A refusal or failure the user can act on; never a bug. Its message is a Msg
    (memtui.i18n): str(exc) is that Msg itself, English, and a face shows it in the
    reader's language with tr(str(exc))."""

    def __str__(self) -> str:
        # Exception.__str__ would make a plain str of the Msg, losing its template
        first = self.args[0] if len(self.args) == 1 else None
        return first if isinstance(first, str) else super().__str__()
