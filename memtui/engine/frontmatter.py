"""YAML front matter, split exactly and parsed fast.

The split never drops or rewrites text: it only finds where the front matter
ends, so the original bytes stay the file's bytes. python-frontmatter's own
split and dumps are not exact (they drop text and reformat), so they are not
used here. Flat `key: value` front matter, the shape agents write, takes a
fast path whose result equals the YAML loader's; anything else goes to
PyYAML's safe loader (the C one when present).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):  # type: ignore[misc]
    """Safe loader that keeps timestamps as the strings they were written as."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _Base.yaml_implicit_resolvers.items()
}

_FENCE = re.compile(r"---[ \t]*\r?")
_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*\r?")


class FrontMatterError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Split:
    yaml_text: str | None  # None: the file has no front matter
    body: str
    body_line: int  # 0-based line where the body starts


def split(text: str) -> Split:
    """Front matter is `---` on the first line up to the next `---` (or `...`) line."""
    first_nl = text.find("\n")
    if first_nl < 0 or not _FENCE.fullmatch(text[:first_nl]):
        return Split(None, text, 0)
    pos = first_nl + 1
    line_no = 1
    while pos <= len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        if _CLOSE.fullmatch(text[pos:end]):
            body_start = len(text) if nl < 0 else nl + 1
            return Split(text[first_nl + 1 : pos], text[body_start:], line_no + 1)
        if nl < 0:
            break
        pos, line_no = nl + 1, line_no + 1
    raise FrontMatterError("front matter has no closing '---' line")


def load(yaml_text: str) -> dict[str, Any]:
    """The mapping in a front matter block; FrontMatterError when it is not one."""
    fast = _load_flat(yaml_text)
    if fast is not None:
        return fast
    try:
        data = yaml.load(yaml_text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FrontMatterError(f"front matter is not valid YAML{where}: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontMatterError("front matter is not a mapping of keys to values")
    return data


_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]+(.*?))?[ \t]*\r?")
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_PLAIN = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s][^#]*")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_YAML_WORDS = re.compile(
    r"(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
    r"|[-+]?(?:\.[0-9]+|[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN)|0[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+"
    r"|[-+]?[0-9][0-9_]*|<<|=)"
)


def _load_flat(text: str) -> dict[str, Any] | None:
    """Parse `key: scalar` lines; None (use YAML) for anything outside that subset."""
    data: dict[str, Any] = {}
    for line in text.split("\n"):
        if not line.strip():
            continue
        match = _KEY.fullmatch(line)
        if match is None or match.group(1) in data:
            return None
        value = _flat_value(match.group(2) or "")
        if value is _UNSURE:
            return None
        data[match.group(1)] = value
    return data


_UNSURE = object()


def _flat_value(raw: str) -> Any:
    if raw in _NULLS:
        return None
    if raw[0] == '"':
        inner = raw[1:-1]
        ok = len(raw) >= 2 and raw[-1] == '"' and '"' not in inner and "\\" not in inner
        return inner if ok else _UNSURE
    if raw[0] == "[":
        return _flat_int_list(raw)
    if ": " in raw or " #" in raw or raw.endswith(":") or not _PLAIN.fullmatch(raw):
        return _UNSURE
    if _INT.fullmatch(raw):
        return int(raw)
    return _UNSURE if _YAML_WORDS.fullmatch(raw) else raw


def _flat_int_list(raw: str) -> Any:
    if not raw.endswith("]"):
        return _UNSURE
    parts = [p.strip() for p in raw[1:-1].split(",")]
    if parts == [""]:
        return []
    if not all(_INT.fullmatch(p) for p in parts):
        return _UNSURE
    return [int(p) for p in parts]
