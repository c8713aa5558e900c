"""What one chunk of a bulk accept parsed is carried to the next only while the file is
still exactly what that chunk wrote: the result equals parsing afresh in every chunk, and
an agent's write between chunks is never overwritten by a carried copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.layouts.dsh import accept as dsh_accept
from memtui.layouts.dsh import chunks as dsh_chunks
from memtui.layouts.dsh import meta_json as dsh_json
from memtui.layouts.dsh import ops as dsh
from tests.conftest import write_tree
from tests.helpers import candidate, fact_meta

META = {
    "version": 1,
    "entries": {
        "fact:A": fact_meta(sourceSeqs=[1, 2], supersedes=[]),
        "sop:deploy": {"type": "sop", "status": "active", "evidence": "ok"},
    },
}


def _store(root: Path) -> Path:
    files: dict[str, str | bytes] = {
        "index.txt": "[RULES] x\n# --- auto ---\n# --- end auto ---\n",
        "facts.md": "# Facts\n\n## A\n- one\n",
        "memory-meta.json": json.dumps(META, ensure_ascii=False, indent=2) + "\n",
        "memory_stats.json": "{}\n",
        "sops/deploy.md": "# deploy\n",
    }
    for i in range(9):
        cid = f"20261130-{i:04d}"
        if i % 3 == 2:
            body = f"# s{i}\n1. step {i}\n"
            files[f"pending/{cid}.md"] = candidate(cid, f"s{i}", body, entry_type="sop")
        else:
            files[f"pending/{cid}.md"] = candidate(cid, "AB"[i % 2], f"- fact {i}\n")
    return write_tree(root, files)


def _books(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in ("memory-meta.json", "facts.md", "index.txt")}


def test_carried_books_give_the_files_a_fresh_parse_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    carried, fresh = _store(tmp_path / "carried"), _store(tmp_path / "fresh")
    monkeypatch.setattr(dsh_accept, "now_iso", lambda: "2026-11-30T12:00:00+08:00")
    got = dsh.accept(str(carried), all_pending=True, chunk_size=2)
    meta, facts = dsh_accept.update_meta, dsh_accept.read_facts
    monkeypatch.setattr(
        dsh_accept, "update_meta", lambda tx, keys, fn, *_, **__: meta(tx, keys, fn)
    )
    monkeypatch.setattr(dsh_accept, "read_facts", lambda tx, _: facts(tx))
    want = dsh.accept(str(fresh), all_pending=True, chunk_size=2)
    assert len(got) == len(want) == 5
    assert _books(carried) == _books(fresh)


def test_an_agent_write_between_chunks_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root = _store(tmp_path / "s")
    meta, facts = root / "memory-meta.json", root / "facts.md"
    real_sleep = dsh_chunks.time.sleep

    def agent_writes(seconds: float) -> None:  # the pause between chunks: the agent's turn
        data = json.loads(meta.read_text(encoding="utf-8"))
        data["entries"][f"fact:AGENT{len(data['entries'])}"] = {"type": "fact", "by": "agent"}
        meta.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        with facts.open("a", encoding="utf-8") as fh:
            fh.write("\n## AGENT\n- by the agent\n")
        real_sleep(seconds)

    monkeypatch.setattr(dsh_chunks.time, "sleep", agent_writes)
    receipts = dsh.accept(str(root), all_pending=True, chunk_size=2)
    entries = json.loads(meta.read_text(encoding="utf-8"))["entries"]
    assert sum(1 for key in entries if key.startswith("fact:AGENT")) == len(receipts) - 1 == 4
    assert {"sop:s2", "sop:s5", "sop:s8", "fact:A", "fact:B"} <= set(entries)
    text = facts.read_text(encoding="utf-8")
    assert text.count("- by the agent") == 4  # the agent's appends stay
    assert all(f"- fact {i}\n" in text for i in range(9) if i % 3 != 2)
    assert "AGENT" in (root / "index.txt").read_text(encoding="utf-8")  # counted, indexed


def test_what_is_carried_is_the_file_as_written_with_its_snapshot_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Supersedes put snapshot placeholders into memory-meta.json that are replaced by
    paths only once the snapshots exist: the next chunk must still get the text, the
    entries and their positions exactly as a fresh read and parse of the file gives."""
    files: dict[str, str | bytes] = {
        "index.txt": "[RULES] x\n# --- auto ---\n# --- end auto ---\n",
        "facts.md": "# Facts\n\n## 中文\n- 一\n",
        "memory-meta.json": json.dumps(META, ensure_ascii=False, indent=2) + "\n",
        "memory_stats.json": "{}\n",
        "sops/deploy.md": "# deploy\n",
        "sops/构建.md": "# 构建\n",
    }
    for i in range(12):
        cid = f"20261130-{i:04d}"
        target = ("deploy", "构建", "中文")[i % 3]
        kind = "fact" if target == "中文" else "sop"
        body = f"- 事实 {i}\n" if kind == "fact" else f"# {target}\n1. 第 {i} 步\n"
        files[f"pending/{cid}.md"] = candidate(cid, target, body, entry_type=kind)
    root = write_tree(tmp_path / "s", files)
    meta = root / "memory-meta.json"
    checked = []
    splice = dsh_json._splice

    def check_carried(text, keys, change, carried=None, carry_on=True):
        last = (carried or {}).get(dsh_json.META)
        if isinstance(last, dsh_json._Written):
            assert last.text == text == meta.read_text(encoding="utf-8")
            assert last.data == json.loads(text)
            fresh = dsh_json._entry_spans(text)
            assert fresh is not None and len(fresh.keys) == len(last.data["entries"])
            assert (last.spans.starts, last.spans.keys, last.spans.close) == (
                fresh.starts,
                fresh.keys,
                fresh.close,
            )
            checked.append(len(last.data["entries"]))
        return splice(text, keys, change, carried, carry_on)

    monkeypatch.setattr(dsh_json, "_splice", check_carried)
    receipts = dsh.accept(str(root), all_pending=True, chunk_size=3)
    assert len(receipts) >= 4 and len(checked) == len(receipts) - 1  # every later chunk
    entries = json.loads(meta.read_text(encoding="utf-8"))["entries"]
    snapshots = entries["sop:deploy"]["supersedes"] + entries["sop:构建"]["supersedes"]
    assert len(snapshots) == 8 and all((root / path).is_file() for path in snapshots)
    assert not any("<memtui-snapshot" in path for path in snapshots)


@pytest.mark.parametrize("chunk_size", [3, 1000])
def test_nothing_is_carried_past_the_last_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk_size: int
):
    """The last chunk uses what the one before carried but builds nothing to carry on
    (a one-chunk accept of 1,000 spent a twentieth of its time on it)."""
    root = _store(tmp_path / "s")
    splice, calls = dsh_json._splice, []

    def spy(text, keys, change, carried=None, carry_on=True):
        calls.append((carry_on, isinstance((carried or {}).get(dsh_json.META), dsh_json._Written)))
        out = splice(text, keys, change, carried, carry_on)
        if not carry_on:
            assert dsh_json.META not in (carried or {})
        return out

    monkeypatch.setattr(dsh_json, "_splice", spy)
    receipts = dsh.accept(str(root), all_pending=True, chunk_size=chunk_size)
    assert [on for on, _ in calls] == [True] * (len(receipts) - 1) + [False]
    assert [used for _, used in calls] == [False] + [True] * (len(receipts) - 1)


def test_a_bulk_reject_counts_the_facts_an_agent_adds_between_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A reject carries facts.md's parse (for the counts) only while the file is the text
    it parsed: the agent's facts added between chunks are counted by the next chunk."""
    root = _store(tmp_path / "s")
    facts, stats = root / "facts.md", root / "memory_stats.json"
    real_sleep, counted = dsh_chunks.time.sleep, []

    def agent_writes(seconds: float) -> None:
        counted.append(json.loads(stats.read_text(encoding="utf-8"))["facts"])
        with facts.open("a", encoding="utf-8") as fh:
            fh.write("- by the agent\n")
        real_sleep(seconds)

    monkeypatch.setattr(dsh_chunks.time, "sleep", agent_writes)
    receipts = dsh.reject(str(root), [f"20261130-{i:04d}" for i in range(6)], "no", chunk_size=2)
    counted.append(json.loads(stats.read_text(encoding="utf-8"))["facts"])
    assert len(receipts) == 3 and counted == [1, 2, 3]
