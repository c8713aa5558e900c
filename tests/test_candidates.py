"""Pending dsh candidates (SPEC §3): why one cannot be accepted is named for what is wrong
with its target, alike in `pending`, `accept`, `check` and a reopen; a rejected candidate
comes back byte for byte, under its own name, through the CLI or the engine."""

from __future__ import annotations

import json
from pathlib import Path

from memtui.engine.store import open_store
from memtui.layouts.dsh import ops as dsh
from tests.conftest import run_cli, write_tree
from tests.helpers import DSH_INDEX, ENV, TODAY_DATE, findings


def sop_candidate(cid: str, target: str) -> str:
    return (
        f"---\nid: {cid}\nentry_type: sop\ntarget: {json.dumps(target)}\n"
        f'evidence: "ran it: ok"\nsource_session: s\ncreated_at: 2026-11-29T00:00:00Z\n---\n'
        "1. step\n"
    )


# --- a candidate's target ---------------------------------------------------------------


def test_pending_says_a_target_leads_outside_the_root(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "d",
        {
            "index.txt": DSH_INDEX,
            "pending/c1.md": sop_candidate("c1", "../../escape"),
            "pending/c2.md": "---\nid: c2\nentry_type: [unclosed\n---\n- x\n",
        },
    )
    got = run_cli("pending", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    escape = next(ln for ln in got.stdout.splitlines() if ln.startswith("c1"))
    assert "leads outside the store root" in escape
    assert "broken front matter" not in escape
    broken = next(ln for ln in got.stdout.splitlines() if ln.startswith("c2"))
    assert "front matter" in broken  # still named for what it is


def test_a_sop_target_with_a_slash_is_not_called_an_escape(tmp_path: Path) -> None:
    """SPEC §3: a sop is one file sops/<name>.md, so `/` is refused, but it does not
    leave the root: the reason must say what is wrong, everywhere it is shown."""
    root = write_tree(
        tmp_path / "d",
        {"index.txt": DSH_INDEX, "pending/c3.md": sop_candidate("c3", "[bold]sopname[/]")},
    )
    got = run_cli("accept", "c3", "--store", str(root), env=ENV)
    assert got.returncode == 1
    assert "outside the store root" not in got.stderr
    assert "sops/<name>.md" in got.stderr
    # the reader agrees: listed as not acceptable, with the same reason
    store = open_store(root, today=TODAY_DATE)
    assert store.data.get("dsh") is not None
    assert [c.valid for c in store.data.get("dsh").candidates] == [False]
    assert ("pending-bad-frontmatter", "error", "pending/c3.md", 1) in findings(root)
    shown = run_cli("pending", "--store", str(root), env=ENV).stdout
    assert "sops/<name>.md" in shown and "outside the store root" not in shown


def test_a_sop_name_with_two_dots_inside_is_a_bare_name(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "d", {"index.txt": DSH_INDEX, "pending/c4.md": sop_candidate("c4", "v1..2")}
    )
    dsh.accept(root, ["c4"])
    assert (root / "sops/v1..2.md").read_text() == "1. step\n"


CANDIDATE = (
    "---\nid: 20261129-0001\nentry_type: fact\ntarget: TOOLS\n"
    'evidence: "ran it: ok"\n---\n- ruff is the linter\n'
)


def test_a_nested_sop_target_is_judged_by_its_name_on_reopen_too(tmp_path: Path) -> None:
    import os

    cand = CANDIDATE.replace("entry_type: fact\ntarget: TOOLS", "entry_type: sop\ntarget: sub/x")
    root = write_tree(
        tmp_path / "d",
        {"index.txt": DSH_INDEX, "facts.md": "# Facts\n", "pending/c.md": cand, "sops/a.md": "a"},
    )
    outside = write_tree(tmp_path / "out", {"x.md": "secret\n"})
    before = open_store(root, reopen=True)
    (root / "sops/sub").mkdir()
    os.symlink(outside / "x.md", root / "sops/sub/x.md")
    assert open_store(root, previous=before) == open_store(root)


# --- a rejected candidate brought back -------------------------------------------------


def test_reject_then_restore_gives_back_the_candidate_byte_for_byte(tmp_path: Path) -> None:
    bare = "- no front matter at all\n"  # the reject made a block for it
    root = write_tree(
        tmp_path / "d",
        {
            "index.txt": DSH_INDEX,
            "facts.md": "# Facts\n",
            "memory_stats.json": '{"pending": 2, "rejected": 0}\n',
            "pending/20261129-0001.md": CANDIDATE,
            "pending/bare.md": bare,
        },
    )
    dsh.reject(str(root), ["20261129-0001", "bare"], "not true")
    assert not (root / "pending").exists() or not list((root / "pending").iterdir())
    for name, text in (("20261129-0001", CANDIDATE), ("bare", bare)):
        got = run_cli("restore", f"pending:{name}", "--store", str(root), env=ENV)
        assert got.returncode == 0, got.stderr
        assert (root / "pending" / f"{name}.md").read_text(encoding="utf-8") == text
        assert not (root / "archive" / "rejected" / f"{name}.md").exists()
    stats = json.loads((root / "memory_stats.json").read_text(encoding="utf-8"))
    assert (stats["pending"], stats["rejected"]) == (2, 0)
    got = run_cli("restore", "pending:20261129-0001", "--store", str(root), env=ENV)
    assert got.returncode == 1 and "no rejected candidate" in got.stderr
    got = run_cli("restore", "pending:../../etc/passwd", "--store", str(root), env=ENV)
    assert got.returncode == 1 and "not a rejected candidate" in got.stderr


def test_a_twice_rejected_id_comes_back_under_its_own_name(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "d",
        {"index.txt": DSH_INDEX, "facts.md": "# Facts\n", "pending/20261129-0001.md": CANDIDATE},
    )
    dsh.reject(str(root), ["20261129-0001"], "once")
    (root / "pending/20261129-0001.md").write_text(CANDIDATE, encoding="utf-8")
    dsh.reject(str(root), ["20261129-0001"], "twice")
    assert (root / "archive/rejected/20261129-0001.1.md").exists()
    dsh.restore(str(root), "pending:20261129-0001.1")
    assert (root / "pending/20261129-0001.md").read_text(encoding="utf-8") == CANDIDATE


def test_why_a_candidate_cannot_be_accepted_is_the_engines_for_both_faces(tmp_path: Path) -> None:
    """Candidate.problem: what the pending pane shows and `memtui pending` prints."""
    root = write_tree(
        tmp_path / "d",
        {
            "index.txt": DSH_INDEX,
            "pending/a.md": sop_candidate("a", "deploy"),
            "pending/b.md": sop_candidate("b", "../../escape"),
            "pending/c.md": "---\nid: c\nentry_type: [unclosed\n---\n- x\n",
            "pending/d.md": "---\nid: d\nentry_type: fact\ntarget: GIT\n---\n- x\n",
        },
    )
    by_id = {c.id: c for c in open_store(root).data.get("dsh").candidates}  # type: ignore[union-attr]

    assert by_id["a"].problem is None and by_id["a"].acceptable
    assert "leads outside the store root" in (by_id["b"].problem or "")
    assert (by_id["c"].problem or "").startswith("broken front matter: ")
    assert by_id["d"].problem == "no evidence (No Execution, No Memory)"
    assert not any(by_id[i].acceptable for i in "bcd")
    listed = run_cli("pending", "--store", str(root), env=ENV).stdout.splitlines()
    for cid in "bc":
        shown = next(ln for ln in listed if ln.startswith(cid))
        assert f"[{by_id[cid].problem}]" in shown
