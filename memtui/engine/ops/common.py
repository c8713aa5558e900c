"""Helpers every operation shares: current text under the lock, splicing, JSON."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Callable
from typing import Any

from memtui.engine.config import CONFIG_NAME, Thresholds, store_config
from memtui.engine.findings import unparsed
from memtui.engine.model import Span
from memtui.engine.rawfile import not_readable, too_large
from memtui.engine.textfile import TextFile, Unreadable, decode
from memtui.engine.write.errors import Refused  # here, where every operation finds it
from memtui.engine.write.transaction import Transaction
from memtui.i18n import msg


def thresholds(root: str) -> Thresholds:
    """The store's thresholds (memtui.toml at the root, else the SPEC defaults)."""
    real = os.path.realpath(root)
    present = os.path.isfile(os.path.join(real, CONFIG_NAME))
    return store_config(real, frozenset([CONFIG_NAME]) if present else frozenset()).thresholds


def current_text(
    tx: Transaction, rel: str, *, must_exist: bool = True, limits: Thresholds | None = None
) -> TextFile | None:
    """The file as it is now, under the lock, decoded losslessly; Refused if unusable.

    Over the store's max_file_bytes is unusable too: the read side shows such a file
    as unreadable, so memtui must not write one the user cannot see. `limits`: the
    thresholds the caller already has (else memtui.toml is read here)."""
    raw = tx.read(rel)
    if raw is None:
        if must_exist:
            raise Refused(msg("{rel} does not exist", rel=rel))
        return None
    limit = (limits or thresholds(tx.root)).max_file_bytes
    got = decode(rel, raw) if len(raw) <= limit else Unreadable(rel, too_large(limit, len(raw)))
    if isinstance(got, Unreadable):
        raise Refused(
            msg(
                "{not_readable}; memtui never writes it, nothing was changed",
                not_readable=not_readable(rel, got.reason),
            )
        )
    return got


def splice(tf: TextFile, span: Span, new_text: str) -> bytes:
    """The file's bytes with exactly the span's characters replaced (BOM kept)."""
    return tf.encode(tf.text[: span.char_start] + new_text + tf.text[span.char_stop :])


def eol_of(text: str) -> str:
    """The file's own line ending ("\\r\\n" if it mostly uses CRLF)."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def append_lines(text: str, lines: list[str]) -> str:
    """`lines` added at the end, in the file's line ending, after a final newline."""
    eol = eol_of(text)
    if text and not text.endswith("\n"):
        text += eol
    return text + "".join(line + eol for line in lines)


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).astimezone().isoformat(timespec="seconds")


_INDENT = re.compile(r"^\{\s*\n([ \t]+)\"", re.M)


def update_json(tx: Transaction, rel: str, mutate: Callable[[dict[str, Any]], None]) -> None:
    """Load rel (or {}), let `mutate` change it in place, write it back in its own
    indentation. Unknown keys and key order survive; a file that does not parse
    is never overwritten (Refused)."""
    tf = current_text(tx, rel, must_exist=False)
    data: Any = {}
    indent: int | str | None = 2
    if tf is not None:
        try:
            data = json.loads(tf.text)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deeply
            why = unparsed(exc)
            raise Refused(
                msg("{rel} does not parse ({why}); it is never overwritten", rel=rel, why=why)
            ) from None
        if not isinstance(data, dict):
            raise Refused(msg("{rel} is not a JSON object; it is never overwritten", rel=rel))
        match = _INDENT.search(tf.text)
        indent = (
            (match.group(1) if "\t" in match.group(1) else len(match.group(1)))
            if match
            else (None if "\n" not in tf.text.strip() else 2)
        )
    mutate(data)
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    ending = eol_of(tf.text) if tf and tf.text.endswith("\n") else ("" if tf else "\n")
    if ending and ending != "\n":
        text = text.replace("\n", ending)
    new = tf.encode(text + ending) if tf else (text + ending).encode("utf-8")
    tx.write(rel, new)
