"""Which texts the exact scan (secrets.find_secrets, injection.find_injections) must
read: one pass over all of them at once, so that opening a store does not run every
rule over every file (the --size 500 demo: 17,017 files, none of them with a hit).

Every rule's match holds one of the anchors below, as its ASCII letters lower-cased
(in UTF-8 bytes): a text without one
holds no hit. An anchor with a check is kept only where the check matches at it (a
looser form of the rule, in bytes: a class of characters of any width, a count of
characters up to four bytes each). A text holding a character a rule may read as an
ASCII letter (İ ı ſ K: the rules ignore case; NFKC-folded styled letters) or an
invisible one is read whole. All the texts are joined by NUL, which no anchor holds,
so no anchor spans two texts.

The anchors are found by Aho-Corasick (ahocorasick-rs, in Rust: every anchor in one
pass, some 40 ms for the demo's 25 MB); without it every text is read whole."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import cache
from itertools import accumulate
from threading import Thread

# What \s is in a str pattern, exactly, in UTF-8 bytes: the ASCII ones, and the wider
# ones as their bytes (str.isspace() beyond ASCII; written out: working them out was
# 3 ms of every open).
WIDE_SPACES = (
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_MB_SPACE = b"(?:" + b"|".join(re.escape(space.encode()) for space in WIDE_SPACES) + b")"
_SPACE = rb"(?:[\t-\r \x1c-\x1f]|" + _MB_SPACE + b")"
# \w and ' ’ , - (any character of more than one byte but a space): never a space's byte,
# so that a run of words and spaces reads one way only. (With one byte class for both,
# "ignore" and a line of Chinese took seconds: the regex tried every split of it.)
_WORD = rb"(?:[0-9a-z_',-]|(?!" + _MB_SPACE + rb")[\xc0-\xff][\x80-\xbf]*)"
_USER = rb"(?:the" + _SPACE + rb"+)?(?:user|human|operator|owner)"
_AWS_KEY = rb"(?:a3t[a-z0-9]|abia|acca|akia|asia)[0-9a-z]{16}"
# injection._OVERRIDE's verbs, up to the word that makes them one
_OVERRIDE = (
    rb"(?:ignore|disregard|forget|override|bypass)"
    + (_SPACE + rb"+(?:" + _WORD + rb"+" + _SPACE + rb"+){0,3}")
    + rb"(?:previous|prior|above|earlier|preceding|all|your|system|original)"
    + _SPACE
)
_COMMAND = re.compile(rb"\b(?:curl|wget|ncat|nc|scp|invoke-webrequest|iwr)\b")
_URL_PART = rb"[^:/?#\[\]@!$&'()*+,;=\s]+"


def _run(anchor: bytes, n: int, chars: bytes = b"0-9a-z_-") -> bytes:
    """`anchor` then `n` token characters (ASCII: the formats' classes have no case flag)."""
    return re.escape(anchor) + b"[" + chars + b"]{" + str(n).encode() + b"}"


# anchor (ASCII lower case) -> a check that must match where it is found, or None
_ANCHORS: dict[bytes, bytes | None] = {
    # secrets (secrets.py, plugins.py): the literal each provider format starts with
    b"private key": None,
    # the shortest run of token characters each format has after its literal: "sk-" and
    # "sg." are in honest words ("risk-free", "msg.", a file named "nas-sg.md")
    b"sk-": _run(b"sk-", 24),  # sk-ant- and 20, sk-proj- and 20, sk- and 32, ...T3BlbkFJ
    **dict.fromkeys((b"a3t", b"abia", b"acca", b"akia", b"asia"), _AWS_KEY),
    b"aws": rb"aws[^\n]{0,80}?(?:key|pw|pass|token)[^\n]{0,80}?['\"][0-9a-z/+]{40}['\"]",
    **{a: _run(a, 36, b"0-9a-z_") for a in (b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_")},
    b"github_pat_": _run(b"github_pat_", 22, b"0-9a-z_"),
    **{a: _run(a, 20) for a in (b"glpat-", b"gldt-", b"glft-", b"glsoat-", b"glrt-")},
    **{a: _run(a, 20) for a in (b"gr1348941", b"glcbt-", b"glimt-", b"glptt-", b"glagent-")},
    b"gloas-": _run(b"gloas-", 64),
    b"xox": rb"xox[abposr]-",  # (Slack's rule ignores case: "ſ" is read whole)
    **dict.fromkeys((b"hooks.slack.com", b"xapp-")),
    **{a: _run(a, 24, b"0-9a-z") for a in (b"k_live_", b"k_test_")},
    b"aiza": _run(b"aiza", 35),
    b"sg.": _run(b"sg.", 22) + rb"\.",
    b"npm_": _run(b"npm_", 36, b"0-9a-z"),
    b"hf_": _run(b"hf_", 34, b"0-9a-z"),
    **dict.fromkeys((b"/:_authtoken=", b"pypi-ag", b"sq0csp-", b"accountkey=")),
    b"eyj": rb"eyj[0-9a-z=_-]+\.[0-9a-z=_-]",
    b"-us": rb"-us[0-9]",  # Mailchimp
    b"://": b"://" + _URL_PART + b":" + _URL_PART + b"@",  # a password in a URL
    # injection.py: each rule's verb, or the words or characters its form needs
    **dict.fromkeys((b"ignore", b"disregard", b"forget", b"override", b"bypass"), _OVERRIDE),
    b"prompt": rb"prompt(?:" + _SPACE + rb"+override|" + _SPACE + rb"*:)",
    b"now": rb"now" + _SPACE + rb"+(?:in" + _SPACE + rb"+)?(?:developer|dan|jail|unre|unfi)",
    **dict.fromkeys(
        (b"tell", b"inform", b"notify", b"alert", b"from"),
        rb"(?:tell(?:ing)?|inform(?:ing)?|notify|alert|from)" + _SPACE + b"+" + _USER,
    ),
    **dict.fromkeys((b"![", b"[inst]", b"[/inst]", b"[//]:")),
    b"<": rb"<(?:!--|\||<sys>>|</sys>>|[a-z][^>\n]{0,800}?style|(?:div|span|p|section)\b)",
    # findings.py: an invisible character as JSON writes it
    **dict.fromkeys((b"\\u200", b"\\u206", b"\\ufeff", b"\\u202", b"\\udb40")),
}
# What a command sends out (injection._LOOT): kept where its check matches and a command
# is before it on its line or a pipe after it (_EXFIL_CMD, _EXFIL_PIPE).
_LOOT: dict[bytes, bytes] = {
    b"$": rb"\$(?:\{?[a-z0-9_]*(?:key|token|secret|pass|credential|auth)|\("
    + _SPACE
    + rb"*(?:cat|env|printenv)|home/\.ssh)",
    **{a: re.escape(a) for a in (b"~/.ssh", b"id_rsa", b"id_ed25519", b"id_ecdsa", b".netrc")},
    **{a: re.escape(a) for a in (b".aws/credentials", b".env", b".npmrc", b".pypirc")},
    **{a: re.escape(a) for a in (b"/etc/passwd", b"/etc/shadow", b"printenv")},
    b"env": rb"env" + _SPACE + rb"*\|",
}
# Characters the rules may read as ASCII letters (ignoring case, or NFKC-folded), and the
# invisible ones (injection._UNUSUAL), as code point ranges: a text holding one is read whole.
WHOLE = (
    (0x130, 0x131),  # İ ı
    (0x17F, 0x17F),  # ſ
    (0x212A, 0x212A),  # K (Kelvin)
    (0x180E, 0x180E),
    (0x200B, 0x200D),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x2069),
    (0xFEFF, 0xFEFF),
    (0xFF21, 0xFF3A),
    (0xFF41, 0xFF5A),
    (0x1D400, 0x1D7FF),
    (0xE0000, 0xE007F),
    (0xE0100, 0xE01FF),  # (the tags' variation selectors end at U+E01EF)
)
# Case-sensitive: Twilio's keys (its plugins' "AC"/"SK" are too common lower-cased), and
# two forms with no literal, tried where their one punctuation mark is.
_TWILIO_AC = re.compile(rb"AC[0-9a-zA-Z]{32}")  # (one literal a pattern: a quick search)
_TWILIO_SK = re.compile(rb"SK[0-9a-zA-Z]{32}")
_SPANS = (
    re.compile(rb":(?<=[0-9\x80-\xff]:)[0-9a-z_-]{35}"),  # Telegram
    re.compile(rb"\.[^\s.\x00]{6,24}\.[^\s.\x00]{27}"),  # Discord
)


def suspects(texts: Sequence[str]) -> set[int]:
    """The indexes of `texts` that may hold a hit: the exact scan reads these alone."""
    return suspects_in([text.encode("utf-8", "surrogatepass") for text in texts])


def suspects_in(blobs: Sequence[bytes]) -> set[int]:
    """suspects() of texts given as their UTF-8 bytes (a store's files as read). The
    automaton runs in a thread of its own (it lets go of the GIL) while the regular
    expressions run here: on two cores the one costs nothing."""
    automaton = _automaton()
    if automaton is None or not blobs:
        return set(range(len(blobs)))
    data = b"\x00".join(blobs)
    ends = list(accumulate(len(blob) + 1 for blob in blobs))
    low = data.lower()  # ASCII letters only, a byte for a byte
    found_by: list[list[tuple[int, int, int]]] = []

    def find() -> None:
        with suppress(Exception):  # (raised below by the same call, not printed by the thread)
            found_by.append(automaton.find_matches_as_indexes(low, overlapping=True))

    worker = Thread(target=find)
    worker.start()
    found: set[int] = set()
    for rx, buf in ((_TWILIO_AC, data), (_TWILIO_SK, data), *((rx, low) for rx in _SPANS)):
        found.update(bisect_right(ends, m.start()) for m in rx.finditer(buf))
    worker.join()
    matches = found_by[0] if found_by else automaton.find_matches_as_indexes(low, overlapping=True)
    checks = _checks()
    for index, start, _ in matches:
        check = checks[index]
        if check is None or check(low, start):
            found.add(bisect_right(ends, start))
    return found


@cache
def _anchor_list() -> list[bytes]:
    whole = {chr(c).encode("utf-8")[:3] for first, last in WHOLE for c in range(first, last + 1)}
    return [*_ANCHORS, *_LOOT, *sorted(whole)]  # (a 4-byte character's first 3 bytes: 64 of them)


@cache
def _checks() -> list[Callable[[bytes, int], bool] | None]:
    checks: list[Callable[[bytes, int], bool] | None] = []
    for check in _ANCHORS.values():
        match = None if check is None else re.compile(check).match
        checks.append(None if match is None else lambda low, at, m=match: m(low, at) is not None)
    for check in _LOOT.values():
        match = re.compile(check).match
        checks.append(lambda low, at, m=match: m(low, at) is not None and _sent(low, at))
    return checks + [None] * (len(_anchor_list()) - len(checks))


def _sent(low: bytes, at: int) -> bool:
    """A command before `at` on its line (injection._EXFIL_CMD: up to 400 characters), or
    a pipe after it (_EXFIL_PIPE)."""
    begin = max(low.rfind(b"\n", 0, at) + 1, at - 1600)
    end = low.find(b"\n", at)
    line = low[at : len(low) if end == -1 else end]
    return _COMMAND.search(low, begin, at) is not None or b"|" in line


@cache
def _automaton():  # type: ignore[no-untyped-def]
    try:
        from ahocorasick_rs import BytesAhoCorasick, Implementation
    except ImportError:
        return None
    return BytesAhoCorasick(_anchor_list(), implementation=Implementation.DFA)
