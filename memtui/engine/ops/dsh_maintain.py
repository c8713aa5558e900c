"""Maintenance of a dsh store (SPEC §3 "Maintain"): exact duplicate facts removed,
near duplicates reported (merged only when the user says so, by editing), the index's
automatic segment rebuilt, counts refreshed, maintenance-report.json written.

Near duplicates are found without comparing every pair: facts that are equal once
case, punctuation and blanks are ignored share a bucket, and each fact is compared
(difflib) only with its neighbours in sorted order, forwards and backwards, so
50,000 facts take a second or two, not hours.
"""

from __future__ import annotations

import difflib
import os
import time
from dataclasses import dataclass
from typing import Any

from memtui.engine.layouts.dsh import FACTS, INDEX, REPORT
from memtui.engine.model import item_text
from memtui.engine.ops.common import current_text, now_iso, update_json
from memtui.engine.ops.dsh_books import (
    FactsState,
    counts,
    plan_index,
    plan_stats,
    sop_names,
)
from memtui.engine.ops.dsh_store import (
    begin,
)
from memtui.engine.ops.dsh_text import (
    fact_key,
    fact_sections,
    loose_key,
    remove_lines,
    section_names,
    shape_key,
)
from memtui.engine.textfile import decode, line_count
from memtui.engine.write.transaction import Receipt

NEAR_RATIO = 0.9
NEAR_WINDOW = 2  # neighbours compared on each side, in each sort order
NEAR_REPORTED = 100  # pairs listed in the report (all are counted)


@dataclass(frozen=True, slots=True)
class _Fact:
    section: str
    line: int  # 1-based
    text: str


def maintain(root: str | os.PathLike[str], *, apply: bool = False) -> Receipt:
    """One maintenance run; a dry run (nothing written) unless `apply`. The receipt's
    details carry the report; a dry run's changes show what `apply` would write."""
    started = time.monotonic()
    tx = begin(root, "maintain", not apply)
    with tx:
        tf = current_text(tx, FACTS, must_exist=False)
        text = tf.text if tf else ""
        found = fact_sections(text)
        facts = _facts(text, found)
        duplicates, unique = _exact(facts)
        if duplicates and tf is not None:
            tx.write(FACTS, tf.encode(remove_lines(text, [d["line"] for d in duplicates])))
        near = _near(unique)
        state = FactsState(section_names(found), len(unique))
        sops = sop_names(tx.root)
        raw_index = tx.read(INDEX)
        index_text = decode(INDEX, raw_index) if raw_index is not None else None
        before = line_count(getattr(index_text, "text", ""))
        index = plan_index(tx, state.names, sops)
        after = index["index_lines_after"] if index else before
        now = now_iso()
        plan_stats(tx, counts(tx, state, sops, maintenance=now))
        report: dict[str, Any] = {
            "time": now,
            "duplicatesFound": len(duplicates),
            "duplicatesRemoved": len(duplicates) if tf is not None else 0,
            "duplicates": duplicates[:NEAR_REPORTED],
            "nearDuplicates": near[:NEAR_REPORTED],
            "nearDuplicatesFound": len(near),
            "indexLinesBefore": before,
            "indexLinesAfter": after,
        }
        elapsed = int((time.monotonic() - started) * 1000)

        def write_report(data: dict[str, Any]) -> None:
            if "merged" in data:  # the agent's own name for duplicates removed
                data["merged"] = report["duplicatesRemoved"]
            if "pendingMerged" in data:  # memtui merges no candidates
                data["pendingMerged"] = 0
            if "durationMs" in data:
                data["durationMs"] = elapsed
            data.update(report)

        update_json(tx, REPORT, write_report)
        verb = "removed" if apply else "found (apply removes them)"
        tx.details.update(
            summary=f"{len(duplicates)} exact duplicate fact(s) {verb}; "
            f"{len(near)} near-duplicate pair(s) reported; index {before} → {after} lines"
            + ("" if index else " (already current)"),
            **report,
        )
        return tx.commit()


def _facts(text: str, found: list[Any]) -> list[_Fact]:
    lines = text.split("\n")
    return [
        _Fact(name, number, item_text(lines[number - 1]))
        for name, _span, numbers in found
        for number in numbers
    ]


def _exact(facts: list[_Fact]) -> tuple[list[dict[str, Any]], list[_Fact]]:
    """Later copies of a fact (its first line is kept), and the facts that stay."""
    first: dict[str, _Fact] = {}
    duplicates: list[dict[str, Any]] = []
    unique: list[_Fact] = []
    for fact in facts:
        key = fact_key(fact.text)
        kept = first.get(key)
        if kept is None:
            first[key] = fact
            unique.append(fact)
        else:
            duplicates.append(
                {
                    "section": fact.section,
                    "line": fact.line,
                    "fact": fact.text,
                    "sameAs": {"section": kept.section, "line": kept.line},
                }
            )
    return duplicates, unique


def _near(facts: list[_Fact]) -> list[dict[str, Any]]:
    """Pairs of different facts that read the same once case, punctuation and blanks are
    ignored, or that are at least NEAR_RATIO alike in their words (difflib). Facts that
    differ only in numbers are different facts and are not paired. Each shape of fact is
    compared only with its neighbours in sorted order, forwards and backwards."""
    keys = [loose_key(f.text) for f in facts]
    pairs: dict[tuple[int, int], float] = {}
    first_of_key: dict[str, int] = {}
    first_of_shape: dict[str, int] = {}
    for index, key in enumerate(keys):
        if not key:
            continue
        kept = first_of_key.setdefault(key, index)
        if kept != index:
            pairs[(kept, index)] = 1.0
        first_of_shape.setdefault(shape_key(key), index)
    shapes = list(first_of_shape.items())
    for order in (sorted(shapes), sorted((s[::-1], i) for s, i in shapes)):
        matcher = difflib.SequenceMatcher(autojunk=False)
        for pos, (shape_b, b) in enumerate(order):
            matcher.set_seq2(shape_b)
            for shape_a, a in order[max(0, pos - NEAR_WINDOW) : pos]:
                pair = (min(a, b), max(a, b))
                if pair in pairs:
                    continue
                matcher.set_seq1(shape_a)
                if (
                    matcher.real_quick_ratio() >= NEAR_RATIO
                    and matcher.quick_ratio() >= NEAR_RATIO
                    and (ratio := matcher.ratio()) >= NEAR_RATIO
                ):
                    pairs[pair] = ratio
    out = []
    for (a, b), ratio in sorted(pairs.items()):
        fa, fb = facts[a], facts[b]
        out.append(
            {
                "section": fa.section,
                "facts": [fa.text, fb.text],
                "lines": [fa.line, fb.line],
                "sections": [fa.section, fb.section],
                "similarity": round(ratio, 3),
            }
        )
    return out
