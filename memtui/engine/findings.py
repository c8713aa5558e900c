"""The finding codes of SPEC §5 (plus a few of memtui's own) and their levels."""

from __future__ import annotations

from memtui.engine.model import ERROR, INFO, WARNING, Finding

# code -> (default level, what it means). Codes are a contract: never rename.
CODES: dict[str, tuple[str, str]] = {
    "index-size": (WARNING, "memory.md line count against its cap (error from the block level)"),
    "pointer-missing": (ERROR, "an index pointer names a file that does not exist"),
    "pointer-duplicate": (WARNING, "two pointers name one file"),
    "index-content": (WARNING, "a line in the index that is neither heading, pointer nor blank"),
    "topic-orphan": (WARNING, "a memory_<name>.md with no pointer"),
    "topic-name": (WARNING, "a topic file name that is not memory_[a-z0-9_]+.md"),
    "agent-size": (WARNING, "agent.md over its size threshold"),
    "user-duplicate": (WARNING, "the same field or item twice in user.md"),
    "event-duplicate-id": (ERROR, "two events share a number"),
    "event-missing-id": (ERROR, "an event heading without a usable number"),
    "event-bad-date": (ERROR, "a date or due date that is not a real date"),
    "event-stars": (ERROR, "情绪强度 outside 1-5 stars"),
    "promise-no-due": (WARNING, "a 约定 without 到期日"),
    "event-overdue": (WARNING, "an open event past its due date"),
    "sentinel-missing": (INFO, "no [E000] … last_active line"),
    "profile-category-full": (WARNING, "a profile category over 10 items"),
    "mood-range": (ERROR, "valence or energy out of range, or not a number"),
    "mood-step": (WARNING, "a step between snapshots over the bound"),
    "mood-snapshots": (WARNING, "more than 10 snapshots"),
    "mood-top-mismatch": (WARNING, "current values differ from the newest snapshot"),
    "mood-guard": (WARNING, "valence rose while the healing-loop guard is on"),
    "unresolved-stale": (WARNING, "MEMORY.md's unresolved block differs from events.md"),
    "l1-size": (WARNING, "index.txt line count (error over the cap)"),
    "index-stale": (WARNING, "the automatic segment differs from what exists in L2/L3"),
    "pending-no-evidence": (WARNING, "a candidate without evidence (cannot be accepted)"),
    "pending-bad-frontmatter": (ERROR, "a candidate whose front matter is broken or incomplete"),
    "sop-bad-frontmatter": (WARNING, "a sop whose front matter does not parse"),
    "fact-duplicate": (WARNING, "the same fact twice"),
    "json-invalid": (ERROR, "a JSON file that does not parse or has the wrong shape"),
    "index-truncated": (ERROR, "MEMORY.md lines or units past Claude's cut are never loaded"),
    "index-line-long": (WARNING, "a MEMORY.md index line over 150 characters"),
    "memory-type": (WARNING, "front matter type missing or not user/feedback/project/reference"),
    "memory-description": (WARNING, "front matter description missing or empty"),
    "recall-cutoff": (WARNING, "more than 200 memory files: the oldest are never recalled"),
    "char-limit": (WARNING, "Hermes' MEMORY.md / USER.md characters against the limit"),
    "entry-duplicate": (WARNING, "the same Hermes entry twice"),
    "memory-drift": (ERROR, "a file Hermes' own parse and join would change: it refuses to write"),
    "pending-stale": (WARNING, "a staged replace/remove whose old_text matches no one entry"),
    "pending-over-limit": (WARNING, "approving the staged write would exceed the limit"),
    "pending-bad-record": (ERROR, "a staged record that is not JSON or not the expected shape"),
    "entry-injection": (WARNING, "text that reads like a prompt injection, or invisible controls"),
    "bootstrap-size": (ERROR, "an OpenClaw bootstrap file cut when injected (warning from 80%)"),
    "daily-name": (WARNING, "an OpenClaw daily note not named YYYY-MM-DD[-slug].md, or future"),
    "memory-case": (WARNING, "both MEMORY.md and memory.md in an OpenClaw workspace"),
    "bootstrap-leftover": (INFO, "OpenClaw's first-run BOOTSTRAP.md still present"),
    "path-escape": (ERROR, "a reference or link that leads outside the root"),
    "fence-unclosed": (WARNING, "a ``` or ~~~ code fence that is never closed"),
    "unreadable": (ERROR, "not UTF-8, binary, or over the size limit"),
    "config-invalid": (WARNING, "memtui.toml could not be used as written"),
    "txn-interrupted": (ERROR, "a change was interrupted; memtui's next change settles it"),
    "recovery-conflict": (
        WARNING,
        "an interrupted change could not reach a file the agent wrote since; both kept",
    ),
}


def unparsed(exc: Exception) -> str:
    """Why a JSON, TOML or YAML text does not parse, in words: Python's own messages
    for these two speak to a programmer (`sys.set_int_max_str_digits()`)."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply to read"
    if "integer string conversion" in str(exc):
        return "it holds a number of 4,300 digits or more"
    return str(exc)


class Findings:
    """Collects findings for one store; `add` takes the level from CODES unless given."""

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self.layout: str | None = None  # the layout whose parse is running, if one is

    def add(
        self,
        code: str,
        file: str | None,
        line: int | None,
        message: str,
        level: str | None = None,
    ) -> None:
        self.items.append(Finding(code, level or CODES[code][0], file, line, message, self.layout))
