"""The memory tool's rules as memtui keeps them: the finding codes and where their
figures come from. Source: anthropic-sdk-python
`src/anthropic/lib/tools/_beta_builtin_memory_tool.py` (MAX_LINES, view's two levels,
create's exact bytes, str_replace's single match, insert's line numbers)."""

from __future__ import annotations

from memtui.engine.model import ERROR, INFO
from memtui.i18n import N_

# view of a file: `if len(content.split("\n")) > MAX_LINES: raise ToolError(...)`
MAX_LINES = 999_999

CODES: dict[str, tuple[str, str]] = {
    "memtool-deep": (
        INFO,
        N_(
            "a file below the two levels `view /memories` lists: the model sees it only when it "
            "views its folder"
        ),
    ),
    "memtool-lines": (ERROR, N_("a file past the 999,999 lines the tool's `view` shows: refused")),
}


def lines_of(text: str) -> int:
    """How many lines `view` counts: content.split("\\n")."""
    return text.count("\n") + 1


def deep(name: str) -> bool:
    """Whether a path from /memories lies below the two levels `view` lists
    (`a.md`, `a/b.md` are listed; `a/b/c.md` is not)."""
    return name.count("/") >= 2
