"""OpenClaw's own numbers and cuts, kept exact: what `context` shows and the findings
rest on them. Source: openclaw/openclaw as published (npm `openclaw` 2026.9.6):
`src/agents/embedded-agent-helpers/bootstrap.ts` (trimBootstrapContent,
trimAgentsBootstrapContent, buildBootstrapContextFiles, clampToBudget,
USER_BOOTSTRAP_MAX_CHARS), `src/agents/workspace-bootstrap-policy.ts`
(WORKSPACE_BOOTSTRAP_FILENAMES), `src/agents/workspace.ts`
(loadWorkspaceBootstrapFiles), `src/memory/root-memory-files.ts` and `src/utils.ts`
(sliceUtf16Safe, truncateUtf16Safe). OpenClaw counts characters as JavaScript does:
UTF-16 code units (a CJK character is one, an emoji two).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memtui.engine.layouts.common import JS_SPACE
from memtui.i18n import N_
from memtui.layouts.openclaw.detect import AGENTS, MEMORY  # noqa: F401 - re-exported

# WORKSPACE_BOOTSTRAP_FILENAMES, in prompt order (workspace-bootstrap-policy.ts).
BOOTSTRAP = (
    "AGENTS.md",
    "SOUL.md",
    "IDENTITY.md",
    "USER.md",
    "BOOTSTRAP.md",
    "MEMORY.md",
)
# Injected only when there (exact case, exactWorkspaceEntryExists): no [MISSING] marker.
# BOOTSTRAP.md too: once it is gone OpenClaw's state says setup is complete, and
# filterCompletedWorkspaceBootstrapFile drops it (bootstrap-files.ts).
OPTIONAL = ("USER.md", "BOOTSTRAP.md", "MEMORY.md")
# Bootstrap files of older releases, injected no more: `openclaw doctor --fix` merges
# TOOLS.md into AGENTS.md's `## Tools` (doctor-tools-md-migration.ts) and HEARTBEAT.md
# into the heartbeat's cron scratch (doctor-heartbeat-scratch-migration.ts).
RETIRED = ("TOOLS.md", "HEARTBEAT.md")
RETIRED_WHY = {
    "TOOLS.md": N_("`openclaw doctor --fix` merges it into AGENTS.md's `## Tools` section"),
    "HEARTBEAT.md": N_("`openclaw doctor --fix` moves it into the heartbeat's cron scratch"),
}
FILES = (*BOOTSTRAP, *RETIRED)  # every root file of the workspace memtui edits
# Dreaming's diary, for a person to read, never injected (dreaming-dreams-file.ts
# DREAMS_FILENAMES; memory-path-provenance.ts counts it, memory/.dreams/ and
# memory/dreaming/ as the system's own: folders below memory/, never daily notes).
DREAMS = ("DREAMS.md", "dreams.md")
LEFTOVER = "BOOTSTRAP.md"
MAX_CHARS = 20_000  # DEFAULT_BOOTSTRAP_MAX_CHARS (agents.defaults.bootstrapMaxChars)
TOTAL_MAX_CHARS = 60_000  # DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS
USER = "USER.md"
USER_MAX_CHARS = 4_000  # USER_BOOTSTRAP_MAX_CHARS: USER.md's own, smaller cap


def cap(name: str) -> int:
    """A file's own cap: min(bootstrapMaxChars, 4,000) for USER.md (isUserBootstrapFile
    compares lower-cased)."""
    return min(MAX_CHARS, USER_MAX_CHARS) if name.lower() == USER.lower() else MAX_CHARS


def warn_at(name: str) -> int:
    """SPEC §5: bootstrap-size warns from 80% of the file's cap."""
    return cap(name) * 8 // 10


MIN_FILE_BUDGET = 64  # MIN_BOOTSTRAP_FILE_BUDGET_CHARS
MIN_TRIMMED = 16  # MIN_BOOTSTRAP_TRIMMED_CONTENT_CHARS
HEAD_RATIO, TAIL_RATIO = 0.75, 0.25
AGENTS_DIGEST, AGENTS_HEAD, AGENTS_TAIL = 0.35, 0.45, 0.15
DIGEST_LINE = 240  # AGENTS_POLICY_DIGEST_MAX_LINE_CHARS

_S = "[" + re.escape(JS_SPACE) + "]"  # JavaScript's \s
_DIGEST_SHAPE = re.compile(
    rf"^(?:#{{1,6}}|{_S}*[-*+]|{_S}*\d+[.)]){_S}+[^{re.escape(JS_SPACE)}]", re.A
)
_WORDS = r"AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped"
_CJK_HIGH = "🔴|禁止|嚴禁|不得|絕不|絕對不|切勿"  # AGENTS_POLICY_DIGEST_*_PATTERN
_DIGEST_WORD = re.compile(
    rf"\b(?:{_WORDS}|owner|security|secret|credential|test|validation|command|commit|push"
    rf"|github|pr)\b|(?:{_CJK_HIGH}|必須|務必|一律|紅線)",
    re.I | re.A,
)
_HIGH = re.compile(rf"\b(?:{_WORDS}|security|secret|credential)\b|(?:{_CJK_HIGH})", re.I | re.A)
_FENCE = re.compile(rf"^{_S}*(?:`{{3,}}|~{{3,}})")
_SPACES = re.compile(_S + "+")


# --- JavaScript strings -------------------------------------------------------


def units(text: str) -> int:
    """`.length`: UTF-16 code units."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def _u16(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


def _text(code: bytes) -> str:
    return code.decode("utf-16-le", "surrogatepass")


def _unit(code: bytes, i: int) -> int:
    return code[2 * i] | code[2 * i + 1] << 8


def slice_safe(text: str, start: int, end: int | None = None) -> str:
    """sliceUtf16Safe: a slice by UTF-16 units that never splits a surrogate pair."""
    code = _u16(text)
    n = len(code) // 2
    lo = max(n + start, 0) if start < 0 else min(start, n)
    hi = n if end is None else max(n + end, 0) if end < 0 else min(end, n)
    lo, hi = min(lo, hi), max(lo, hi)
    if 0 < lo < n and _low(_unit(code, lo)) and _high(_unit(code, lo - 1)):
        lo += 1
    if 0 < hi < n and _high(_unit(code, hi - 1)) and _low(_unit(code, hi)):
        hi -= 1
    return _text(code[2 * lo : 2 * hi])


def truncate_safe(text: str, limit: int) -> str:
    """truncateUtf16Safe."""
    limit = max(0, limit)
    return text if units(text) <= limit else slice_safe(text, 0, limit)


def _high(u: int) -> bool:
    return 0xD800 <= u <= 0xDBFF


def _low(u: int) -> bool:
    return 0xDC00 <= u <= 0xDFFF


def trim_end(text: str) -> str:
    return text.rstrip(JS_SPACE)


# --- one file's cut -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trim:
    """What trimBootstrapContent gives for one file."""

    content: str  # what is injected (the marker included)
    truncated: bool
    original: int  # UTF-16 units of the file's text, trailing whitespace trimmed
    head: str  # the part of the file kept from its start (all of it when not cut)
    tail_units: int  # units kept from its end
    trimmed: str  # the file's text, trailing whitespace trimmed (what the cut is of)


def trim(content: str, name: str, max_chars: int = MAX_CHARS) -> Trim:
    trimmed = trim_end(content)
    length = units(trimmed)
    if length <= max_chars:
        return Trim(trimmed, False, length, trimmed, 0, trimmed)
    if name.lower() == AGENTS.lower():
        return _trim_agents(trimmed, length, max_chars)

    def full(h: int, t: int) -> str:
        return "\n".join(
            [
                "",
                f"[...truncated, read {name} for full content...]",
                f"…(truncated {name}: kept {h}+{t} chars of {length})…",
                "",
            ]
        )

    def compact(h: int, t: int) -> str:
        return f"[…truncated {h}+{t}/{length}]"

    def separators(h: int, t: int, marker: str) -> int:
        return int(h > 0) + int(t > 0) if "\n" in marker else 0

    first = full(0, 0)
    use_full = max_chars - units(first) - separators(1, 1, first) >= MIN_TRIMMED
    template = full if use_full else compact
    head = tail = 0
    marker = template(head, tail)
    for _ in range(3):
        budget = max(0, max_chars - units(marker) - separators(head, tail, marker))
        nh, nt = int(budget * HEAD_RATIO), int(budget * TAIL_RATIO)
        nm = template(nh, nt)
        if nh == head and nt == tail and units(nm) == units(marker):
            break
        head, tail, marker = nh, nt, nm
    rendered = head + tail + units(marker) + separators(head, tail, marker)
    while rendered > max_chars and (tail > 0 or head > 0):
        over = rendered - max_chars
        if tail > 0:
            tail = max(0, tail - over)
        else:
            head = max(0, head - over)
        marker = template(head, tail)
        rendered = head + tail + units(marker) + separators(head, tail, marker)
    if head == 0 and tail == 0 and length > 0:
        single = template(1, 0)
        if 1 + units(single) + separators(1, 0, single) <= max_chars:
            head, marker = 1, single
    head_text = slice_safe(trimmed, 0, head)
    tail_text = slice_safe(trimmed, -tail) if tail > 0 else ""
    joiner = "\n" if "\n" in marker else ""
    out = joiner.join(p for p in (head_text, marker, tail_text) if p)
    if units(out) > max_chars:
        out = truncate_safe(out, max_chars)
    return Trim(out, True, length, head_text, units(tail_text), trimmed)


def _candidates(content: str) -> list[tuple[str, bool]]:
    """trimAgentsBootstrapContent's digest candidates: (text, high priority). A policy
    line takes the prose line just before it along (joined by a newline); a blank line
    or a code fence breaks that."""
    out: list[tuple[str, bool]] = []
    prose: str | None = None
    for source in re.split(r"\r?\n", content):
        line = _digest_line(source)
        if not line or _FENCE.search(line):
            prose = None
        elif _DIGEST_SHAPE.search(line) or _DIGEST_WORD.search(line):
            out.append((line if prose is None else f"{prose}\n{line}", bool(_HIGH.search(line))))
            prose = None
        else:
            prose = line
    return out


def _digest(cands: list[tuple[str, bool]], budget: int) -> tuple[str, int]:
    """buildAgentsPolicyDigest: (text, candidates omitted)."""
    if budget <= 0:
        return "", 0
    chosen: set[int] = set()
    used = 0
    for high in (True, False):
        for i, (text, urgent) in enumerate(cands):
            if (high and not urgent) or (not high and i in chosen):
                continue
            sep = 1 if chosen else 0
            if used + sep + units(text) <= budget:
                chosen.add(i)
                used += sep + units(text)
    kept = [text for i, (text, _) in enumerate(cands) if i in chosen]
    return "\n".join(kept), max(0, len(cands) - len(chosen))


def _digest_line(line: str) -> str:
    s = _SPACES.sub(" ", line.strip(JS_SPACE))
    return s if units(s) <= DIGEST_LINE else truncate_safe(s, DIGEST_LINE - 1) + "…"


def _trim_agents(trimmed: str, length: int, max_chars: int) -> Trim:
    """trimAgentsBootstrapContent: head, a digest of policy lines, tail."""
    head = int(max_chars * AGENTS_HEAD)
    tail = int(max_chars * AGENTS_TAIL)
    budget = int(max_chars * AGENTS_DIGEST)
    cands = _candidates(trimmed) if budget > 0 else []
    digest, omitted = _digest(cands, budget)

    def render() -> str:
        parts = [
            slice_safe(trimmed, 0, head),
            f"[...truncated, read {AGENTS} for full content...]",
            "[Policy digest from AGENTS.md]" if digest else "",
            digest,
            f"[...{omitted} more policy lines omitted...]" if omitted > 0 else "",
            f"…(truncated {AGENTS}: kept {head}+policy {units(digest)}+{tail} chars of {length})…",
            slice_safe(trimmed, -tail) if tail > 0 else "",
        ]
        return "\n".join(p for p in parts if p)

    out = render()
    while units(out) > max_chars and (tail > 0 or head > 1 or budget > 0):
        over = units(out) - max_chars
        if tail > 0:
            tail = max(0, tail - over)
        elif head > 1:
            head = max(1, head - over)
        else:
            budget = max(0, budget - over)
            digest, omitted = _digest(cands, budget)
        out = render()
    tail_text = slice_safe(trimmed, -tail) if tail > 0 else ""
    out = truncate_safe(out, max_chars) if units(out) > max_chars else out
    return Trim(out, True, length, slice_safe(trimmed, 0, head), units(tail_text), trimmed)


def clamp(content: str, budget: int) -> str:
    """clampToBudget: what the whole-prompt budget leaves of a file's text."""
    if budget <= 0:
        return ""
    if units(content) <= budget:
        return content
    if budget <= 3:
        return truncate_safe(content, budget)
    return truncate_safe(content, budget - 1) + "…"


# --- every file, in order -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Injected:
    """One bootstrap file as buildBootstrapContextFiles injects it."""

    name: str
    text: str  # what the agent receives
    missing: bool
    trim: Trim | None  # None: missing
    clamped: bool  # the whole-prompt budget (60,000) cut it further
    loaded_prefix: str  # the file's text the agent gets from its start


def build(files: list[tuple[str, str | None]], missing_path: dict[str, str]) -> list[Injected]:
    """(name, text or None when missing) in loadWorkspaceBootstrapFiles' order."""
    remaining = max(1, max(MAX_CHARS, TOTAL_MAX_CHARS))
    out: list[Injected] = []
    for name, text in files:
        if remaining <= 0:
            break
        if text is None:
            marker = clamp(f"[MISSING] Expected at: {missing_path[name]}", remaining)
            if not marker:
                break
            remaining = max(0, remaining - units(marker))
            out.append(Injected(name, marker, True, None, False, ""))
            continue
        if remaining < MIN_FILE_BUDGET:
            break
        cut = trim(text, name, max(1, min(cap(name), remaining)))
        within = clamp(cut.content, remaining)
        if not within:
            continue
        clamped = units(within) < units(cut.content)
        prefix = cut.head
        if clamped:
            kept = within[:-1] if within.endswith("…") and units(within) > 3 else within
            prefix = kept if not cut.truncated or units(kept) < units(cut.head) else cut.head
        remaining = max(0, remaining - units(within))
        out.append(Injected(name, within, False, cut, clamped, prefix))
    return out


ALT_MEMORY = "memory.md"  # MEMORY.md in lower case (memory-case: both there)


def first_unloaded(item: Injected) -> int | None:
    """The 1-based line of the first character of the file the agent does not get
    from its start (None: it gets the whole file)."""
    t = item.trim
    if t is None or (not t.truncated and not item.clamped):
        return None
    prefix = item.loaded_prefix
    line = prefix.count("\n") + 1
    rest = t.trimmed[len(prefix) :]
    return line + 1 if rest.startswith(("\n", "\r\n")) else line
