"""What the dsh layout reads as sops and candidates: the `*.md` files directly in
sops/ and pending/, each list sorted; nothing in a subfolder, nothing else. `under`
finds both in one pass over the store's files."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.layouts.dsh.parse import under

PARTS = st.sampled_from(["sops", "pending", "archive", "sub", "a.md", "b.md", "x.txt", "sops.md"])
paths = st.lists(PARTS, min_size=1, max_size=3).map("/".join)


def directly_in(files: set[str], folder: str) -> list[str]:
    prefix = folder + "/"
    inside = (f[len(prefix) :] for f in files if f.startswith(prefix))
    return sorted(prefix + name for name in inside if "/" not in name and name.endswith(".md"))


@settings(max_examples=300, deadline=None)
@given(st.sets(paths, max_size=12))
def test_one_pass_finds_what_each_folder_holds(files):
    assert under(frozenset(files), "sops", "pending") == [
        directly_in(files, "sops"),
        directly_in(files, "pending"),
    ]
