"""$VISUAL / $EDITOR on a temp file, like `git commit`: `memtui edit` and the app's
editor screen both hand text to the user's editor this way.

No textual import here: the command line uses it without loading the UI.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import tempfile

from memtui.i18n import msg


class EditorFailed(Exception):
    """The editor gave no text back (it failed, or its file cannot be read); nothing changed."""


class EditorNotRun(EditorFailed):
    """The editor command itself cannot be started (a wrong $VISUAL / $EDITOR)."""


def run_editor(text: str, name: str, limit: int | None = None) -> str:
    """The text after the user edited it, read back exactly (line endings untouched).

    `name` gives the temp file its suffix (syntax colours). Nothing is locked while
    the editor runs. What it saved is read up to `limit` bytes (default: the default
    max_file_bytes) and refused beyond. Raises EditorNotRun or EditorFailed.
    """
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    suffix = os.path.splitext(name)[1] or ".md"
    fd, path = tempfile.mkstemp(prefix="memtui-edit-", suffix=suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        try:
            done = subprocess.run([*shlex.split(editor), path], check=False)
        except (OSError, ValueError) as exc:  # ValueError: unbalanced quotes in the command
            raise EditorNotRun(
                msg("cannot run the editor {editor}: {error}", editor=repr(editor), error=str(exc))
            ) from None
        if done.returncode != 0:
            raise EditorFailed(
                msg(
                    "the editor exited with status {status}; nothing changed",
                    status=done.returncode,
                )
            )
        from memtui.engine.config import Thresholds
        from memtui.engine.inputs import InputError, read_input

        try:
            return read_input(path, limit or Thresholds().max_file_bytes, "the edited text")
        except InputError as exc:
            raise EditorFailed(*exc.args) from None  # its message as made (a Msg translates)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
