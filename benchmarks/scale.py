"""How each cost grows with the store: `benchmarks/all.py --scale`.

Times open, check, search, a bulk accept of 10% of the candidates and the app's store
fully shown on demo stores of --size 125, 500 and 2,000 (4x steps), each in a process
of its own (its peak memory read from the kernel), sizes taken in turn each round so
a noisy machine's drift hits all alike; medians of the rounds. Prints each figure's
growth per step: at most GROWTH (4.4x per 4x of store) is a straight line; more is a
path that grows faster than the store, named as such.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bulk_accept
import run as read_side

PY = sys.executable
SIZES = (125, 500, 2000)
GROWTH = 4.4  # per 4x of store
FIGURES = ("open", "check", "search", "accept 10%", "app shown")


def timed(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak MiB) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed")
    if cmd[-2:-1] == ["--app"]:  # the app's own figure: from creating it to shown
        seconds = float(out.decode().strip().splitlines()[-1])
    return seconds, usage.ru_maxrss / 1024


def candidates(root: Path) -> int:
    return sum(1 for n in os.listdir(root / "pending") if n.endswith(".md"))


def one_round(root: Path) -> dict[str, tuple[float, float]]:
    s = str(root)
    got = {
        "open": timed([PY, "-c", read_side.OPEN, s]),
        "check": timed([*read_side.MEMTUI, "check", "--json", "--store", s]),
        "search": timed([*read_side.MEMTUI, "search", "-s", "deploy", "--store", s]),
        "app shown": timed([PY, __file__, "--app", s]),
    }
    seconds, peak, _ = bulk_accept.run("accept", root, candidates(root) // 10)
    got["accept 10%"] = (seconds, peak)
    return got


WRITE = """
import datetime, pathlib, sys
from memtui.demo import write_demo
day = datetime.date.fromisoformat(sys.argv[3])
write_demo(pathlib.Path(sys.argv[1]), size=int(sys.argv[2]), today=day)
"""


def scale(work: Path, rounds: int, today: object) -> bool:
    roots = {size: work / f"scale-{size}" for size in SIZES}
    for size, root in roots.items():
        if not root.exists():
            print(f"writing the --size {size} store…", file=sys.stderr, flush=True)
            # In a child: a process started from this one counts this one's memory as
            # its own peak (the kernel's high-water mark survives the exec), so this one
            # stays small, or every figure's peak would be the store writer's.
            subprocess.run([PY, "-c", WRITE, str(root), str(size), str(today)], check=True)
    read_side.measure([PY, "-c", read_side.READ_ALL, str(roots[SIZES[-1]])], 1)  # warm
    samples: dict[int, list[dict[str, tuple[float, float]]]] = {s: [] for s in SIZES}
    for n in range(rounds):
        for size in SIZES:
            samples[size].append(one_round(roots[size]))
            print(f"[round {n + 1}] --size {size} done", file=sys.stderr, flush=True)
    med = {
        size: {
            f: (
                statistics.median(r[f][0] for r in rs),
                statistics.median(r[f][1] for r in rs),
            )
            for f in FIGURES
        }
        for size, rs in samples.items()
    }
    return report(med)


def report(med: dict[int, dict[str, tuple[float, float]]]) -> bool:
    steps = list(itertools.pairwise(SIZES))
    head = "".join(f"{f'--size {s}':>12}" for s in SIZES)
    grow = "".join(f"{f'{a}->{b}':>12}" for a, b in steps)
    print(f"{'figure':<22}{head}{grow}  verdict")
    ok_all, summary = True, {}
    for f in FIGURES:
        for what, i, unit in (("time", 0, "s"), ("peak memory", 1, "MiB")):
            values = [med[s][f][i] for s in SIZES]
            growth = [b / a if a else float("inf") for a, b in itertools.pairwise(values)]
            ok = all(g <= GROWTH for g in growth)
            ok_all &= ok
            cells = "".join(f"{v:>11.2f}{unit[0]}" for v in values)
            cells += "".join(f"{g:>11.2f}x" for g in growth)
            print(f"{f + ' ' + what:<22}{cells}  {'ok' if ok else 'GROWS FASTER THAN THE STORE'}")
            summary[f"{f} {what}"] = {
                "values": [round(v, 4) for v in values],
                "growth": [round(g, 3) for g in growth],
                "ok": ok,
            }
    print(json.dumps(summary))
    return ok_all


async def app_shown(root: str) -> float:
    import ui

    return (await ui.first_screen(Path(root)))[1]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--app"]:
        print(asyncio.run(app_shown(sys.argv[2])))
