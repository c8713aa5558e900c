"""Opening a store imports the parsers of the layouts it holds and no others (a third
of open's imports on a seeds store were Claude's, Hermes' and OpenClaw's), the write
path's modules only when it has their .history folder, and each layout is one object
whichever way it is asked for."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from memtui.engine.layouts import layout, names, registry
from tests.conftest import write_tree
from tests.helpers import REPO

PROBE = """
import json, sys
from memtui.engine import open_store
store = open_store(sys.argv[1])
print(json.dumps({"layouts": list(store.layouts), "loaded": sorted(sys.modules)}))
"""

PARSERS = {
    "claude": "memtui.layouts.claude.layout",
    "hermes": "memtui.layouts.hermes.layout",
    "openclaw": "memtui.layouts.openclaw.layout",
    "seeds": "memtui.layouts.dsh.layout",
}
STORES = {
    "seeds": {"memory.md": "# Index\n", "index.txt": "[RULES] x\n", "facts.md": "## A\n- a\n"},
    "claude": {"MEMORY.md": "- [T](t.md) — t\n", "t.md": "---\nname: t\n---\nbody\n"},
    "hermes": {"memories/MEMORY.md": "one\n§\ntwo\n"},
    "openclaw": {"AGENTS.md": "# Rules\n", "SOUL.md": "# Soul\n"},
}


def probe(root) -> dict:
    got = subprocess.run(
        [sys.executable, "-c", PROBE, str(root)], cwd=REPO, capture_output=True, text=True
    )
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


@pytest.mark.parametrize("kind", sorted(STORES))
def test_open_imports_only_the_parsers_of_the_layouts_found(tmp_path, kind):
    found = probe(write_tree(tmp_path / kind, STORES[kind]))
    owners = {
        "seeds" if name in ("workspace", "companion", "dsh") else name for name in found["layouts"]
    }
    assert owners == {kind}
    loaded = {parser for owner, parser in PARSERS.items() if parser in found["loaded"]}
    assert loaded == {PARSERS[kind]}


def test_open_imports_the_write_path_only_for_a_store_with_its_history(tmp_path):
    root = write_tree(tmp_path / "s", STORES["seeds"])
    loaded = probe(root)["loaded"]
    assert [m for m in loaded if m.startswith("memtui.engine.write")] == []
    (root / ".history" / "journal").mkdir(parents=True)
    loaded = probe(root)["loaded"]
    assert "memtui.engine.write.journal" in loaded
    assert "memtui.engine.write.recovery" in loaded


@pytest.mark.parametrize("name", names())
def test_a_layout_is_the_registrys_own_object(name):
    assert layout(name) is registry()[name]
    assert layout(name).name == name


WRITE_PROBE = """
import json, sys
from memtui.layouts.dsh import ops as dsh
dsh.accept(sys.argv[1], ["20261118-0001"])
print(json.dumps(sorted(sys.modules)))
"""


def test_a_write_imports_no_other_layouts_parser(tmp_path):
    """Which lock files a change holds is each layout's rule, asked of its detection:
    a dsh accept imports no Claude, Hermes or OpenClaw parser (a twentieth of a bulk
    accept was importing them)."""
    root = write_tree(
        tmp_path / "s",
        {
            **STORES["seeds"],
            "pending/20261118-0001.md": "---\nentry_type: fact\ntarget: A\nevidence: ran it\n"
            "---\n- b\n",
        },
    )
    got = subprocess.run(
        [sys.executable, "-c", WRITE_PROBE, str(root)], cwd=REPO, capture_output=True, text=True
    )
    assert got.returncode == 0, got.stderr
    loaded = set(json.loads(got.stdout))
    assert "- b" in (root / "facts.md").read_text(encoding="utf-8")
    assert {PARSERS[k] for k in ("claude", "hermes", "openclaw")} & loaded == set()


@pytest.mark.parametrize("name", names())
def test_a_layouts_locks_are_its_detections(name):
    from memtui.engine.layouts import detectors

    for rel in ("memories/MEMORY.md", "memories/USER.md", "facts.md", "MEMORY.md"):
        assert layout(name).locks(rel) == detectors()[name].locks(rel)
    held = detectors()[name].locks("memories/MEMORY.md")
    assert held == (
        [".memory.lock", "memories/MEMORY.md.lock"] if name == "hermes" else [".memory.lock"]
    )
