"""Helpers shared by the three layout builders of the demo store."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

# The agents in the seeds run in China; every timestamp they write carries +08:00.
TZ = dt.timezone(dt.timedelta(hours=8))


class Sink:
    """Writes the files of the store and counts them.

    Plain writes, no fsync: the demo is throwaway data and must stay fast at size 500.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = 0
        self.bytes = 0
        self._made_dirs: set[Path] = set()

    def write(self, relpath: str, text: str) -> None:
        """Write `text` as UTF-8 with LF line endings (it always ends with a newline)."""
        if not text.endswith("\n"):
            text += "\n"
        data = text.encode("utf-8")
        path = self.root / relpath
        parent = path.parent
        if parent not in self._made_dirs:
            parent.mkdir(parents=True, exist_ok=True)
            self._made_dirs.add(parent)
        # "x": never overwrite, not even our own file through a case-insensitive name.
        # Binary mode: no newline translation, so LF stays LF on Windows too.
        with open(path, "xb") as handle:
            handle.write(data)
        self.files += 1
        self.bytes += len(data)

    def taken(self, relpath: str) -> bool:
        """Whether the name is in use; on a case-insensitive disk MEMORY.md is memory.md."""
        return (self.root / relpath).exists()

    def write_json(self, relpath: str, value: Any) -> None:
        self.write(relpath, json.dumps(value, ensure_ascii=False, indent=2))

    def write_lines(self, relpath: str, lines: Sequence[str]) -> None:
        self.write(relpath, "\n".join(lines))


def unique_names(bases: Sequence[T], count: int, variant: Callable[[T, int], T]) -> list[T]:
    """The first `count` names: every base once, then `variant(base, 1)` for each, and so on.

    Lets small pools of realistic names cover the 2,000 topics or 5,000 sops of size 500.
    """
    rounds = -(-count // len(bases))  # ceiling division
    names = [
        base if round_no == 0 else variant(base, round_no)
        for round_no in range(rounds)
        for base in bases
    ]
    return names[:count]


def shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    copy = list(items)
    rng.shuffle(copy)
    return copy


def day(today: dt.date, days_ago: int) -> dt.date:
    return today - dt.timedelta(days=days_ago)


def at(date: dt.date, hour: int, minute: int) -> dt.datetime:
    return dt.datetime(date.year, date.month, date.day, hour, minute, tzinfo=TZ)


def random_time(rng: random.Random, date: dt.date, first_hour: int = 8) -> dt.datetime:
    """A plausible time on `date` when the user is awake and chatting."""
    return at(date, rng.randint(first_hour, 23), rng.randrange(60))


def iso(moment: dt.datetime) -> str:
    """`2026-11-29T21:40:00+08:00`, the form the agents write."""
    return moment.isoformat(timespec="seconds")


def minute_stamp(moment: dt.datetime) -> str:
    """`2026-11-29T21:40`, the form of sentinels and mood snapshots (`date +%Y-%m-%dT%H:%M`)."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def session_id(rng: random.Random) -> str:
    return f"s-{rng.getrandbits(16):04x}"


def source_seqs(rng: random.Random) -> list[int]:
    first = rng.randint(1, 180)
    return [first, first + rng.randint(1, 4)]
