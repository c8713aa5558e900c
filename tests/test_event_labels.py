"""An event's label is its number as `E` and three digits at least, however the heading
writes the number (companion/parse._event writes the usual ones without formatting)."""

from __future__ import annotations

import pytest

from memtui.engine.textfile import TextFile
from memtui.layouts.companion.parse import _events


def _labels(headings: list[str]) -> list[tuple[int | None, str]]:
    text = "".join(f"### {h} 2024-04-13 · 约定\n**类型**：约定\n\n" for h in headings)
    tf = TextFile("memory/events.md", text, False, len(text.encode()), None)
    return [(e.number, e.label) for e in _events(tf)]


@pytest.mark.parametrize(
    "digits",
    ["0", "5", "05", "005", "0005", "00012", "123", "1234", "98765", "000", "0000", "1000000"],
)
def test_a_label_is_the_number_formatted(digits: str) -> None:
    number = int(digits)
    assert _labels([f"[E{digits}]"]) == [(number, f"E{number:03d}")]


def test_a_number_in_other_digits_is_no_number() -> None:
    ((number, label),) = _labels(["[E١٢٣]"])  # Arabic-Indic digits: decimal, not ASCII
    assert number is None and label == "L1"


def test_the_same_number_written_twice_ways_gets_one_label() -> None:
    assert [label for _, label in _labels(["[E007]", "[E7]", "[E0007]"])] == ["E007"] * 3
