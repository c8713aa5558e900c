"""Thresholds: SPEC defaults, overridable by `memtui.toml` at the store root.

No `from __future__ import annotations` here: a NamedTuple compiles each string
annotation, which cost `memtui search` 2 ms of its start."""

import os
from typing import TYPE_CHECKING, NamedTuple

from memtui.engine.paths import CONFIG_NAME

if TYPE_CHECKING:
    import datetime as dt


# NamedTuples, not dataclasses: `memtui search` reads max_file_bytes, and importing
# dataclasses (inspect, ast, ...) costs it as much as a tenth of grep's whole run.
class Thresholds(NamedTuple):
    index_warn_lines: int = 150  # memory.md: warning from here
    index_block_lines: int = 180  # memory.md: error (blocked) from here
    agent_max_bytes: int = 8192  # agent.md is injected into every prompt
    l1_warn_lines: int = 25  # index.txt: warning from here
    l1_max_lines: int = 30  # index.txt: error above this
    profile_category_max: int = 10
    mood_max_snapshots: int = 10
    mood_step_valence: float = 0.30
    mood_step_energy: float = 0.20
    unresolved_max: int = 3
    max_file_bytes: int = 64 * 1024 * 1024  # bigger files are shown as unreadable


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

        return Config(Thresholds(), (f"memtui.toml does not parse: {unparsed(exc)}",))
    problems = [f"memtui.toml: unknown setting {key!r}" for key in data if key != "thresholds"]
    table = data.get("thresholds", {})
    if not isinstance(table, dict):
        return Config(Thresholds(), (*problems, "memtui.toml: [thresholds] must be a table"))
    known = Thresholds._field_defaults  # name -> its default, an int or a float
    values: dict[str, int | float] = {}
    for key, value in table.items():
        default = known.get(key)
        if default is None:
            problems.append(f"memtui.toml: unknown threshold {key!r}")
        elif isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            problems.append(f"memtui.toml: {key} must be a non-negative number")
        elif isinstance(default, int) and not isinstance(value, int):
            problems.append(f"memtui.toml: {key} must be a whole number")
        else:
            values[key] = value
    return Config(Thresholds(**values), tuple(problems))  # type: ignore[arg-type]


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
