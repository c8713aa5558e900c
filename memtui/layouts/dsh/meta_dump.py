"""json.dumps(value, ensure_ascii=False, indent=unit), character for character, faster.

With an indent, the json module serialises in pure Python through nested generators;
a bulk accept rewrites a thousand memory-meta.json entries a chunk, and that was most
of the splice. This writes the same text with the C string escaper and plain
recursion. Only JSON's own types take this path (what json.loads gives, plus what the
ops put in); anything else (a tuple, a subclass, a non-string key) is left to
json.dumps itself.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C escaper where there is one
from typing import Any


class _Unusual(Exception):
    """A value this fast path does not write exactly as json.dumps would."""


def dumps_indented(value: Any, unit: str) -> str:
    out: list[str] = []
    try:
        _emit(value, unit, "\n", out)
    except _Unusual:
        return json.dumps(value, ensure_ascii=False, indent=unit)
    return "".join(out)


def _emit(value: Any, unit: str, newline: str, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        out.append(_float(value))
    elif kind is dict or kind is list:
        brackets = "{}" if kind is dict else "[]"
        if not value:
            out.append(brackets)
        else:
            _emit_items(value.items() if kind is dict else value, brackets, unit, newline, out)
    else:
        raise _Unusual


def _emit_items(items: Any, brackets: str, unit: str, newline: str, out: list[str]) -> None:
    """A non-empty object (items: (key, value) pairs) or array, one member a line."""
    inner = newline + unit
    out.append(brackets[0])
    separator = inner
    for item in items:
        out.append(separator)
        if brackets == "{}":
            key, item = item
            if type(key) is not str:
                raise _Unusual  # json.dumps turns numbers and booleans into keys its own way
            out.append(encode_basestring(key))
            out.append(": ")
        _emit(item, unit, inner, out)
        separator = "," + inner
    out.append(newline + brackets[1])


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == float("-inf"):
        return "-Infinity"
    return float.__repr__(value)
