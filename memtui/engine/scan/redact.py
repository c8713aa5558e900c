"""A secret's value replaced in place by a placeholder naming its kind
(`[REDACTED:GitHub token]`): only the value's characters change, every other byte of
the file stays. The placeholder is flagged by no detector (find_secrets, find_injections)
and is valid wherever the value was: no quote, backslash or newline, so a JSON string
stays a JSON string and a Hermes entry stays one entry."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from memtui.engine.scan.lines import Lines
from memtui.engine.scan.secrets import find_secrets

MASK = "********"  # what a face shows where a secret's value was (a diff, a listing)


class Secret(NamedTuple):
    first: int  # 1-based lines of its first and last chars (a private key spans lines)
    last: int
    start: int  # char offsets of the value in the whole text
    stop: int
    kind: str


def placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def kinds_said(kinds: Iterable[str]) -> str:
    """`GitHub token and AWS access key`: each kind once, in the reader's language
    through tr() (a kind is N_ where it is named)."""
    from memtui.engine.words import anded
    from memtui.i18n import msg

    return anded([msg(kind) for kind in dict.fromkeys(kinds)])


def secrets_in(text: str) -> list[Secret]:
    """Every secret of `text` in order; a private key block (one hit a line) is one."""
    lines = Lines(text)
    found: list[Secret] = []
    for hit in find_secrets(text):
        start = lines.starts[hit.line - 1] + hit.start
        stop = lines.starts[hit.line - 1] + hit.stop
        prev = found[-1] if found else None
        if (
            prev is not None
            and hit.kind == prev.kind == "private key"
            and prev.last == hit.line - 1
            and "-----END " not in text[lines.starts[prev.last - 1] : prev.stop]
        ):
            found[-1] = prev._replace(last=hit.line, stop=stop)
        else:
            found.append(Secret(hit.line, hit.line, start, stop, hit.kind))
    return found


def on_line(text: str, line: int | None) -> list[Secret]:
    """The secrets of `text` that lie on 1-based `line` (all of a block that spans it)."""
    return [s for s in secrets_in(text) if line is not None and s.first <= line <= s.last]


def redact(text: str, chosen: Iterable[Secret]) -> str:
    """`text` with each chosen secret's value replaced by its placeholder."""
    return _replaced(text, chosen, placeholder)


def masked(text: str) -> str:
    """`text` with every secret's value shown as MASK (a dry run's diff, a listing)."""
    return _replaced(text, secrets_in(text), lambda _kind: MASK)


def _replaced(text: str, chosen: Iterable[Secret], by: Callable[[str], str]) -> str:
    """`text` with each secret's value replaced by `by(kind)`, last first (offsets hold)."""
    out = text
    for s in sorted(chosen, key=lambda s: s.start, reverse=True):
        out = out[: s.start] + by(s.kind) + out[s.stop :]
    return out


def masked_bytes(data: bytes | None) -> bytes | None:
    """masked() of a file's bytes (kept as they are if not UTF-8)."""
    if data is None:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return masked(text).encode("utf-8")
