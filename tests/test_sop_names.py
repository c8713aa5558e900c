"""A candidate's sop target is checked twice at open: is it a usable sop name, and
does `sops/<target>.md` lead outside the root. Both take a shortcut for the usual
plain file name (3,500 targets on a large store) that skips the path arithmetic; the
shortcut answers exactly what the full check answers."""

from __future__ import annotations

import datetime as dt

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.engine.config import Thresholds
from memtui.engine.reader import SCANNED_DIRS, StoreReader
from memtui.layouts.dsh import parse as dsh

NAME_CHARS = "ab-_.~/\\: \t\u3000\x00\x1f\x7f部署é"
names = st.text(alphabet=NAME_CHARS, max_size=8)


@settings(max_examples=500, deadline=None)
@given(names)
@example("deploy")
@example("..")
@example(".hidden")
@example(" padded")
@example("a\u3000")
@example("a/b")
@example("a\\b")
@example("a\x1fb")
def test_plain_name_shortcut_agrees_with_the_full_check(name):
    if dsh._plain_sop_name(name):
        assert dsh._sop_name_problem(name) is None
    assert dsh.sop_name_problem(name) == dsh._sop_name_problem(name)


def reader(tmp_path) -> StoreReader:
    (tmp_path / "sops").mkdir()
    (tmp_path / "sops" / "deploy.md").write_text("# deploy\n", encoding="utf-8")
    return StoreReader(
        str(tmp_path),
        frozenset({"sops/deploy.md", "facts.md"}),
        frozenset({"sops/out.md", "linked.md"}),
        Thresholds(),
        dt.date(2026, 11, 29),
    )


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(SCANNED_DIRS)),
    st.one_of(names, st.sampled_from(["out.md", "linked.md", "deploy.md", "."])),
)
def test_one_name_shortcut_agrees_with_the_path_check(tmp_path_factory, base_dir, ref):
    r = reader(tmp_path_factory.mktemp("s"))
    shortcut = r.escapes(base_dir, ref)
    refused = not ref or ref.startswith(("/", "~", "\\")) or "\x00" in ref or ":" in ref[:3]
    assert shortcut == (True if refused else r._escapes_by_path(base_dir, ref))


def test_a_link_out_named_by_a_bare_name_still_escapes(tmp_path):
    r = reader(tmp_path)
    assert r.escapes("sops", "out.md")
    assert r.escapes("", "linked.md")
    assert not r.escapes("sops", "deploy.md")
    assert not r.escapes("sops", "new.md")
