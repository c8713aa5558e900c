"""Hermes Agent's own rules for its memory files (SPEC §3b hermes), restated from
NousResearch/hermes-agent `tools/memory_tool.py` (MemoryStore) and
`tools/threat_patterns.py`: how it splits, joins, dedupes, refuses (drift), counts
against its limits, scans for injections and renders what the agent sees.

Pure functions on text: the parser, the findings, the ops and the queue all ask here.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from memtui.i18n import Msg, msg
from memtui.layouts.hermes.detect import CONFIG, MEMORY, USER

DELIMITER = "\n§\n"  # MemoryStore's ENTRY_DELIMITER
FILES = {"memory": MEMORY, "user": USER}  # a payload's `target` -> its file
TARGETS = {rel: target for target, rel in FILES.items()}
DEFAULT_LIMITS = {"memory": 2200, "user": 1375}  # MemoryStore.__init__ defaults
LIMIT_KEYS = {"memory": "memory_char_limit", "user": "user_char_limit"}
# config.yaml's switches for each block (hermes_cli/config.py DEFAULT_CONFIG: both True)
ENABLED_KEYS = {"memory": "memory_enabled", "user": "user_profile_enabled"}
WARN_SHARE = 0.8  # char-limit warns from 80% (SPEC §5)
MAX_SCAN_CHARS = 65_536  # threat_patterns.MAX_SCAN_CHARS: a longer entry is blocked whole
SEPARATOR = "═" * 46  # _render_block's rule above and below the header

# A delimiter as it stands in the file: Hermes reads with universal newlines, so a
# CRLF (or CR) file's "\r\n§\r\n" is its "\n§\n".
_RAW_DELIMITER = re.compile(r"(?:\r\n|\r|\n)§(?:\r\n|\r|\n)")


def hermes_view(text: str) -> str:
    """The text as Hermes reads it (`Path.read_text`: universal newlines)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def split_entries(text: str) -> list[str]:
    """MemoryStore._read_file: split on the delimiter, strip each, drop empty ones."""
    view = hermes_view(text)
    if not view.strip():
        return []
    return [e for e in (piece.strip() for piece in view.split(DELIMITER)) if e]


def dedupe(entries: list[str]) -> list[str]:
    """load_from_disk / _reload_target: exact duplicates dropped, the first kept."""
    return list(dict.fromkeys(entries))


def join(entries: list[str]) -> str:
    """_write_file: the entries joined by the delimiter, no trailing newline."""
    return DELIMITER.join(entries)


def char_count(entries: list[str]) -> int:
    return len(join(entries)) if entries else 0


@dataclass(frozen=True, slots=True)
class Piece:
    """One entry as it stands in the file: its stripped text and where that is."""

    text: str  # as Hermes sees it (newlines translated)
    start: int  # char offsets of the stripped entry in the file's text
    stop: int


def pieces(text: str) -> list[Piece]:
    """Each non-empty entry with its place, so an edit touches only its own characters."""
    found: list[Piece] = []
    pos = 0
    for match in [*_RAW_DELIMITER.finditer(text), None]:
        end = match.start() if match else len(text)
        raw = text[pos:end]
        body = raw.strip()
        if body:
            start = pos + (len(raw) - len(raw.lstrip()))
            found.append(Piece(hermes_view(body), start, start + len(body)))
        pos = match.end() if match else end
    return found


def drift(text: str, limit: int) -> str | None:
    """MemoryStore._detect_external_drift: why Hermes would refuse to replace or remove
    in this file (None: it would not). Two signals: the file does not survive its own
    parse-and-join, or one entry is longer than the whole limit (free text appended)."""
    view = hermes_view(text)
    if not view.strip():
        return None
    parsed = split_entries(view)
    if view.strip() != join(parsed):
        return msg(
            "it does not survive Hermes' own parse and join (blank lines "
            "or spaces around a § separator, or a § line that is not one)"
        )
    longest = max((len(e) for e in parsed), default=0)
    if longest > limit:
        return msg(
            "one entry is {longest:,} characters, longer than the whole "
            "{limit:,}-character limit (free text appended to it?)",
            longest=longest,
            limit=limit,
        )
    return None


def drift_offset(text: str, limit: int) -> int | None:
    """Where the drift is (a char offset into `text`), for the finding's line."""
    view = hermes_view(text)
    if drift(text, limit) is None:
        return None
    parsed = split_entries(view)
    for piece in pieces(text):
        if len(piece.text) > limit:
            return piece.start
    stripped = view.strip()
    lead = len(view) - len(view.lstrip())
    joined = join(parsed)
    at = next((i for i, (a, b) in enumerate(zip(stripped, joined, strict=False)) if a != b), None)
    at = min(len(stripped), len(joined)) if at is None else at
    return _raw_offset(text, lead + at)


def _raw_offset(text: str, view_offset: int) -> int:
    """The offset in `text` of a character at `view_offset` of hermes_view(text)."""
    if "\r" not in text:
        return view_offset
    seen = 0
    i = 0
    while i < len(text) and seen < view_offset:
        i += 2 if text.startswith("\r\n", i) else 1
        seen += 1
    return i


def line_at(text: str, offset: int) -> int:
    """1-based line of a char offset."""
    return text.count("\n", 0, offset) + 1


# --- the threat scan ----------------------------------------------------------------
# Restated from tools/threat_patterns.py (the "strict" scope memory writes use): the
# pattern ids are Hermes' own, so a refusal names what Hermes would name.

_GAP = r"(?:\w+\s+){0,8}"
_SECRET = r"\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?\b"
_THREATS = tuple(
    (re.compile(rx, re.IGNORECASE), pid)
    for rx, pid in (
        (rf"ignore\s+{_GAP}(?:previous|all|above|prior)\s+{_GAP}instructions", "prompt_injection"),
        (r"system\s+prompt\s+override", "sys_prompt_override"),
        (
            rf"disregard\s+{_GAP}(?:your|all|any)\s+{_GAP}(?:instructions|rules|guidelines)",
            "disregard_rules",
        ),
        (rf"do\s+not\s+{_GAP}tell\s+{_GAP}the\s+user", "deception_hide"),
        (rf"curl\s+[^\n]{{0,2048}}{_SECRET}", "exfil_curl"),
        (rf"wget\s+[^\n]{{0,2048}}{_SECRET}", "exfil_wget"),
        (
            r"cat\s+[^\n]{0,2048}(?:\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)",
            "read_secrets",
        ),
        (r"(?:send|post|upload|transmit)\s+[^\n]{0,2048}\s+(?:to|at)\s+https?://", "send_to_url"),
        (r"authorized_keys", "ssh_backdoor"),
        (r"\$HOME/\.ssh|~/\.ssh", "ssh_access"),
        (r"\$HOME/\.hermes/\.env|~/\.hermes/\.env", "hermes_env"),
        (
            r"(?:api[_-]?key|token|secret|password)\s*[=:]\s*[\"'][A-Za-z0-9+/=_-]{20,}",
            "hardcoded_secret",
        ),
    )
)
# Zero-width and bidirectional controls (threat_patterns.INVISIBLE_CHARS).
INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u2060\u2062\u2063\u2064\ufeff"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def threats(content: str) -> list[str]:
    """What Hermes' scan matches in `content` (pattern ids; invisible characters as
    `invisible_unicode_U+XXXX`), checked on the first 65,536 characters."""
    if not content:
        return []
    content = content[:MAX_SCAN_CHARS]
    found = [f"invisible_unicode_U+{ord(ch):04X}" for ch in sorted(set(content) & INVISIBLE)]
    folded = unicodedata.normalize("NFKC", content)
    found.extend(pid for rx, pid in _THREATS if rx.search(folded))
    return found


def threat_message(content: str) -> str | None:
    """Why Hermes blocks this content (its first match), or None."""
    found = threats(content)
    if not found:
        return None
    first = found[0]
    if first.startswith("invisible_unicode_"):
        char = first.removeprefix("invisible_unicode_")
        return msg("it contains the invisible character {char}", char=char)
    return msg("it matches Hermes' threat pattern '{pattern}'", pattern=first)


# --- what the agent sees ------------------------------------------------------------


def snapshot_entries(entries: list[str], filename: str) -> list[str]:
    """_sanitize_entries_for_snapshot: an entry the scan flags reaches the prompt as a
    [BLOCKED: …] placeholder (the file keeps it)."""
    out = []
    for entry in entries:
        if not entry or entry.startswith("[BLOCKED:"):
            out.append(entry)
        elif len(entry) > MAX_SCAN_CHARS:
            out.append(
                f"[BLOCKED: {filename} entry too large to scan ({len(entry):,} chars). Removed "
                "from system prompt; use memory(action=remove) to delete the original.]"
            )
        elif found := threats(entry):
            out.append(
                f"[BLOCKED: {filename} entry contained threat pattern(s): {', '.join(found)}. "
                "Removed from system prompt; use memory(action=remove) to delete the original.]"
            )
        else:
            out.append(entry)
    return out


@dataclass(frozen=True, slots=True)
class Block:
    text: str  # exactly what enters the system prompt
    omitted: tuple[int, int] | None  # (char offset in the joined entries, chars) cut out


def percent(current: int, limit: int) -> int:
    """_render_block's gauge, clamped: over the limit Hermes' header still says 100%."""
    return min(100, int(current / limit * 100)) if limit > 0 else 0


def share(current: int, limit: int) -> int:
    """memtui's own figure, never clamped: 6,711 of 3,500 characters is 192%."""
    return round(current * 100 / limit) if limit > 0 else 0


def render_block(target: str, entries: list[str], limit: int) -> Block | None:
    """_render_block: the header with its percentage, the entries joined, and past
    max(2 x limit, 4,000) characters only the head (70%) and tail (20%) of it."""
    if not entries:
        return None
    content = join(entries)
    current = len(content)
    omitted = None
    cap = max(limit * 2, 4000)
    if current > cap:
        head, tail = int(cap * 0.7), int(cap * 0.2)
        gone = current - head - tail
        omitted = (head, gone)
        content = (
            content[:head]
            + f"\n\n[... {gone:,} chars truncated — memory over budget ({current:,}/{limit:,}); "
            "consolidate via memory(action=remove/replace) ...]\n\n" + content[-tail:]
        )
    over = " ⚠ OVER BUDGET" if current > limit else ""
    gauge = f"[{percent(current, limit)}% — {current:,}/{limit:,} chars{over}]"
    title = "USER PROFILE (who the user is)" if target == "user" else "MEMORY (your personal notes)"
    return Block(f"{SEPARATOR}\n{title} {gauge}\n{SEPARATOR}\n{content}", omitted)


def not_loaded(target: str) -> Msg:
    """Why a file is in no prompt: its switch is off in config.yaml."""
    return msg(
        "not loaded: memory.{key} is false in {config}, so Hermes puts no {file} block in "
        "the system prompt",
        key=ENABLED_KEYS[target],
        config=CONFIG,
        file=FILES[target].rsplit("/", 1)[-1],
    )


def alongside(provider: str) -> Msg:
    """What an external memory provider means for the files: they are still loaded."""
    return msg(
        "memory.provider is {provider!r}, an external provider Hermes runs alongside these "
        "files (they are still loaded); what it adds to the prompt and recalls each turn is "
        "not on this disk",
        provider=provider,
    )
