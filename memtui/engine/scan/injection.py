"""Planted instructions in memory text: the one rule set every layout's files and queued
writes are scanned with (Hermes' own refusal scan stays in its layout: it restates its
agent's). Each kind is a pattern that is rare in honest notes: an HTML comment is
flagged only when it holds an instruction to the model, never as a marker."""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from memtui.engine.scan.lines import Lines


class InjectionHit(NamedTuple):
    line: int  # 1-based
    start: int  # char offsets in that line of the planted text
    stop: int
    kind: str  # in words: "instruction to ignore the system", "invisible character"


_I = re.IGNORECASE
_GAP = r"(?:[\w'’,-]+\s+){0,6}?"
# A variable or file that holds a secret, as a command would name it.
_LOOT = (
    r"(?:\$\{?\w*(?:KEY|TOKEN|SECRET|PASS(?:WORD)?|CRED\w*|AUTH\w*)\w*\}?|\$\(\s*(?:cat|env|printenv)\b"
    r"|~/\.ssh|\$HOME/\.ssh|id_(?:rsa|ed25519|ecdsa)\b|\.aws/credentials|\.netrc|\.env\b"
    r"|\.npmrc|\.pypirc|/etc/(?:passwd|shadow)|\bprintenv\b|\benv\s*\|)"
)
_OVERRIDE = (
    rf"\b(?:ignore|disregard|forget|override|bypass)\s+{_GAP}(?:previous|prior|above|earlier|"
    rf"all|any|your|the|system|original)\s+{_GAP}(?:instructions?|rules|guidelines|prompts?|"
    rf"directives|guardrails|constraints)\b"
    r"|\bsystem\s+prompt\s+override\b|\bnew\s+system\s+prompt\s*:"
    r"|\byou\s+are\s+now\s+(?:in\s+)?(?:developer\s+mode|DAN|jailbroken|unrestricted|unfiltered)\b"
)
_CONCEAL = (
    rf"\b(?:do\s+not|don'?t|never)\s+{_GAP}(?:tell|inform|mention|reveal|disclose|show)\s+"
    rf"{_GAP}(?:the\s+)?(?:user|human|operator|owner)\b"
    r"|\bwithout\s+(?:telling|informing|asking|alerting)\s+(?:the\s+)?(?:user|human|operator)\b"
)
_EXFIL_CMD = (
    rf"\b(?:curl|wget|nc|ncat|scp|Invoke-WebRequest|iwr)\b[^\n]{{0,400}}?{_LOOT}"
    rf"|{_LOOT}[^\n]{{0,200}}?\|\s*(?:curl|nc|ncat|wget)\b"
)
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
    r"|\b(?:you|assistant|the\s+(?:AI|model|agent|assistant)|AI|Claude|GPT|Gemini|Codex)\s+"
    r"(?:must|should|shall|will\s+now|are\s+(?:required|instructed))\b"
    r"|\b(?:secretly|covertly|silently)\s+\w+|\bsystem\s*:\s|\binstructions?\s+(?:for|to)\s+"
    r"(?:the\s+)?(?:AI|model|agent|assistant|LLM)\b"
)

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(_OVERRIDE, _I), "instruction to ignore the system"),
    (re.compile(_CONCEAL, _I), "instruction to hide from the user"),
    (re.compile(_EXFIL_CMD, _I), "command sending a secret out"),
    (re.compile(_EXFIL_IMAGE, _I), "image URL carrying data out"),
    (re.compile(_TOKENS, _I), "fake chat-template token"),
    (re.compile(_HIDDEN_HTML, _I), "HTML hidden from the reader"),
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

    for match in _ODD.finditer(text):
        kind = _odd_kind(text, match)
        if kind:
            add(match.start(), match.end(), kind)
    folded = _folded(text)
    for rx, kind in _RULES:
        for match in rx.finditer(text):
            add(match.start(), match.end(), kind)
        if folded is not None:  # full-width or styled letters spelling the same words
            for match in rx.finditer(folded.text):
                line = folded.at(match.start())[0]
                hits.setdefault((line, kind), InjectionHit(line, 0, max(lines.end(line), 1), kind))
    for match in _COMMENT.finditer(text):
        body = match.group(1) if match.group(1) is not None else match.group(2) or ""
        if _ORDERS.search(body) or (_fold(body) != body and _ORDERS.search(_fold(body))):
            markdown = match.group(1) is None
            add(*match.span(), f"instruction in {'a Markdown' if markdown else 'an HTML'} comment")
    return sorted(hits.values(), key=lambda h: (h.line, h.start, h.kind))


def _odd_kind(text: str, match: re.Match[str]) -> str | None:
    run = match.group(0)
    if any(ch in _BIDI for ch in run):
        return "bidirectional control character"
    if run == "\ufeff" and match.start() == 0:
        return None  # a second BOM, as some editors write
    if set(run) <= _JOINERS:
        before = text[match.start() - 1 : match.start()]
        after = text[match.end() : match.end() + 1]
        if before and after and not before.isascii() and not after.isascii():
            return None  # 👩‍💻, or a ZWNJ inside a Persian word
    if any(ch in _INVISIBLE for ch in run):
        return "invisible character"
    return "invisible tag characters"  # U+E0000 block: ASCII smuggled as invisible tags


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _folded(text: str) -> Lines | None:
    """The text NFKC-folded, when that changes it and keeps every line's place."""
    if text.isascii():
        return None
    folded = _fold(text)
    if folded == text or folded.count("\n") != text.count("\n"):
        return None
    return Lines(folded)
