"""`memtui search` is measured against grep: its whole run is a few times Python's
start-up, so it imports only the listing and each layout's detection alone
(layouts.detectors()), never a parser, the model, YAML or the write path. And a
layout detects exactly as its detection alone does, which listing relies on."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from memtui.engine.layouts import detectors, names, registry
from memtui.engine.model import Mood
from memtui.layouts.companion.detect import MOOD, MOOD_AUX
from tests.conftest import write_tree
from tests.helpers import REPO

PROBE = """
import contextlib, io, json, sys
from memtui.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": sorted(sys.modules)}))
"""

# What search must not pay for: the parsers and what they build on, and the writes;
# nor dataclasses (inspect, ast, dis: a tenth of grep's whole run), subprocess (its
# threads and selectors) or layouts.base's Protocol classes.
HEAVY = (
    "yaml",
    "dataclasses",
    "subprocess",
    "pathlib",  # ~5 ms: memtui.i18n makes its LOCALE_DIR Path only when asked for
    "memtui.engine.textfile",
    "memtui.engine.model",
    "memtui.engine.reader",
    "memtui.engine.store",
    "memtui.engine.frontmatter",
    "memtui.engine.markdown",
    *(f"memtui.layouts.{name}.layout" for name in names()),
    *(f"memtui.layouts.{name}.parse" for name in ("workspace", "companion", "dsh")),
    "memtui.layouts.claude.rules",
    "memtui.layouts.hermes.rules",
    "memtui.layouts.hermes.data",
    "memtui.layouts.openclaw.rules",
    "detect_secrets",  # the secret scan's (engine/scan): a store's open, when a key may be
    "memtui.engine.scan.secrets",
    "ahocorasick_rs",  # the scan's prefilter (engine/scan/prefilter.py): a store's open
)

STORES = {
    "seeds": {
        "memory.md": "# Index\n- memory_trip.md → the trip\n",
        "memory_trip.md": "# Trip\nfind me\n",
        "index.txt": "[RULES] x\n",
        "facts.md": "## A\n- find me too\n",
        "memory/events.md": "### [E001] 2026-11-01 · plan\nfind me in events\n",
    },
    "claude": {
        "MEMORY.md": "- [Testing](feedback_testing.md) — find me\n",
        "feedback_testing.md": "---\nname: t\ndescription: d\ntype: feedback\n---\nbody\n",
    },
    "hermes": {
        "memories/MEMORY.md": "find me\n§\nsecond\n",
        ".env": "KEY=find me\n",
        "state.db": "find me\n",
    },
    "openclaw": {"AGENTS.md": "# Rules\nfind me\n", "SOUL.md": "# Soul\n"},
}
FOUND = {
    "seeds": [
        "facts.md:2:3: - find me too",
        "memory_trip.md:2:1: find me",
        "memory/events.md:2:1: find me in events",
    ],
    "claude": ["MEMORY.md:1:36: - [Testing](feedback_testing.md) — find me"],
    "hermes": ["memories/MEMORY.md:1:1: find me"],
    "openclaw": ["AGENTS.md:2:1: find me"],
}


def probe(*args: str) -> dict:
    got = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


@pytest.mark.parametrize("kind", sorted(STORES))
def test_search_finds_without_importing_a_parser_the_model_yaml_or_writes(tmp_path, kind):
    root = write_tree(tmp_path / kind, STORES[kind])
    got = probe("search", "find me", "--store", str(root))
    assert (got["code"], got["out"].splitlines()) == (0, FOUND[kind])
    loaded = set(got["loaded"])
    assert sorted(loaded & set(HEAVY)) == []
    assert [m for m in loaded if m.startswith("memtui.engine.write")] == []


@pytest.mark.parametrize("name", names())
def test_a_layout_detects_and_lists_as_its_detection_alone(name):
    layout, alone = registry()[name], detectors()[name]
    assert isinstance(layout, type(alone))
    for attr in ("name", "looks_for", "dotfiles"):
        assert getattr(layout, attr, None) == getattr(alone, attr, None)
    for method in ("detect", "folders", "is_memory"):
        assert getattr(type(layout), method, None) is getattr(type(alone), method, None)


def test_the_companion_detection_names_the_models_mood_files():
    assert (MOOD, MOOD_AUX) == (Mood.FILE, Mood.AUX)
