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
from functools import cache
from typing import Any, NamedTuple

from memtui.i18n import msg


@cache
def _loader() -> Any:
    """PyYAML's safe loader (the C one when built), keeping timestamps as the
    strings they were written as. Imported on first use: most front matter
    takes the flat path and never needs YAML."""
    import yaml

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    resolvers = {
        first: [(tag, rx) for tag, rx in items if tag != "tag:yaml.org,2002:timestamp"]
        for first, items in base.yaml_implicit_resolvers.items()
    }
    return type("MemtuiLoader", (base,), {"yaml_implicit_resolvers": resolvers})


_FENCE = re.compile(r"---[ \t]*\r?")
# The closing line, found from the newline before it: a literal first character lets
# the search skip along the text instead of trying `^` at every character.
_CLOSE_LINE = re.compile(r"\n(?:---|\.\.\.)[ \t]*\r?(?=\n|\Z)")


class FrontMatterError(ValueError):
    pass


class Split(NamedTuple):
    """A NamedTuple, not a frozen dataclass: one is made for every file read at open,
    and a tuple is made three times faster."""

    yaml_text: str | None  # None: the file has no front matter
    body: str
    body_line: int  # 0-based line where the body starts


_new_split = tuple.__new__  # Split(...) without its Python-level __new__: one per file read


def split(text: str) -> Split:
    """Front matter is `---` on the first line up to the next `---` (or `...`) line."""
    if text.startswith("---\n"):
        first_nl = 3  # the usual first line, known without the regular expression
    else:
        first_nl = text.find("\n") if text.startswith("---") else -1
        if first_nl < 0 or not _FENCE.fullmatch(text[:first_nl]):
            return _new_split(Split, (None, text, 0))
    close = _CLOSE_LINE.search(text, first_nl)
    if close is None:
        raise FrontMatterError(msg("front matter has no closing '---' line"))
    pos, end = close.start() + 1, close.end()
    body_start = end + 1 if end < len(text) else end
    line_no = text.count("\n", 0, pos) + 1
    return _new_split(Split, (text[first_nl + 1 : pos], text[body_start:], line_no))


def load(yaml_text: str) -> dict[str, Any]:
    """The mapping in a front matter block; FrontMatterError when it is not one."""
    try:
        fast = _load_flat(yaml_text)
    except ValueError:  # an int of 4,300+ digits: YAML's own parse says so below
        fast = None
    if fast is not None:
        return fast
    if has_alias(yaml_text):
        raise FrontMatterError(
            msg("front matter is not read: it uses YAML anchors or aliases (&x, *x)")
        )
    import yaml

    try:
        data = yaml.load(yaml_text, Loader=_loader())
    except RecursionError:
        raise FrontMatterError(msg("front matter is nested too deeply")) from None
    except Exception as exc:  # PyYAML's constructors also raise ValueError, KeyError, ...
        if not isinstance(exc, yaml.YAMLError):
            from memtui.engine.findings import unparsed

            said = msg("front matter is not valid YAML: {why}", why=unparsed(exc))
            raise FrontMatterError(said) from None
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        said = (
            msg("front matter is not valid YAML: {why}", why=problem)
            if mark is None
            else msg(
                "front matter is not valid YAML (line {line}): {why}",
                line=mark.line + 2,
                why=problem,
            )
        )
        raise FrontMatterError(said) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontMatterError(msg("front matter is not a mapping of keys to values"))
    return data


def has_alias(text: str) -> bool:
    """Aliases can expand a 2 KB file a millionfold ("billion laughs"): refuse them."""
    if "&" not in text and "*" not in text:
        return False
    import yaml

    try:
        return any(
            isinstance(t, yaml.AliasToken | yaml.AnchorToken)
            for t in yaml.scan(text, Loader=_loader())
        )
    except yaml.YAMLError:
        return False  # the load reports the syntax error


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_YAML_WORDS = re.compile(  # what YAML 1.1 reads as other than a string
    r"(?P<int>[-+]?(?:0|[1-9][0-9]*))|(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
    r"|[-+]?(?:\.[0-9]+|[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN)|0[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+"
    r"|[-+]?[0-9][0-9_]*|<<|=)"
)
# What YAML refuses (non-printable) or reads as a line break: leave those to YAML.
# (Everything outside \t \n \r, \x20-\x7e, \xa0-\u2027, \u202a-\ud7ff, \ue000-\ufffd
# and the astral planes, written as the few ranges it is: a ninth of the compile time.)
_ODD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
_UNSURE = object()
_WORD_START = frozenset("yYnNtTfFoO0123456789+-.<=~")
_BOOL_START = frozenset("yYnNtTfFoO")  # of the words above, only booleans start so
_BOOLS = frozenset(
    {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE"}
    | {"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"}
)
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_DIGITS = frozenset("0123456789")
_INT_ITEM = r"[ \t]*[-+]?(?:0|[1-9][0-9]*)[ \t]*"
_INT_LIST = re.compile(rf"\[{_INT_ITEM}(?:,{_INT_ITEM})*\]")
_FLOW = re.compile(r"[\[\]{}]")
_plain_keys: set[str] = set()
# A `key: value` line already read -> (key, value), or () for a blank line: agents
# repeat most lines (entry_type, evidence, a target) across thousands of files. Filled
# up to its size and then kept: the lines repeated most are met first. A list is kept
# as a tuple (no flat value is one) and each mapping gets a list of its own.
_lines: dict[str, tuple[()] | tuple[str, Any]] = {}
_LINES_MAX = 8192


def _load_flat(text: str) -> dict[str, Any] | None:
    """Parse `key: scalar` lines; None (use YAML) for anything outside that subset.

    Line by line with str methods, not one regular expression over the text: agents'
    front matter is a few short lines, and 10,000 candidates are parsed at each open."""
    if not text.strip(" \r\n"):
        return {}
    if text[-1] != "\n" or _ODD.search(text):
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None  # a CR that ends no line: YAML reads it as a line break
    data: dict[str, Any] = {}
    known = _lines
    for line in text.split("\n"):  # the last is "", after the final newline
        pair = known.get(line)
        if pair is None:
            pair = _flat_line(line)
            if pair is None:
                return None
            if len(known) < _LINES_MAX:
                kept = pair[1] if pair else None
                known[line] = (pair[0], tuple(kept)) if type(kept) is list else pair
        if pair:
            key, value = pair
            if key in data:
                return None  # YAML decides what a repeated key means
            data[key] = list(value) if type(value) is tuple else value
    return data


def _flat_line(line: str) -> tuple[()] | tuple[str, Any] | None:
    """One line's (key, value), () for a blank line, None when YAML must read it."""
    key, colon, raw = line.partition(":")
    if not colon:
        return None if line.strip(" ") else ()  # a line without `key:`, or a tab
    if key not in _plain_keys:
        if not _KEY.fullmatch(key) or _YAML_WORDS.fullmatch(key) or key in _NULLS:
            return None  # `on:` is the key True to YAML
        _plain_keys.add(key)
    if raw and raw[0] not in " \t":
        return None  # `a:b` is no pair to YAML
    raw = raw.strip(" \t")
    # The usual unique value (a name, an id, a time), as _flat_value reads it, in fewer
    # steps: 34,000 such lines on a large store's candidates, each met once.
    if raw and _is_plain(raw):
        first = raw[0]
        if first not in _WORD_START:  # no YAML word (number, bool, null) starts so
            return (key, raw)
        if first in _DIGITS:
            rest = raw[1:]
            if ("-" in rest or "+" in rest) and "e" not in rest and "E" not in rest:
                return (key, raw)  # (_flat_value's sign rule: a date, an id)
    value = _flat_value(raw)
    return None if value is _UNSURE else (key, value)


def _flat_value(raw: str) -> Any:
    if raw in _NULLS:
        return None
    first = raw[0]
    if first == '"':
        inner = raw[1:-1]
        ok = len(raw) >= 2 and raw[-1] == '"' and '"' not in inner and "\\" not in inner
        return inner if ok else _UNSURE
    if first == "[":
        return _flat_list(raw)
    if not _is_plain(raw):
        return _UNSURE
    if first not in _WORD_START:
        return raw  # cannot be an int, float, bool or null
    if first in _BOOL_START:
        return _UNSURE if raw in _BOOLS else raw
    if raw.isdigit() and raw.isascii() and (first != "0" or raw == "0"):
        return int(raw)  # the usual number, without the regular expression
    rest = raw[1:]
    if ("-" in rest or "+" in rest) and "e" not in rest and "E" not in rest:
        return raw  # a sign only starts a YAML number or its exponent: 2026-11-29, ids
    word = _YAML_WORDS.fullmatch(raw)
    if word is None:
        return raw
    return int(raw) if word.lastgroup == "int" else _UNSURE


def _is_plain(raw: str) -> bool:
    """A plain scalar that is one YAML value: no indicator first, no `: ` or ` #` inside
    (the regular expression in tests/test_fast_yaml.py, with str methods: this runs
    for every value read)."""
    first = raw[0]
    if first in _INDICATORS or first.isspace() or raw[-1] == ":":
        return False
    return not (": " in raw or ":\t" in raw or " #" in raw or "\t#" in raw or "\n" in raw)


def _flat_list(raw: str) -> Any:
    """`[12, 13]` or `[deploy, docker]`: a flow list of ints or plain words."""
    if _INT_LIST.fullmatch(raw):
        return [int(n) for n in raw[1:-1].split(",")]
    if not raw.endswith("]"):
        return _UNSURE
    inner = raw[1:-1].strip()
    if not inner:
        return []
    items = []
    for part in inner.split(","):
        word = part.strip()
        if not word or word[0] == '"' or _FLOW.search(word):
            return _UNSURE  # flow-context rules differ; let YAML decide
        value = _flat_value(word)
        if value is _UNSURE or value is None:
            return _UNSURE
        items.append(value)
    return items
