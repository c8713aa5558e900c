"""Secrets in text, by provider format: detect-secrets' (Yelp) regex plugins as a library,
plus its custom-plugin form (RegexBasedDetector) for the formats it lacks
(plugins.py). Offline: no plugin's `verify` is ever called (that is the only network
use detect-secrets has), and neither its keyword nor its entropy plugins are run (on
prose they flag every "password:" and every git SHA).

detect-secrets is imported on the first scan, never by listing or searching a store."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from memtui.engine.scan.lines import Lines

if TYPE_CHECKING:
    from detect_secrets.plugins.base import RegexBasedDetector


class SecretHit(NamedTuple):
    line: int  # 1-based
    start: int  # char offsets in that line of the secret's value
    stop: int
    kind: str  # in words: "AWS access key", "GitHub token"


# A value goes on over these (detect-secrets matches a Stripe key's first 24 chars of 99):
# the span is the whole token, so a redaction leaves none of it.
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9_\-]*")
# Every provider format but three holds a run of 20 token characters: a text without
# one (most notes) is spared those plugins. The three are named by their first need.
_TOKEN = re.compile(r"[A-Za-z0-9_\-]{20}")
_UNTOKENED = frozenset({"a3t", "accountkey=", "://"})  # AWS (its secret key), Azure, URLs
_UNTOKENED_RAW = ("://", "aws", "AWS", "Aws", "AccountKey=")  # what those three need, as written
# What stands for a value in documentation, never one: `<password>`, `${TOKEN}`, `xxxx`.
_PLACEHOLDER = re.compile(
    r"^(?:[<{\[$%].*|.*[>}\]]|(.)\1{3,}|(?:pass(?:word)?|pwd|secret|token|changeme|redacted)\d*)$",
    re.IGNORECASE,
)
_PEM = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(.*?)(?:-----END \1-----|\Z)",
    re.DOTALL,
)


def find_secrets(text: str) -> list[SecretHit]:
    """Every secret in `text`, by line, in order; a private key block gives one hit per
    line it spans (BEGIN to END), so that a redaction of its hits leaves no key line."""
    if not text:
        return []
    lines = Lines(text)
    hits: dict[tuple[int, int], SecretHit] = {}
    taken: list[tuple[int, int]] = []  # absolute spans found: a later plugin's overlap is dropped
    for match in _PEM.finditer(text) if "PRIVATE KEY" in text else ():
        taken.append(match.span())
        first, _ = lines.at(match.start())
        last, _ = lines.at(max(match.start(), match.end() - 1))
        for n in range(first, last + 1):
            start = lines.at(match.start())[1] if n == first else 0
            stop = lines.end(n)
            if n == last and match.group(0).endswith("-----"):
                stop = min(stop, lines.at(match.end() - 1)[1] + 1)
            if stop > start:
                hits[n, start] = SecretHit(n, start, stop, "private key")
    token = _TOKEN.search(text) is not None
    if not token and not any(word in text for word in _UNTOKENED_RAW):
        return sorted(hits.values())
    lower = text.lower()
    for kind, plugin, group, needs in _plugins():
        if not (token or needs[0] in _UNTOKENED) or not any(word in lower for word in needs):
            continue
        for regex in plugin.denylist:
            for match in regex.finditer(text):
                span = _value(text, match, group)
                if span is None or any(a < span[1] and span[0] < b for a, b in taken):
                    continue
                if not any(True for _ in plugin.analyze_string(match.group(0))):
                    continue  # the plugin's own second look (a JWT's parts must decode)
                taken.append(span)
                line, start, stop = lines.span(*span)
                hits[line, start] = SecretHit(line, start, stop, kind)
    return sorted(hits.values())


def _value(text: str, match: re.Match[str], group: bool) -> tuple[int, int] | None:
    """The value's span in `text`, grown to its token's end; None: no secret (part of a
    longer word, or a placeholder)."""
    group = bool(group and match.lastindex and match.group(1))
    start, stop = match.span(1) if group else match.span()
    value = text[start:stop]
    cut = re.search(r"\s", value)
    if cut:
        stop = start + cut.start()
    if stop <= start:
        return None
    if text[stop - 1].isalnum():
        stop += _TOKEN_TAIL.match(text, stop).end() - stop  # type: ignore[union-attr]
    if start and text[start].isalnum() and text[start - 1].isalnum() and not group:
        return None  # inside a longer word: base64 data, an id
    if _PLACEHOLDER.match(text[start:stop]):
        return None
    return start, stop


@cache
def _plugins() -> tuple[tuple[str, RegexBasedDetector, bool, tuple[str, ...]], ...]:
    """(kind in words, plugin, whether its regexes' first group is the value, what a text
    must hold for it to be run)."""
    from memtui.engine.scan.plugins import PLUGINS

    return tuple((kind, cls(), group, needs) for kind, cls, group, needs in PLUGINS)


def kinds() -> tuple[str, ...]:
    """Every kind a hit may name, for docs and rule help."""
    return ("private key", *dict.fromkeys(kind for kind, *_ in _plugins()))
