"""The Memory Audit queue, read as OpenClaw reads it, and its records written as
OpenClaw writes them. Source: openclaw/openclaw
`extensions/memory-core/src/memory-audit.ts` (parseSuggestionRecord,
readMemoryAuditSuggestions, appendSuggestion, appendStatus, readRangeHash,
replaceSourceRange, appendToTarget, normalizeRelativeMarkdownPath).

The log is append-only: one `JSON.stringify(record)` line per state, the last
record for an id is its state (`pending`, `applied`, `rejected`, `conflict`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from memtui.engine.layouts.common import JS_SPACE
from memtui.layouts.openclaw import AUDIT_QUEUE as QUEUE  # noqa: F401 - re-exported

ACTIONS = ("add", "edit", "delete", "move")
WRITABLE_KINDS = ("agent-instructions", "agent-memory", "user-profile", "tool-notes")
SHARED = "shared-memory"  # writable too (isWritableSurfaceKind: all but daily/session)
READ_ONLY_KINDS = ("daily-memory", "session-log")
KIND = "openclaw-audit"


@dataclass(frozen=True, slots=True)
class Suggestion:
    record: dict[str, Any]  # the last record for its id, keys in the file's order
    line: int  # 1-based line of that record in the log
    start: int = 0  # that line's characters in the log's text: [start, stop)
    stop: int = 0

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def item_id(self) -> str:
        """Its id in memtui (`memtui pending`, `list`, `show`, `accept`)."""
        return f"{KIND}:{self.id}"

    @property
    def status(self) -> str:
        return str(self.record["status"])

    @property
    def action(self) -> str:
        return str(self.record["action"])


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # JSON.parse refuses NaN and Infinity


def parse_record(line: str) -> dict[str, Any] | None:
    """parseSuggestionRecord: id, status, action and text strings and a target."""
    try:
        got = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(got, dict):
        return None
    if not all(isinstance(got.get(k), str) for k in ("id", "status", "action", "text")):
        return None
    return got if _truthy(got.get("target")) else None


def _truthy(value: Any) -> bool:
    return value not in (None, False, 0, "") and not (isinstance(value, float) and value != value)


def read(text: str) -> list[Suggestion]:
    """readMemoryAuditSuggestions: the last record per id, newest updatedAt first."""
    by_id: dict[str, Suggestion] = {}
    for n, (start, stop) in enumerate(_line_bounds(text), 1):
        trimmed = text[start:stop].strip(JS_SPACE)
        record = parse_record(trimmed) if trimmed else None
        if record is not None:  # a Map keeps the first place
            by_id[record["id"]] = Suggestion(record, n, start, stop)
    found = list(by_id.values())
    found.sort(key=lambda s: str(s.record.get("updatedAt", "")), reverse=True)
    return found


def _line_bounds(text: str) -> list[tuple[int, int]]:
    """The [start, stop) of each line as content.split(/\r?\n/) cuts them."""
    bounds, start = [], 0
    for m in re.finditer(r"\r?\n", text):
        bounds.append((start, m.start()))
        start = m.end()
    return [*bounds, (start, len(text))]


def bad_lines(text: str) -> list[int]:
    """1-based lines that are not blank and that OpenClaw skips as no record."""
    return [
        n
        for n, line in enumerate(re.split(r"\r?\n", text), 1)
        if line.strip(JS_SPACE) and parse_record(line.strip(JS_SPACE)) is None
    ]


# --- hashes and ranges ---------------------------------------------------------


def hash_text(text: str) -> str:
    """hashText: sha256 hex of the UTF-8 text, first 16 digits."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def range_hash(lines: list[str], start: int, end: int) -> str:
    """readRangeHash: lines start..end joined by "\\n", trimmed."""
    return hash_text("\n".join(lines[start - 1 : end]).strip(JS_SPACE))


def split_lines(text: str) -> list[str]:
    """content.split(/\\r?\\n/)."""
    return re.split(r"\r?\n", text)


def relative_md(value: Any) -> str | None:
    """normalizeRelativeMarkdownPath's test: a relative `.md` path with no `.`, `..` or
    empty part; None when OpenClaw would refuse it."""
    if not isinstance(value, str):
        return None
    s = value.strip(JS_SPACE).replace("\\", "/")
    s = re.sub(r"^\./+", "", s)
    parts = s.split("/")
    if not s or s.startswith("/") or "\0" in s or any(p in ("", ".", "..") for p in parts):
        return None
    return s if s.lower().endswith(".md") else None


# --- records as OpenClaw writes them ----------------------------------------------


def now_iso() -> str:
    """new Date().toISOString(): UTC, milliseconds, Z."""
    now = dt.datetime.now(dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def status_record(record: dict[str, Any], status: str, conflict: str | None = None) -> str:
    """appendStatus: `{...suggestion, status, updatedAt, appliedAt|rejectedAt, conflict}`
    as one JSON.stringify line with its newline."""
    now = now_iso()
    out = dict(record)
    out["status"] = status
    out["updatedAt"] = now
    if status == "applied":
        out["appliedAt"] = now
    if status == "rejected":
        out["rejectedAt"] = now
    if conflict:
        out["conflict"] = conflict
    return js_stringify(out) + "\n"


def js_stringify(value: Any) -> str:
    """JSON.stringify(value): no spaces, non-ASCII as is, lone surrogates escaped, a
    whole float as an integer, integer-like keys first as JS objects order them."""
    text = json.dumps(_js_order(value), ensure_ascii=False, separators=(",", ":"))
    text = re.sub(r"[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def _js_order(value: Any) -> Any:
    if isinstance(value, dict):
        index = [k for k in value if _array_index(k)]
        rest = [k for k in value if not _array_index(k)]
        return {k: _js_order(value[k]) for k in sorted(index, key=int) + rest}
    if isinstance(value, list):
        return [_js_order(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON.stringify(Infinity) is null (JSON.parse read 1e400 as it)
    if isinstance(value, float) and value == int(value) and abs(value) < 1e21:
        return int(value)  # JavaScript prints 1.0 as 1
    return value


def _array_index(key: str) -> bool:
    return key.isdigit() and key.isascii() and str(int(key)) == key and int(key) < 2**32 - 1
