"""Thresholds: the layouts' declared defaults, overridable by `memtui.toml` at the store root.

No `from __future__ import annotations` here: a NamedTuple compiles each string
annotation, which cost `memtui search` 2 ms of its start."""

import os
from typing import TYPE_CHECKING, NamedTuple

from memtui.engine.paths import CONFIG_NAME
from memtui.i18n import msg

if TYPE_CHECKING:
    import datetime as dt


MAX_FILE_BYTES = 64 * 1024 * 1024  # bigger files are shown as unreadable
SHARED = {"max_file_bytes": MAX_FILE_BYTES}  # the one threshold no layout owns
NO_CACHE = "MEMTUI_NO_CACHE"


def defaults() -> dict[str, int | float]:
    """Every threshold by name with its default: the shared one, then each layout's
    (Detection.thresholds, in detection order; a name two declare keeps the first)."""
    from memtui.engine.layouts import merged

    return {**merged("thresholds"), **SHARED}


# A plain class, not a dataclass: `memtui search` reads max_file_bytes, and importing
# dataclasses (inspect, ast, ...) costs it as much as a tenth of grep's whole run.
class Thresholds:
    """The thresholds a store's memtui.toml sets, each other one at its default: read
    as attributes (`thresholds.l1_max_lines`), by the names the layouts declare."""

    __slots__ = ("_set",)

    def __init__(self, **values: int | float) -> None:
        self._set = values

    @property
    def max_file_bytes(self) -> int:
        return int(self._set.get("max_file_bytes", MAX_FILE_BYTES))

    def __getattr__(self, name: str) -> int | float:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._set:
            return self._set[name]
        from memtui.engine.layouts import merged

        known = merged("thresholds")  # made once a registry: no new dict each threshold read
        if name not in known:
            raise AttributeError(f"no threshold {name!r} is declared (Detection.thresholds)")
        return known[name]

    def _replace(self, **values: int | float) -> "Thresholds":
        return Thresholds(**{**self._set, **values})

    def as_dict(self) -> dict[str, int | float]:
        """Every threshold by name, as it holds for this store."""
        return {**defaults(), **self._set}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Thresholds) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.as_dict().items())))

    def __repr__(self) -> str:
        return f"Thresholds({', '.join(f'{k}={v!r}' for k, v in self._set.items())})"


class Config(NamedTuple):
    thresholds: Thresholds
    problems: tuple[str, ...] = ()  # why memtui.toml was (partly) ignored


def load_config(text: str | None) -> Config:
    """Parse memtui.toml text; bad keys or values are reported, never fatal."""
    if text is None:
        return Config(Thresholds())
    import tomllib  # only stores with a memtui.toml pay for it

    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError) as exc:  # also ints of 4,300+ digits, deep nesting
        from memtui.engine.findings import unparsed

        return Config(Thresholds(), (msg("memtui.toml does not parse: {why}", why=unparsed(exc)),))
    problems = [
        msg("memtui.toml: unknown setting {key!r}", key=key) for key in data if key != "thresholds"
    ]
    table = data.get("thresholds", {})
    if not isinstance(table, dict):
        return Config(Thresholds(), (*problems, msg("memtui.toml: [thresholds] must be a table")))
    known = defaults()  # name -> its default, an int or a float
    values: dict[str, int | float] = {}
    for key, value in table.items():
        default = known.get(key)
        if default is None:
            problems.append(msg("memtui.toml: unknown threshold {key!r}", key=key))
        elif isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            problems.append(msg("memtui.toml: {key} must be a non-negative number", key=key))
        elif isinstance(default, int) and not isinstance(value, int):
            problems.append(msg("memtui.toml: {key} must be a whole number", key=key))
        else:
            values[key] = value
    return Config(Thresholds(**values), tuple(problems))


def cache_enabled() -> bool:
    """Whether opens may keep and reuse what they parsed (engine.cache): MEMTUI_NO_CACHE=1
    turns that off. Here, not in engine.cache: asking costs an open none of its imports."""
    return os.environ.get(NO_CACHE, "") in ("", "0")


def today() -> "dt.date":
    """Today, or MEMTUI_TODAY (YYYY-MM-DD) so scripts and tests can pin the date."""
    import datetime as dt

    pinned = os.environ.get("MEMTUI_TODAY")
    if pinned:
        try:
            return dt.date.fromisoformat(pinned)
        except ValueError:
            pass
    return dt.date.today()


def thresholds_at(root: str) -> Thresholds:
    """The store's thresholds without opening the store (for checks made before it)."""
    found = os.path.isfile(os.path.join(root, CONFIG_NAME))
    return store_config(root, frozenset([CONFIG_NAME] if found else [])).thresholds


def store_config(root: str, files: frozenset[str]) -> Config:
    if CONFIG_NAME not in files:
        return Config(Thresholds())
    from memtui.engine.textfile import Unreadable, read_file

    got = read_file(os.path.join(root, CONFIG_NAME), CONFIG_NAME, 1 << 20)
    if isinstance(got, Unreadable):
        return Config(Thresholds(), (f"memtui.toml is {got.reason}",))
    return load_config(got.text)
