"""Maintenance of a dsh store (SPEC §3 "Maintain"): exact duplicate facts removed,
near duplicates reported (merged only when the user says so, by editing), the index's
automatic segment rebuilt, counts refreshed, maintenance-report.json written.

Near duplicates are every pair of facts at least NEAR_RATIO alike once case,
punctuation, blanks and the values of numbers are ignored (their "shape"). Facts
of one shape (the same words, numbers apart) are counted without comparing them;
distinct shapes are paired by engine.similar, exactly and without comparing every
pair, so 50,000 facts take about a second. A fact longer than NEAR_MAX_CHARS is left
out (its keys, q-grams and similarity cost time and memory by its length, up to its
square: one 10 MB line took 23 s and 2.9 GB); exact duplicates of it are still found.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memtui.engine.model import item_text
from memtui.engine.ops.common import current_text, now_iso, update_json
from memtui.engine.similar import similar_pairs
from memtui.engine.textfile import decode, line_count
from memtui.engine.words import clauses
from memtui.engine.write.transaction import Receipt
from memtui.i18n import msg
from memtui.layouts.dsh.books import FactsState, counts, plan_index, plan_stats, sop_names
from memtui.layouts.dsh.parse import FACTS, INDEX, REPORT
from memtui.layouts.dsh.store import begin
from memtui.layouts.dsh.text import (
    fact_key,
    fact_sections,
    loose_key,
    remove_lines,
    section_names,
    shape_key,
)

NEAR_RATIO = 0.9
NEAR_REPORTED = 100  # pairs listed in the report (all are counted)
NEAR_MAX_CHARS = 2000  # longer facts are not compared for near duplicates


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
        near_found, near, long_facts = _near(unique)
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
            "nearDuplicatesFound": near_found,
            "indexLinesBefore": before,
            "indexLinesAfter": after,
        }
        if long_facts:
            report["nearDuplicatesNotCompared"] = long_facts
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
        n = len(duplicates)
        said = [
            msg("{n:,} exact duplicate fact(s) removed", n=n)
            if apply
            else msg("{n:,} exact duplicate fact(s) found (apply removes them)", n=n),
            msg("{n:,} near-duplicate pair(s) reported", n=near_found),
            msg("index {before:,} → {after:,} lines", before=before, after=after)
            if index
            else msg(
                "index {before:,} → {after:,} lines (already current)", before=before, after=after
            ),
        ]
        tx.details.update(summary=clauses(said), **report)
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


def _near(facts: list[_Fact]) -> tuple[int, list[dict[str, Any]], int]:
    """How many pairs of facts are near duplicates, the first NEAR_REPORTED of them:
    those whose words differ first (most alike first), then those that differ only in
    case, punctuation or numbers (`numbersOnly` when the numbers differ: one of the two
    may be out of date); and how many facts were too long to compare."""
    loose = [loose_key(f.text) if len(f.text) <= NEAR_MAX_CHARS else "" for f in facts]
    groups: dict[str, list[int]] = {}
    for index, key in enumerate(loose):
        if key:
            groups.setdefault(shape_key(key), []).append(index)
    shapes = list(groups)
    alike = sorted(similar_pairs(shapes, NEAR_RATIO), key=lambda p: (-p[2], p[0], p[1]))
    too_long = sum(len(f.text) > NEAR_MAX_CHARS for f in facts)
    found = sum(len(g) * (len(g) - 1) // 2 for g in groups.values())
    found += sum(len(groups[shapes[a]]) * len(groups[shapes[b]]) for a, b, _ in alike)

    def listed() -> Iterator[dict[str, Any]]:
        for a, b, ratio in alike:
            for i in groups[shapes[a]]:
                for j in groups[shapes[b]]:
                    yield _pair(facts[min(i, j)], facts[max(i, j)], ratio, False)
        for members in groups.values():
            for pos, i in enumerate(members):
                for j in members[pos + 1 :]:
                    yield _pair(facts[i], facts[j], 1.0, loose[i] != loose[j])

    out: list[dict[str, Any]] = []
    for pair in listed():
        if len(out) == NEAR_REPORTED:
            break
        out.append(pair)
    return found, out, too_long


def _pair(fa: _Fact, fb: _Fact, ratio: float, numbers_only: bool) -> dict[str, Any]:
    return {
        "section": fa.section,
        "facts": [fa.text, fb.text],
        "lines": [fa.line, fb.line],
        "sections": [fa.section, fb.section],
        "similarity": round(ratio, 3),
        "numbersOnly": numbers_only,
    }
