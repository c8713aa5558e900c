"""Planted instructions in memory text: the one rule set every layout's files and queued
writes are scanned with (Hermes' own refusal scan stays in its layout: it restates its
agent's). Each kind is a pattern that is rare in honest notes: an HTML comment is
flagged only when it holds an instruction to the model, never as a marker."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import NamedTuple

from memtui.engine.scan.lines import Lines
from memtui.i18n import N_


class InjectionHit(NamedTuple):
    line: int  # 1-based
    start: int  # char offsets in that line of the planted text
    stop: int
    kind: str  # in words: "instruction to ignore the system", "invisible character"


_I = re.IGNORECASE
_GAP = r"(?:[\w'’,-]+\s+){0,3}?"
# A variable or file that holds a secret, as a command would name it.
_LOOT = (
    r"(?:\$\{?(?-i:[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASS(?:WORD)?|CREDENTIALS?|AUTH)S?)\b\}?"
    r"|\$\(\s*(?:cat|env|printenv)\b"
    r"|~/\.ssh|\$HOME/\.ssh|id_(?:rsa|ed25519|ecdsa)\b|\.aws/credentials|\.netrc|\.env\b"
    r"|\.npmrc|\.pypirc|/etc/(?:passwd|shadow)|\bprintenv\b|\benv\s*\|)"
)
_VERB = r"\b(?:ignore|disregard|forget|override|bypass)\s+"
_OVERRIDE = (
    rf"{_VERB}{_GAP}(?:previous|prior|above|earlier|preceding|all|your|system|original)\s+"
    rf"{_GAP}(?:instructions?|prompts?|directives|guardrails)\b"
    rf"|{_VERB}{_GAP}(?:previous|prior|above|earlier|preceding|your|system|original)\s+"
    rf"{_GAP}(?:rules|guidelines|constraints)\b"
    r"|\bsystem\s+prompt\s+override\b|\bnew\s+system\s+prompt\s*:"
    r"|\byou\s+are\s+now\s+(?:in\s+)?(?:developer\s+mode|DAN|jailbroken|unrestricted|unfiltered)\b"
)
# Never "never delete without asking the user": a safeguard, the opposite of hiding.
_USER = r"(?:the\s+)?(?:user|human|operator|owner)(?!['’]s)\b"
_CONCEAL = (
    rf"\b(?:do\s+not|don'?t|never)\s+(?!forget|hesitate|fail){_GAP}(?:tell|inform|notify|alert)"
    rf"\s+{_USER}"
    rf"|\bkeep\s+(?:this|it|that)\s+(?:secret|hidden)\s+from\s+{_USER}"
    rf"|\b(?:secretly|silently|covertly)\b[^\n.]{{0,80}}\bwithout\s+(?:telling|informing)\s+{_USER}"
)
_EXFIL_CMD = rf"\b(?:curl|wget|ncat|nc|scp|Invoke-WebRequest|iwr)\b[^\n]{{0,400}}?{_LOOT}"
_EXFIL_PIPE = rf"{_LOOT}[^\n]{{0,200}}?\|\s*(?:curl|ncat|nc|wget)\b"
# A Markdown image fetched as the text is shown: its query carries data out.
_EXFIL_IMAGE = (
    r"!\[[^\]\n]*\]\(\s*<?https?://[^)\s]*\?[^)\s]*(?:\$|\{\{?|%7B|<|\b(?:data|d|q|secret|token|"
    r"key|password|pw|conversation|chat|history|memory|info|msg|leak|exfil)=)[^)\s]*\)"
)
_TOKENS = r"<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>|\[/?INST\]|<</?SYS>>"
_HIDDEN_HTML = (
    r"<[a-z][^>\n]{0,200}?\bstyle\s*=\s*[\"'][^\"'\n]*?(?:display\s*:\s*none|visibility\s*:\s*"
    r"hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])|"
    r"(?<![-\w])color\s*:\s*(?:white|#fff(?:fff)?\b|rgb\(\s*255\s*,\s*255\s*,\s*255\s*\)))"
    r"|<(?:div|span|p|section)\b[^>\n]{0,200}?\shidden(?:\s|>|=)"
)
_COMMENTS = r"<!--(.*?)(?:-->|\Z)|^\[//\]:\s*#\s*[(\"'](.*)[)\"']\s*$"
# What makes a comment an instruction to the model rather than a note or a marker.
_ORDER = (
    rf"{_OVERRIDE}|{_CONCEAL}|{_EXFIL_CMD}"
    r"|\b(?:assistant|the\s+(?:AI|model|agent|assistant)|AI|Claude|GPT|Gemini|Codex|LLM)\s+"
    r"(?:must|should|shall|will\s+now|is\s+(?:required|instructed))\b"
    r"|\byou\s+(?:must|will|shall)\s+(?:now\s+)?(?:always|never|not|ignore|send|run|execute|"
    r"obey|include|add|reveal|fetch|visit)\b|\bfrom\s+now\s+on\b"
    r"|\b(?:secretly|covertly|silently)\s+\w+|\bsystem\s*:\s|\binstructions?\s+(?:for|to)\s+"
    r"(?:the\s+)?(?:AI|model|agent|assistant|LLM)\b"
)

_EXFIL = re.compile(_EXFIL_CMD, _I)
_LOOTS = re.compile(_LOOT, _I)
# A token in the header that authenticates to the API called: how a request is made,
# not data sent out (`curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com`).
_AUTH_HEADER = re.compile(
    r"(?:authorization|x-api-key|api-key|private-token)\s*:\s*(?:bearer\s+|token\s+|basic\s+)?"
    r"\$\{?\w+\}?",
    _I,
)

# (pattern, kind, where it may start, lower-cased): a pattern is tried only where one of
# its first words is (found by str.find, a hundred times quicker than a pattern's search
# that may start anywhere, and most notes hold none of them).
_RULES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = (
    (
        re.compile(_OVERRIDE, _I),
        N_("instruction to ignore the system"),
        ("ignore", "disregard", "forget", "override", "bypass", "system", "new", "you are"),
    ),
    (
        re.compile(_CONCEAL, _I),
        N_("instruction to hide from the user"),
        ("do not", "don", "never", "keep", "secretly", "silently", "covertly"),
    ),
    (
        _EXFIL,
        N_("command sending a secret out"),
        ("curl", "wget", "nc", "scp", "invoke-webrequest", "iwr"),
    ),
    (
        re.compile(_EXFIL_PIPE, _I),
        N_("command sending a secret out"),
        ("$", "~/", "id_", ".aws", ".netrc", ".env", ".npmrc", ".pypirc", "/etc/", "printenv"),
    ),
    (re.compile(_EXFIL_IMAGE, _I), N_("image URL carrying data out"), ("![",)),
    (re.compile(_TOKENS, _I), N_("fake chat-template token"), ("<|", "[inst]", "[/inst]", "<<")),
    (re.compile(_HIDDEN_HTML, _I), N_("HTML hidden from the reader"), ("<",)),
)
_COMMENT = re.compile(_COMMENTS, re.DOTALL | re.MULTILINE)
_ORDERS = re.compile(_ORDER, _I)

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e")
_JOINERS = frozenset("\u200c\u200d")  # honest inside emoji sequences and Indic, Persian words
_ODD = re.compile(
    "[\u200b-\u200d\u2060-\u2064\ufeff\u180e\u202a-\u202e\u2066-\u2069"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]+"
)


def find_injections(text: str) -> list[InjectionHit]:
    """Every planted instruction or hiding trick in `text`, by line, in order; one hit
    per kind per line (the first place on it)."""
    if not text:
        return []
    lines = Lines(text)
    hits: dict[tuple[int, str], InjectionHit] = {}

    def add(start: int, stop: int, kind: str) -> None:
        line, a, b = lines.span(start, stop)
        hits.setdefault((line, kind), InjectionHit(line, a, max(b, a + 1), kind))

    plain = text.isascii() or not _UNUSUAL.search(text)  # most text: one pass, no more
    for match in () if plain else _ODD.finditer(text):
        kind = _odd_kind(text, match)
        if kind:
            add(match.start(), match.end(), kind)
    folded = None if plain else _folded(text)
    src = text if folded is None else folded.text  # the rules read the folded letters
    lower = src.lower()
    for rx, kind, starts in _RULES:
        for match in _matches(rx, src, lower, starts):
            if not _quoted(src, *match.span()) and (rx is not _EXFIL or _sends(src, match)):
                add(*_place(text, lines, folded, rx, match), kind)
    for match in _COMMENT.finditer(src) if "<!--" in src or "[//]:" in src else ():
        body = match.group(1) if match.group(1) is not None else match.group(2) or ""
        if _ORDERS.search(body):
            markdown = match.group(1) is None
            kind = (
                N_("instruction in a Markdown comment")
                if markdown
                else N_("instruction in an HTML comment")
            )
            add(*_place(text, lines, folded, _COMMENT, match), kind)
    return sorted(hits.values(), key=lambda h: (h.line, h.start, h.kind))


def _matches(
    rx: re.Pattern[str], src: str, lower: str, starts: tuple[str, ...]
) -> Iterator[re.Match[str]]:
    """`rx`'s matches in `src`, tried where one of `starts` is in `lower` (its
    lower-cased copy, of the same length, or else `rx` searches all of it)."""
    if len(lower) != len(src):  # a letter whose lower case is two ("İ"): no shortcut
        yield from rx.finditer(src)
        return
    places: set[int] = set()
    for word in starts:
        at = lower.find(word)
        while at != -1:
            places.add(at)
            at = lower.find(word, at + 1)
    done = 0
    for at in sorted(places):
        if at >= done and (match := rx.match(src, at)):
            done = match.end()
            yield match


def _sends(src: str, match: re.Match[str]) -> bool:
    """Whether the command's line carries a secret beyond its own auth header."""
    end = src.find("\n", match.start())
    rest = src[match.start() : len(src) if end == -1 else end]
    return _LOOTS.search(_AUTH_HEADER.sub("", rest)) is not None


_QUOTES = {'"': '"', "“": "”", "'": "'", "‘": "’", "`": "`", "«": "»"}


def _quoted(src: str, start: int, stop: int) -> bool:
    """Whether the match is a quotation (`warn on "ignore previous instructions"`): a
    note about an attack, not one. Quotes around it, as the sentence would write them."""
    close = _QUOTES.get(src[start - 1 : start])
    return close is not None and src[stop : stop + 1] == close


def _odd_kind(text: str, match: re.Match[str]) -> str | None:
    run = match.group(0)
    if any(ch in _BIDI for ch in run):
        return N_("bidirectional control character")
    if run == "\ufeff" and match.start() == 0:
        return None  # a second BOM, as some editors write
    if set(run) <= _JOINERS:
        before = text[match.start() - 1 : match.start()]
        after = text[match.end() : match.end() + 1]
        if before and after and not before.isascii() and not after.isascii():
            return None  # 👩‍💻, or a ZWNJ inside a Persian word
    if any(ch in _INVISIBLE for ch in run):
        return N_("invisible character")
    return N_("invisible tag characters")  # U+E0000 block: ASCII smuggled as invisible tags


# Letters an attacker spells words in to pass a filter (full-width, mathematical): the
# text is NFKC-folded only when it holds one (full-width punctuation is common in CJK).
_STYLED = re.compile("[\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff]")
# Any character either of the two above looks for, found in one pass.
_UNUSUAL = re.compile(_ODD.pattern.rstrip("+")[:-1] + _STYLED.pattern[1:])


def _folded(text: str) -> Lines | None:
    """The text NFKC-folded, when it holds styled letters and folding keeps every line's
    place."""
    if not _STYLED.search(text):
        return None
    folded = unicodedata.normalize("NFKC", text)
    if folded.count("\n") != text.count("\n"):
        return None
    return Lines(folded)


def _place(
    text: str, lines: Lines, folded: Lines | None, rx: re.Pattern[str], match: re.Match[str]
) -> tuple[int, int]:
    """Where a match in the folded text is in `text`: the same match on that line, or
    else the whole line (its letters styled)."""
    if folded is None:
        return match.span()
    line = folded.at(match.start())[0]
    start = lines.starts[line - 1]
    stop = start + lines.end(line)
    again = rx.search(text, start, stop)
    return again.span() if again else (start, max(stop, start + 1))
