"""The notes layout's part of `memtui demo`: notes/NOTES.md, deterministic."""

from __future__ import annotations

from typing import Any

TOPICS = (
    ("Deploy checklist", ["run the tests", "tag the release", "watch the error rate"]),
    ("Ideas", ["a dark theme", "export to CSV"]),
    ("People", ["Ana reviews the parser", "Bo owns the release"]),
    ("Reading list", ["Designing Data-Intensive Applications"]),
    ("Open questions", ["why is the cache cold on Mondays?"]),
)


def build_notes(sink: Any, rng: Any, size: int, today: Any) -> dict[str, int]:
    out = ["# Notes", "", f"Kept by the agent since {today:%Y-%m-%d}.", ""]
    count = 0
    for round_no in range(size):
        for title, items in TOPICS:
            suffix = f" {round_no + 1}" if round_no else ""
            out.append(f"## {title}{suffix}")
            out += [f"- {item}" for item in rng.sample(items, len(items))]
            out.append("")
            count += 1
    out += ["## Ideas", ""]  # a second note of that name, empty: two findings to show
    sink.write("notes/NOTES.md", "\n".join(out))
    return {"notes": count + 1}
