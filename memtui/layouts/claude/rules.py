"""Claude Code's own numbers and cuts (src/memdir/memdir.ts, memoryScan.ts,
memoryTypes.ts), kept exact: what `context` shows and the findings rest on them."""

from __future__ import annotations

import os
import re
from urllib.parse import unquote

from memtui.layouts.claude.detect import (  # noqa: F401 - re-exported
    ARCHIVE,
    ARCHIVE_LINES,
    INDEX,
    LINK,
    RECALL_LINES,
    TYPES,
)
from memtui.layouts.claude.load import MAX_LINES, MAX_UNITS, Loaded, load, units  # noqa: F401

WARN_LINES = 150
WARN_UNITS = 20_000
LONG_LINE = 150  # "about 150 characters a line"
RECALL_FILES = 200  # MAX_MEMORY_FILES: the newest by mtime
ARCHIVED = ".archived"
# Any Markdown link, to whatever it names: a line linking out of the folder is shaped
# like a pointer even when its target is not a .md file (path-escape, SPEC §5).
ANY_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)<>\s]+)>?(?:\s+\"[^\"]*\")?\s*\)")


Cut = Loaded  # what of MEMORY.md reaches the agent (load.py)


def cut(raw: str) -> Loaded:
    """MEMORY.md as the agent gets it: front matter and HTML comments off, trimmed, cut
    at 200 lines / 25,000 UTF-16 units, Claude's warning after a cut (load.py)."""
    return load(raw)


def target_of(ref: str) -> str:
    """A link's target as a path from the root (`#anchor` dropped, %-escapes read)."""
    return os.path.normpath(unquote(ref.split("#", 1)[0])).replace(os.sep, "/")
