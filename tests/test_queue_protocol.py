"""One queue model for every layout (engine.queue): each layout declares its queue in the
protocol (engine.layouts.base: queue, preview, approve, reject, its face and options,
every member with a default), dsh's candidates are QueueItems like Hermes' staged
writes, and the CLI offers each layout's options from what it declares."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtui.engine import queue
from memtui.engine.errors import MemtuiError
from memtui.engine.layouts import detectors, layout, registry
from memtui.engine.layouts.base import Layout
from memtui.engine.queue import QueueFace, QueueOption
from memtui.engine.store import open_store
from tests.conftest import tree_digest, write_tree
from tests.helpers import candidate
from tests.hostile_calls import cli
from tests.test_queue_ids import hermes_record

DSH = {
    "index.txt": "# index\n",
    "facts.md": "## PYTHON_ENV\n- use a venv\n",
    "pending/20261129-0007.md": candidate("20261129-0007"),
}


HERMES = {
    "memories/MEMORY.md": "Project alpha uses uv",
    "pending/memory/a1b2c3d4.json": hermes_record("a1b2c3d4", "Prefers ruff"),
}


class Quiet(Layout):
    """A layout that keeps no queue: every queue member is the protocol's default."""

    name = "quiet"


def test_a_layout_without_a_queue_has_the_defaults(tmp_path: Path) -> None:
    lay = Quiet()
    assert (lay.keeps_queue, lay.queue_options, lay.queue_face) == (False, (), QueueFace())
    store = open_store(write_tree(tmp_path / "s", DSH))
    assert lay.queue(store, None) == [] and lay.queue_blocked(store, None) is None
    assert lay.preview_together(str(tmp_path), ["x:1"]) is None
    with pytest.raises(MemtuiError, match="keeps no queue"):
        lay.preview(str(tmp_path), "x:1")
    with pytest.raises(MemtuiError, match="keeps no queue"):
        lay.approve(str(tmp_path), ["x:1"])
    with pytest.raises(MemtuiError, match="keeps no queue"):
        lay.reject(str(tmp_path), ["x:1"], "no")


def test_each_queue_is_declared_in_the_protocol_not_found_by_getattr() -> None:
    keeping = [n for n, d in detectors().items() if d.keeps_queue]
    assert keeping == queue.queue_layouts() and {"dsh", "hermes", "openclaw"} <= set(keeping)
    for name in keeping:
        cls = type(layout(name))
        for member in ("queue", "preview", "approve", "reject"):
            assert getattr(cls, member) is not getattr(Layout, member), (name, member)
    assert not hasattr(queue, "QueueOps")
    for name, lay in registry().items():  # the others answer with the defaults
        if name not in keeping:
            assert type(lay).approve is Layout.approve, name


def test_dsh_candidates_are_queue_items_made_whole_when_asked(tmp_path: Path) -> None:
    from memtui.engine.entries import entry_json, resolve

    store = open_store(write_tree(tmp_path / "both", {**DSH, **HERMES}))
    found = queue.queues(store)
    assert [(i.layout, i.id) for i in found.items] == [
        ("dsh", "pending:20261129-0007"),
        ("hermes", "hermes-pending:a1b2c3d4"),
    ]
    row = found.items[0]
    assert (row.name, row.action, row.target, row.approvable) == (
        "20261129-0007",
        "fact",
        "PYTHON_ENV",
        True,
    )
    whole = row.whole()
    assert whole.body == "- activate the venv before pytest\n"
    assert ("session", "s-1f3a · seqs 12, 13") in whole.fields
    # its fingerprint is the entry's as `list --json` and `show --json` give it
    shown = entry_json(store, resolve(store, row.id))["fingerprint"]
    assert whole.fingerprint == shown
    assert found.face(row).verb == "accept" and found.face(found.items[1]).verb == "approve"


def test_pending_json_keeps_each_list_and_gives_every_item_the_queue_shape(
    tmp_path: Path, capsys
) -> None:
    root = write_tree(tmp_path / "both", {**DSH, **HERMES})
    code, out, _ = cli(capsys, "--store", str(root), "pending", "--json")
    listed = json.loads(out)
    assert code == 0 and set(listed) == {"root", "pending", "queue"}
    (cand,) = listed["pending"]
    assert (cand["id"], cand["entry_type"], cand["acceptable"]) == (
        "pending:20261129-0007",
        "fact",
        True,
    )
    assert (cand["layout"], cand["problem"]) == ("dsh", None) and cand["fingerprint"]
    assert [q["id"] for q in listed["queue"]] == ["hermes-pending:a1b2c3d4"]
    before = tree_digest(root)  # the fingerprint listed is the one --expect takes
    code, _, err = cli(capsys, "--store", str(root), "accept", cand["id"], "--expect", "0" * 12)
    assert code == 1 and tree_digest(root) == before, err
    code, _, err = cli(
        capsys, "--store", str(root), "accept", cand["id"], "--expect", cand["fingerprint"]
    )
    assert code == 0, err


def test_an_option_one_queue_takes_is_refused_for_another_saying_whose_it_is(
    tmp_path: Path, capsys
) -> None:
    root = write_tree(tmp_path / "both", {**DSH, **HERMES})
    before = tree_digest(root)
    code, _, err = cli(
        capsys, "--store", str(root), "accept", "hermes-pending:a1b2c3d4", "--type", "sop"
    )
    assert code == 2 and "--type is for dsh candidates, not queued writes" in err
    code, _, err = cli(
        capsys, "--store", str(root), "accept", "20261129-0007", "hermes-pending:a1b2c3d4"
    )
    assert code == 2 and "give one queue's ids per call (got dsh, hermes)" in err
    assert tree_digest(root) == before


def test_the_cli_offers_the_options_a_layout_declares(
    tmp_path: Path, capsys, monkeypatch: Any
) -> None:
    """A filter declared by a layout's detection is `pending`'s option, picking that
    layout's items by the field it names; no CLI module knows it."""
    root = write_tree(
        tmp_path / ".hermes",
        {**HERMES, "pending/memory/b2c3d4e5.json": hermes_record("b2c3d4e5", "Tabs")},
    )
    path = root / "pending/memory/b2c3d4e5.json"
    path.write_text(path.read_text().replace('"foreground"', '"background_review"'))
    origin = QueueOption("--origin", "origin", "only writes staged by this", picks="origin")
    monkeypatch.setattr(detectors()["hermes"], "queue_options", (origin,))
    code, out, err = cli(capsys, "--store", str(root), "pending", "--origin", "foreground")
    assert code == 0, err
    assert out.startswith("hermes-pending:a1b2c3d4") and "b2c3d4e5" not in out
    code, out, _ = cli(capsys, "--store", str(root), "pending", "--origin", "nobody")
    assert out == "nothing to approve — no hermes queued write matches --origin\n"


def test_accept_completes_every_queues_ids(tmp_path: Path, capsys) -> None:
    root = write_tree(tmp_path / "both", {**DSH, **HERMES})
    code, out, _ = cli(capsys, "__complete-ids", "--kind", "queued", "--store", str(root))
    assert code == 0 and out.split() == ["20261129-0007", "hermes-pending:a1b2c3d4"]
