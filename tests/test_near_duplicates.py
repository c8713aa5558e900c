"""Maintenance finds every near-duplicate pair of facts (issue: neighbours-only missed
pairs far apart in sort order, and facts differing only in numbers). The filter in
engine/similar.py is checked against brute force: every pair scored by rapidfuzz."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Indel

from memtui.demo.generator import write_demo
from memtui.engine.model import item_text
from memtui.engine.similar import similar_pairs
from memtui.layouts.dsh import ops as dsh
from memtui.layouts.dsh.maintain import NEAR_RATIO
from memtui.layouts.dsh.text import loose_key, shape_key


def brute(texts: list[str], threshold: float) -> set[tuple[int, int]]:
    """Every pair scored: the truth the filter must equal."""
    found = set()
    for i, text in enumerate(texts[:-1]):
        if not text:
            continue
        choices = {j: other for j, other in enumerate(texts) if j > i and other}
        for _, _, j in process.extract(
            text, choices, scorer=Indel.normalized_similarity, score_cutoff=threshold, limit=None
        ):
            found.add((i, j))
    return found


def demo_facts(tmp_path: Path, count: int) -> list[str]:
    write_demo(tmp_path, 30, today=dt.date(2026, 11, 30))
    text = (tmp_path / "facts.md").read_text(encoding="utf-8")
    facts = [item_text(line) for line in text.split("\n") if line.startswith("- ")]
    assert len(facts) >= count
    return facts[:count]


def test_the_filter_finds_every_pair_brute_force_finds_on_2000_demo_facts(tmp_path):
    facts = demo_facts(tmp_path, 2000)
    for keys in ([loose_key(f) for f in facts], [shape_key(loose_key(f)) for f in facts]):
        truth = brute(keys, NEAR_RATIO)
        got = similar_pairs(keys, NEAR_RATIO)
        assert {(i, j) for i, j, _ in got} == truth
        assert len(truth) > 100  # the sample really has near duplicates
        assert all(r == Indel.normalized_similarity(keys[i], keys[j]) for i, j, r in got)


def test_maintain_counts_every_pair_of_2000_facts(tmp_path):
    facts = demo_facts(tmp_path / "demo", 2000)
    root = tmp_path / "store"
    root.mkdir()
    (root / "index.txt").write_text("# L1\n", encoding="utf-8")
    unique = list(dict.fromkeys(" ".join(f.split()) for f in facts))
    (root / "facts.md").write_text(
        "# Facts\n\n## all\n" + "".join(f"- {f}\n" for f in unique), encoding="utf-8"
    )
    shapes = [shape_key(loose_key(f)) for f in unique]
    truth = brute(shapes, NEAR_RATIO) | {
        (i, j)
        for i in range(len(shapes))
        for j in range(i + 1, len(shapes))
        if shapes[i] == shapes[j] and shapes[i]
    }
    report = dsh.maintain(root).details
    assert report["nearDuplicatesFound"] == len(truth)
    assert len(report["nearDuplicates"]) == min(100, len(truth))


# A few words and numbers, mutated: near and far pairs, short and long strings, CJK.
ALPHABET = "abcde 的是了12"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(ALPHABET, max_size=30), min_size=2, max_size=40),
    st.sampled_from([0.6, 0.8, 0.9, 0.95]),
)
def test_the_filter_equals_brute_force_on_any_strings(texts, threshold):
    got = similar_pairs(texts, threshold)
    assert {(i, j) for i, j, _ in got} == brute(texts, threshold)


FILLER = [
    f"{w} service {n} keeps logs for {w}{n}"
    for n, w in enumerate(re.findall(r"\w+", "q r s t u v w x y z" * 20))
]


def test_near_duplicates_far_apart_in_sort_order_are_found(tmp_path):
    # the two differ at both ends, so no sort order puts them side by side
    first = "a the nvidia driver on nas needs a reboot after every upgrade x"
    second = "b the nvidia driver on nas needs a reboot after every upgrade y"
    root = tmp_path
    (root / "index.txt").write_text("# L1\n", encoding="utf-8")
    lines = [first, *FILLER, second]
    (root / "facts.md").write_text(
        "# Facts\n\n## all\n" + "".join(f"- {f}\n" for f in lines), encoding="utf-8"
    )
    report = dsh.maintain(root).details
    pairs = [sorted(n["facts"]) for n in report["nearDuplicates"] if not n["numbersOnly"]]
    assert [first, second] in pairs


def test_a_string_no_other_is_near_in_length_is_never_split_into_grams(monkeypatch):
    import memtui.engine.similar as similar

    made: list[int] = []
    real = similar._grams
    monkeypatch.setattr(similar, "_grams", lambda text: made.append(len(text)) or real(text))
    long = "x" * 50_000
    texts = ["deploy nginx on nas", "deploy nginx on nas!", long, "a"]
    assert similar_pairs(texts, NEAR_RATIO) == [(0, 1, similar_pairs(texts[:2], NEAR_RATIO)[0][2])]
    assert len(long) not in made and 1 not in made  # nothing near their lengths


def test_maintain_leaves_a_very_long_fact_out_of_the_near_duplicate_work(tmp_path, monkeypatch):
    """A fact past NEAR_MAX_CHARS costs its length, not its square: neither its keys nor
    its q-grams are made, and the near duplicates of the other facts stay as they were."""
    from memtui.layouts.dsh import maintain as dsh_maintain

    facts = [*FILLER[:30], "the nvidia driver on nas needs a reboot after upgrades"]
    long = "- " + "the nvidia driver on nas needs a reboot " * 2_000
    plain, with_long = tmp_path / "plain", tmp_path / "long"
    for root, extra in ((plain, []), (with_long, [long[2:], long[2:]])):
        root.mkdir()
        (root / "index.txt").write_text("# L1\n", encoding="utf-8")
        lines = [*facts, *extra]
        (root / "facts.md").write_text(
            "# Facts\n\n## all\n" + "".join(f"- {f}\n" for f in lines), encoding="utf-8"
        )
    keyed: list[int] = []
    compared: list[int] = []
    real_key, real_pairs = dsh_maintain.loose_key, dsh_maintain.similar_pairs
    monkeypatch.setattr(dsh_maintain, "loose_key", lambda t: keyed.append(len(t)) or real_key(t))
    monkeypatch.setattr(
        dsh_maintain,
        "similar_pairs",
        lambda texts, t: compared.extend(map(len, texts)) or real_pairs(texts, t),
    )
    expected = dsh.maintain(plain).details
    got = dsh.maintain(with_long).details
    assert max(keyed) <= dsh_maintain.NEAR_MAX_CHARS
    assert max(compared) <= dsh_maintain.NEAR_MAX_CHARS
    assert got["nearDuplicatesNotCompared"] == 1  # the second copy is an exact duplicate
    assert got["duplicatesFound"] == 1
    assert (got["nearDuplicates"], got["nearDuplicatesFound"]) == (
        expected["nearDuplicates"],
        expected["nearDuplicatesFound"],
    )
    assert "nearDuplicatesNotCompared" not in expected and expected["nearDuplicatesFound"]
