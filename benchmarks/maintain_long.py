"""maintain on a dsh store with one very long fact line beside the usual ones.

    .venv/bin/python benchmarks/maintain_long.py [--mb 10] [--rounds 5] [--dir D]

The store is the small demo store with a `## LONG` section of one `- ` line of
--mb megabytes at the end of facts.md; its floor is `maintain` on the same store
without that line, measured in the same run (alternating). Both are the command's
dry run (`memtui maintain`), each in its own process; the figure is the median
ratio. A fact compared like the others costs its length squared (10 MB: 23 s and
2.9 GB before near-duplicate work was bounded); bounded, it costs what reading it does.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path

import run as read_side

WORDS = ("deploy", "nginx", "nas", "venv", "port", "的", "在", "重启", "11", "2.6.4")


def stores(work: Path, megabytes: float) -> tuple[Path, Path]:
    """(plain, long): the small demo store, and a copy with the long fact line."""
    import shutil

    from memtui.demo import write_demo

    plain, long = work / "plain", work / "long"
    if not plain.exists():
        write_demo(plain, size=1)
    if long.exists():
        shutil.rmtree(long)
    shutil.copytree(plain, long)
    chars = int(megabytes * 1_000_000)
    rng = random.Random(1)
    words: list[str] = []
    total = 0
    while total < chars:
        words.append(rng.choice(WORDS))
        total += len(words[-1]) + 1
    facts = long / "facts.md"
    text = facts.read_text(encoding="utf-8")
    facts.write_text(text.rstrip("\n") + "\n\n## LONG\n- " + " ".join(words) + "\n", "utf-8")
    return plain, long


def figure(work: Path, megabytes: float, rounds: int) -> tuple[float, float, float]:
    """(median ratio, median seconds with the long line, median seconds without)."""
    plain, long = stores(work, megabytes)
    cmd = [*read_side.MEMTUI, "maintain", "--store"]
    read_side.measure([*cmd, str(long)], 1)  # warm the page cache and the bytecode
    pairs = []
    for _ in range(rounds):
        floor = read_side.measure([*cmd, str(plain)], 1)[0]
        pairs.append((read_side.measure([*cmd, str(long)], 1)[0], floor))
    return (
        statistics.median(t / f for t, f in pairs),
        statistics.median(t for t, _ in pairs),
        statistics.median(f for _, f in pairs),
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=10.0, help="the long line's size")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", help="reuse (or create) the stores here")
    args = ap.parse_args()
    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-maintain-"))
    ratio, long_s, plain_s = figure(work, args.mb, args.rounds)
    print(
        f"maintain with a {args.mb:g} MB fact line: {long_s:.3f}s, without: {plain_s:.3f}s, "
        f"ratio {ratio:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
