"""Letta Code's MemFS rules as memtui keeps them, each from letta-ai/letta-code's source:

- `src/utils/frontmatter.ts` parseFrontmatter: how a memory file splits into its front
  matter and the body the prompt gets (parse_frontmatter);
- `src/agent/memory-git-hooks.ts` PRE_COMMIT_HOOK_SCRIPT: what a commit of a `system/`
  or `reference/` file must carry (hook_problems);
- `src/utils/system-prompt-size.ts` and `src/cli/helpers/system-prompt-warning.ts`: the
  prompt's token estimate (4 bytes a token) and the 30,000 tokens at which the harness
  flags it for /doctor;
- JavaScript's own `String.prototype.trim` and `localeCompare` (ICU root collation),
  which the compilation sorts and trims with (js_trim, locale_key).
"""

from __future__ import annotations

import math
import re
import unicodedata

from memtui.engine.model import ERROR, INFO, WARNING
from memtui.i18n import N_
from memtui.layouts.letta.place import DOCTOR_TOKENS, THRESHOLDS  # noqa: F401 - re-exported

SYSTEM = "system/"  # in-context memory blocks (system-prompt-compilation.ts)
SKILLS = "skills/"  # procedural memory: not listed in <memory> (the skills block is)
PERSONA = "system/persona.md"  # rendered as <self>
ARCHIVE = "archive/"  # where memtui moves an archived block (out of system/)
# The files the pre-commit hook validates (its grep): `(memory/)?(system|reference)/…md`.
HOOKED = re.compile(r"^(memory/)?(system|reference)/.*\.md$")
KNOWN_KEYS = ("description", "read_only", "limit")  # ALL_KNOWN_KEYS in the hook
NO_DESCRIPTION = "missing required field 'description'"
EMPTY_DESCRIPTION = "'description' must not be empty"
DESCRIPTION_SAID = (NO_DESCRIPTION, EMPTY_DESCRIPTION)

BYTES_PER_TOKEN = 4  # SYSTEM_PROMPT_BYTES_PER_TOKEN (system-prompt-size.ts)

CODES: dict[str, tuple[str, str]] = {
    "letta-uncommitted": (
        WARNING,
        N_(
            "a memory file differs from the committed HEAD: the agent loads HEAD, and its "
            "memory tools refuse to write while the repository has uncommitted changes"
        ),
    ),
    "letta-frontmatter": (
        ERROR,
        N_(
            "front matter the pre-commit hook refuses (missing, never closed, an unknown key) "
            "or the memory tool cannot edit"
        ),
    ),
    "letta-description": (WARNING, N_("front matter without a non-empty `description:`")),
    "letta-prompt-size": (
        WARNING,
        N_("system/ past the token estimate at which Letta Code flags the prompt for /doctor"),
    ),
    "letta-limit": (INFO, N_("a block longer than the legacy `limit:` its front matter gives")),
    "letta-name-unloaded": (
        WARNING,
        N_("a committed .md file whose name git quotes: the prompt compilation skips it"),
    ),
    "letta-git": (ERROR, N_("git cannot read the repository: what the agent loads is unknown")),
    "letta-no-repo": (
        INFO,
        N_(
            "a memory folder that is no git repository of its own: read as the agent would "
            "compile it once committed; memtui commits nothing there"
        ),
    ),
}

# JavaScript's White_Space and line terminators (String.prototype.trim), not Python's
# str.strip (which also strips \x1c-\x1f and keeps U+FEFF).
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    return text.strip(JS_SPACE)


def js_trim_end(text: str) -> str:
    return text.rstrip(JS_SPACE)


def tokens(size: int) -> int:
    """estimateSystemTokens: ceil(bytes / 4)."""
    return math.ceil(size / BYTES_PER_TOKEN)


# --- parseFrontmatter (src/utils/frontmatter.ts) -------------------------------------

FRONT = re.compile(r"---\n([\s\S]*?)\n---(?:\n([\s\S]*))?")


def normalized(raw: str) -> str:
    """A BOM stripped, CRLF and lone CR made LF: what parseFrontmatter reads."""
    return raw.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def parse_frontmatter(raw: str) -> tuple[dict[str, str | list[str]], str]:
    """(front matter, body) exactly as parseFrontmatter gives them: with no front matter
    the body is the whole (normalized) text, untrimmed; else the body is trimmed."""
    text = normalized(raw)
    m = FRONT.fullmatch(text)
    if m is None:
        return {}, text
    front: dict[str, str | list[str]] = {}
    key: str | None = None
    items: list[str] = []
    for line in m.group(1).split("\n"):
        if js_trim(line).startswith("-") and key:
            items.append(js_trim(js_trim(line)[1:]))
            continue
        if key:
            front[key] = items if items else ""
            key, items = None, []
        colon = line.find(":")
        if colon > 0:
            name, value = js_trim(line[:colon]), js_trim(line[colon + 1 :])
            if value:
                front[name] = value
            else:
                key, items = name, []
    if key:
        front[key] = items if items else ""
    return front, js_trim(m.group(2) or "")


def description(front: dict[str, str | list[str]]) -> str:
    value = front.get("description")
    return js_trim(value) if isinstance(value, str) else ""


def limit_of(front: dict[str, str | list[str]]) -> int | None:
    value = front.get("limit")
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else None


# --- the pre-commit hook (src/agent/memory-git-hooks.ts), line for line -------------


def _bash_lines(text: str) -> list[str]:
    """`echo "$(git show ...)"` piped on: trailing newlines gone, split at LF only (a
    CRLF file's lines keep their CR, so `---\\r` is no `---`)."""
    return text.rstrip("\n").split("\n")


def _closing(lines: list[str]) -> int | None:
    """`tail -n +2 | grep -n '^---$' | head -1`: the 1-based line after the first."""
    for n, line in enumerate(lines[1:], 1):
        if line == "---":
            return n
    return None


def fm_value(text: str | None, key: str) -> str:
    """get_fm_value: the first `key:` line's value in the front matter, trimmed of
    spaces (cut -d: -f2- | sed)."""
    if not text:
        return ""
    lines = _bash_lines(text)
    close = _closing(lines)
    if close is None:
        return ""
    for line in lines[1:close]:
        if line.startswith(f"{key}:"):
            return line.split(":", 1)[1].strip(" ")
    return ""


def hook_problems(staged: str, head: str | None, changed: bool = True) -> list[str]:
    """What the pre-commit hook says of a file it validates, staged as `staged`, HEAD
    holding `head` (None: a new file). Empty: it lets the commit through. `changed`
    False: the file as committed, of which only what any later commit of it meets is
    said (the read_only guards compare with HEAD: they pass an unchanged file)."""
    if not changed:
        head = None
    lines = _bash_lines(staged)
    if lines[0] != "---":
        return ["missing frontmatter (must start with ---)"]
    close = _closing(lines)
    if close is None:
        return ["frontmatter opened but never closed (missing closing ---)"]
    if head and fm_value(head, "read_only") == "true":
        return ["file is read_only and cannot be modified"]
    said, described = [], False
    for line in lines[1:close]:
        if not line or line[0] in " \t":
            continue  # YAML continuation lines
        key = line.split(":", 1)[0].replace(" ", "")
        value = line.split(":", 1)[1].strip(" ") if ":" in line else line.strip(" ")
        if key not in KNOWN_KEYS:
            said.append(f"unknown frontmatter key '{key}' (allowed: {' '.join(KNOWN_KEYS)})")
            continue
        if key == "read_only" and changed:
            if head and value != fm_value(head, key):
                said.append("'read_only' is a protected field and cannot be changed by the agent")
            elif not head:
                said.append("'read_only' is a protected field and cannot be set by the agent")
        if key == "description":
            described = True
            if not value:
                said.append(EMPTY_DESCRIPTION)
    if not described:
        said.append(NO_DESCRIPTION)
    if head and fm_value(head, "read_only") and not fm_value(staged, "read_only"):
        said.append("'read_only' is a protected field and cannot be removed by the agent")
    return said


# --- the memory tool (src/tools/impl/memory.ts parseMemoryFile) ---------------------

# What the agent's own memory tool reads a file it edits by: front matter, CRLF or not,
# with a non-empty description (it writes back only description and read_only, so a
# key the hook does not know goes with its first edit).
TOOL_FRONT = re.compile(r"---\r?\n([\s\S]*?)\r?\n---\r?\n?[\s\S]*")
NO_FRONT = "no front matter"


def tool_problems(text: str) -> list[str]:
    """Why the memory tool refuses to edit the file (as the hook would refuse a commit
    of it), or nothing."""
    m = TOOL_FRONT.fullmatch(text)
    if m is None:
        return [NO_FRONT]
    said = ""
    for line in re.split(r"\r?\n", m.group(1)):
        idx = line.find(":")
        if idx > 0 and js_trim(line[:idx]) == "description":
            said = js_trim(line[idx + 1 :])
    return [] if said else [NO_DESCRIPTION]


# --- localeCompare (ICU root collation, as Node sorts with it) -------------------------

# ICU's root order of the ASCII punctuation and symbols, all before digits and letters
# (alternate=non-ignorable): what `a.localeCompare(b)` sorts "a_b" < "a-b" < "ab" by.
PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
_RANK = {c: i for i, c in enumerate(PUNCTUATION)}
_DIGITS = len(PUNCTUATION)
_LETTERS = _DIGITS + 10


def _weights(ch: str) -> tuple[int, int, int]:
    """(primary, secondary, tertiary) of one character: its base letter, its accents,
    its case (lower before upper)."""
    base = unicodedata.normalize("NFD", ch)
    letter, accents = base[0], base[1:]
    folded = letter.lower()
    tertiary = 1 if folded != letter else 0
    secondary = sum(ord(a) for a in accents)
    if letter in _RANK:
        return _RANK[letter], secondary, tertiary
    if "0" <= letter <= "9":
        return _DIGITS + ord(letter) - 48, secondary, tertiary
    if "a" <= folded <= "z":
        return _LETTERS + ord(folded) - 97, secondary, tertiary
    return _LETTERS + 26 + ord(folded[0]), secondary, tertiary  # past Latin: by code point


# Past ASCII this is near ICU, not equal (accents, ß, ø): such a name never reaches the
# compilation, as git quotes it in `ls-tree` unless core.quotepath is off.


def locale_key(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A sort key that orders as JavaScript's `localeCompare` does (ICU's three levels:
    letters first, then accents, then case), for the names a memory repository holds."""
    w = [_weights(c) for c in text]
    return tuple(p for p, _, _ in w), tuple(s for _, s, _ in w), tuple(t for _, _, t in w)
