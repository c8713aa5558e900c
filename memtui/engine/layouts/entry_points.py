"""The `memtui.layouts` entry points, read as importlib.metadata reads them, without
importing it: that import (email, zipfile, csv, pathlib, ...) made every `memtui search`
40 ms slower here (122 against 86 ms, alternating runs on the demo store), and search is
measured against grep. Each folder on sys.path is listed once for its `*.dist-info`
(and legacy `*.egg-info`) folders, whose `entry_points.txt` is read; a distribution found
twice counts once, the first on sys.path, as importlib.metadata has it. A sys.path entry
that is not a folder (a zip) is left to importlib.metadata itself.
"""

from __future__ import annotations

import os
import re
import sys
from importlib import import_module
from typing import Any

_META = (".dist-info", ".egg-info")


class EntryPoint:
    """What importlib.metadata.EntryPoint gives the registry: name, value, load(). (No
    dataclass: searching a store imports none, as tests/test_search_imports.py checks.)"""

    __slots__ = ("dist", "name", "value")

    def __init__(self, name: str, value: str, dist: str) -> None:
        self.name = name
        self.value = value  # "module:attr"
        self.dist = dist  # the distribution's normalized name

    def __repr__(self) -> str:
        return f"EntryPoint({self.name!r}, {self.value!r}, {self.dist!r})"

    def load(self) -> Any:
        module, _, attr = self.value.partition(":")
        found: Any = import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            found = getattr(found, part)
        return found


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of `group`, in sys.path order, each distribution once."""
    if any(entry and not os.path.isdir(entry) and os.path.exists(entry) for entry in sys.path):
        return _from_importlib(group)  # a zip or egg on the path: the library's own reader
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if not name.endswith(_META):
                continue
            dist = normalized(name.rpartition(".")[0].partition("-")[0])
            if dist in seen:
                continue
            seen.add(dist)
            text = _read(os.path.join(entry or ".", name, "entry_points.txt"))
            if text is not None:
                found += [EntryPoint(n, v, dist) for n, v in parse_group(text, group)]
    return found


def parse_group(text: str, group: str) -> list[tuple[str, str]]:
    """The `name = value` lines of `[group]` in an entry_points.txt (an INI file; a
    value's `[extras]` are dropped, as they select nothing here)."""
    pairs: list[tuple[str, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line:
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.partition("[")[0].strip()))
    return pairs


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _from_importlib(group: str) -> list[EntryPoint]:
    from importlib.metadata import entry_points as library

    got = library(group=group)
    return [EntryPoint(ep.name, ep.value, normalized(_dist_name(ep))) for ep in got]


def _dist_name(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    return str(getattr(dist, "name", "") or "")
