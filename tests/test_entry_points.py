"""The layouts' entry points are read as importlib.metadata reads them, without its
import (engine/layouts/entry_points.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from memtui.engine.layouts.entry_points import _from_importlib, entry_points, parse_group


def _triples(points) -> set[tuple[str, str, str]]:
    return {(ep.name, ep.value, ep.dist) for ep in points}


@pytest.mark.parametrize("group", ["memtui.layouts", "console_scripts", "pytest11"])
def test_the_same_entry_points_as_importlib_metadata(group: str) -> None:
    ours = entry_points(group)
    assert _triples(ours) == _triples(_from_importlib(group))
    assert len(ours) == len(_triples(ours))  # a distribution on the path twice counts once


def test_memtuis_own_layouts_are_registered_there() -> None:
    names = {ep.name for ep in entry_points("memtui.layouts") if ep.dist == "memtui"}
    assert {"workspace", "companion", "dsh", "claude", "hermes", "openclaw"} <= names


def test_a_group_is_read_from_its_own_section_only() -> None:
    text = textwrap.dedent(
        """\
        [console_scripts]
        tool = pkg.cli:main

        # a comment
        [memtui.layouts]
        notes = notes_layout.detect:NotesDetection
        ; another comment
        extra = other.mod:Cls [speedups]

        [other]
        notes = wrong:one
        """
    )
    assert parse_group(text, "memtui.layouts") == [
        ("notes", "notes_layout.detect:NotesDetection"),
        ("extra", "other.mod:Cls"),
    ]


def test_reading_the_layouts_does_not_import_importlib_metadata() -> None:
    probe = (
        "import sys; from memtui.engine.layouts import detectors; detectors(); "
        "print('importlib.metadata' in sys.modules)"
    )
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert got.stdout.strip() == "False", got.stderr
