"""Every performance figure, each against its floor measured in the same run.

    .venv/bin/python benchmarks/all.py [--size 500] [--dir D] [--rounds 5] [--json] [--quick]
                                       [--busy] [--scale]

Runs are alternating: each round times the floor and then memtui, so a noisy
machine's drift hits both alike, and a ratio is the median of the rounds' ratios.
Read side (run.py): open and check ÷ reading every byte in one Python process (cold:
no cache; warm_open, warm_check: a second open of the unchanged store, its cache kept),
search ÷ `grep -rF` (the worse of two queries). Write side (bulk_accept.py):
bulk accept ÷ the same number of durable single-file writes; maintain on the small
store with one 10 MB fact line ÷ maintain without it (maintain_long.py). The app (ui.py,
in a child process): the store fully shown on the large store, first screen
large ÷ small, key → frame median, and the CPU share of one core while idle
for a minute on the large store with the live poller on (the small store's, for
reference, is printed as the floor), and its accept (and reject) of every candidate ÷
the command line's `accept --all` (`reject` naming them all) on a copy of the store.

`--json` prints `{"figure": {"ratio": …, "target": …, "ok": …}}` as the last
line. `--quick` is a smoke test on a tiny store (figures meaningless). memtui's
bytecode is compiled first, as a wheel install has it.
`--busy` keeps one core busy with another process for the whole run (started and
stopped here): the gates must hold on a machine doing something else too. `--scale`
times the costs on stores of --size 125, 500 and 2,000 instead and prints how each
grows per 4x step (scale.py).
The exit code is 0 when every gate holds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bulk_accept
import maintain_long
import run as read_side
import scale

PY = sys.executable
TODAY = dt.date(2026, 11, 29)
QUERIES = ("deploy", "周末")
# figure -> (gate, moonshot, unit); every figure is "at most" its gate.
GATES = {
    "open": (5.0, 2.0, "x read-all"),
    "check": (5.0, 2.0, "x read-all"),
    "warm_open": (5.0, 2.0, "x read-all"),
    "warm_check": (5.0, 2.0, "x read-all"),
    "search": (2.0, 1.0, "x grep -rF"),
    "bulk_accept": (1.0, 0.2, "x durable writes"),
    "maintain_long_line": (4.0, 1.5, "x without it"),
    "app_fully_shown": (2.0, 1.0, "s"),
    "app_first_screen": (1.3, 1.1, "x small store"),
    "app_key_to_frame": (0.016, 0.008, "s"),
    "app_idle_cpu": (0.01, 0.001, "of one core"),
    "app_bulk_accept": (1.5, 1.0, "x command line"),
    "app_bulk_reject": (1.5, 1.0, "x command line"),
}


def once(cmd: list[str]) -> float:
    return read_side.measure(cmd, 1)[0]


def read_figures(root: Path, rounds: int) -> dict[str, tuple[float, float, float]]:
    """figure -> (median ratio, median seconds, median floor seconds). open and check
    are cold (MEMTUI_NO_CACHE, main); warm_open and warm_check are the same through
    the cache the last open of the unchanged store kept (engine/cache.py)."""
    root_s = str(root)
    once([PY, "-c", read_side.READ_ALL, root_s])  # warm the page cache
    open_cached = [PY, "-c", read_side.OPEN_CACHED, root_s]
    check = [*read_side.MEMTUI, "check", "--json", "--store", root_s]
    with read_side.disk_cache(root.parent / "cache"):
        read_side.settle(root)
        once(open_cached)  # writes the cache the warm figures read
    samples: dict[str, list[tuple[float, float]]] = {}
    for _ in range(rounds):
        floor = once([PY, "-c", read_side.READ_ALL, root_s])
        samples.setdefault("open", []).append((once([PY, "-c", read_side.OPEN, root_s]), floor))
        with read_side.disk_cache(root.parent / "cache"):
            samples.setdefault("warm_open", []).append((once(open_cached), floor))
        floor = once([PY, "-c", read_side.READ_ALL, root_s])
        samples.setdefault("check", []).append((once(check), floor))
        with read_side.disk_cache(root.parent / "cache"):
            samples.setdefault("warm_check", []).append((once(check), floor))
        for q in QUERIES:
            grep = once(["grep", "-rF", q, root_s])
            search = [*read_side.MEMTUI, "search", "-s", q, "--store", root_s]
            samples.setdefault(f"search {q}", []).append((once(search), grep))
    return {name: summarise(pairs) for name, pairs in samples.items()}


def summarise(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    return (
        statistics.median(t / f for t, f in pairs),
        statistics.median(t for t, _ in pairs),
        statistics.median(f for _, f in pairs),
    )


def accept_figure(template: Path, count: int, rounds: int) -> tuple[float, float, float]:
    pairs = []
    for _ in range(rounds):
        base = bulk_accept.run("baseline", template, count)[0]
        pairs.append((bulk_accept.run("accept", template, count)[0], base))
    return summarise(pairs)


async def idle_cpu(root: Path, seconds: float) -> float:
    """CPU seconds per wall second, all threads, with the app open and nothing changing."""
    import ui

    app = ui.TimedApp(str(root), watch=True)
    async with app.run_test(size=(120, 36)) as pilot:
        while app.store is None:
            await pilot.pause(0.005)
        await pilot.pause(1.0)  # the poller's first walk and the panes settle
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        return (time.process_time() - cpu) / (time.perf_counter() - wall)


def app_worker(small: Path, large: Path, rounds: int, keys: int, idle: float) -> dict:
    """The app's figures, in this process (run as a child so the read side stays clean)."""
    import ui

    ui.KEYS = keys
    asyncio.run(ui.first_screen(small))  # warm imports and caches once
    firsts: dict[Path, list[tuple[float, float]]] = {small: [], large: []}
    for _ in range(rounds):
        for root in (small, large):
            gc.collect()
            firsts[root].append(asyncio.run(ui.first_screen(root)))
    ratio = statistics.median(
        b[0] / s[0] for s, b in zip(firsts[small], firsts[large], strict=True)
    )
    key = asyncio.run(ui.measure(large))["median_key"]
    gc.collect()
    idle_small = asyncio.run(idle_cpu(small, min(idle, 5.0)))  # for reference
    gc.collect()
    idle_large = asyncio.run(idle_cpu(large, idle))
    bulk = {verb: ui.bulk_side_by_side(large, rounds, verb) for verb in ("accept", "reject")}
    return {
        **{
            f"app_bulk_{verb}": (
                statistics.median(a / c for a, c in pairs),
                statistics.median(a for a, _ in pairs),
                statistics.median(c for _, c in pairs),
            )
            for verb, pairs in bulk.items()
        },
        "app_fully_shown": (statistics.median(x[1] for x in firsts[large]), 0, 0),
        "app_first_screen": (
            ratio,
            statistics.median(x[0] for x in firsts[large]),
            statistics.median(x[0] for x in firsts[small]),
        ),
        "app_key_to_frame": (key, 0, 0),
        "app_idle_cpu": (idle_large, idle_large, idle_small),
    }


def app_figures(small: Path, large: Path, rounds: int, keys: int, idle: float) -> dict:
    import subprocess

    args = [str(small), str(large), str(rounds), str(keys), str(idle)]
    out = subprocess.run(
        [PY, __file__, "--app-worker", *args], check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    return {k: tuple(v) for k, v in json.loads(out.strip().splitlines()[-1]).items()}


def progress(what: str, figures: dict[str, tuple[float, float, float]], started: float) -> None:
    """So a long run shows what it has so far (on stderr: stdout ends with the summary)."""
    got = ", ".join(f"{name} {ratio:.2f}" for name, (ratio, _, _) in figures.items())
    print(f"[{time.perf_counter() - started:.0f}s] {what} done: {got}", file=sys.stderr, flush=True)


def compiled() -> None:
    """Bytecode for memtui, as pip writes it for every installed wheel (site-packages
    has it): an editable checkout run with PYTHONDONTWRITEBYTECODE=1 would otherwise
    compile every module it imports in every process timed."""
    import compileall

    import memtui

    compileall.compile_dir(Path(memtui.__file__).parent, quiet=2)


def stores(args: argparse.Namespace) -> tuple[Path, Path]:
    from memtui.demo import write_demo

    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-all-"))
    small, large = work / "small", work / "large"
    for root, size in ((small, 1), (large, args.size)):
        if not root.exists():
            write_demo(root, size=size, today=TODAY)
    return small, large


def report(figures: dict[str, tuple[float, float, float]], as_json: bool) -> bool:
    summary, all_ok = {}, True
    print(f"{'figure':<18}{'median':>10}{'gate':>9}{'moonshot':>10}  unit / floor  verdict")
    for name, (gate, moon, unit) in GATES.items():
        ratio, ours, floor = figures[name]
        ok = ratio < gate if name == "app_key_to_frame" else ratio <= gate
        all_ok &= ok
        verdict = ("ok" + (", moonshot" if ratio <= moon else "")) if ok else "MISS"
        detail = f"{unit}" + (f" ({ours:.3f} vs {floor:.3f})" if floor else "")
        print(f"{name:<18}{ratio:>10.3f}{gate:>9.3f}{moon:>10.3f}  {detail}  {verdict}")
        summary[name] = {"ratio": round(ratio, 4), "target": gate, "ok": ok}
    for q in QUERIES:
        ratio, ours, floor = figures[f"search {q}"]
        print(f"  search -s {q}: {ratio:.2f}x ({ours:.3f}s vs grep {floor:.3f}s)")
    if as_json:
        print(json.dumps(summary, ensure_ascii=False))
    return all_ok


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--app-worker":
        small, large, rounds, keys, idle = sys.argv[2:7]
        got = app_worker(Path(small), Path(large), int(rounds), int(keys), float(idle))
        print(json.dumps(got))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=500)
    ap.add_argument("--dir", help="reuse (or create) the small and large stores here")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="a JSON summary as the last line")
    ap.add_argument("--quick", action="store_true", help="smoke test: tiny store, one round")
    ap.add_argument("--busy", action="store_true", help="keep one core busy meanwhile")
    ap.add_argument("--scale", action="store_true", help="growth on --size 125, 500, 2000")
    args = ap.parse_args()
    os.environ[read_side.NO_CACHE] = "1"  # every figure cold but the warm ones
    with busy_core(args.busy):
        return run_all(args)


@contextlib.contextmanager
def busy_core(on: bool) -> Iterator[None]:
    """Another process spinning on one core for as long as the run takes."""
    if not on:
        yield
        return
    import subprocess

    spinner = subprocess.Popen([PY, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def run_all(args: argparse.Namespace) -> int:
    if args.scale:
        work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-scale-"))
        work.mkdir(parents=True, exist_ok=True)
        compiled()
        return 0 if scale.scale(work, 1 if args.quick else min(args.rounds, 3), TODAY) else 1
    # Idle is watched for a minute: long enough for the poller's sweep of every file
    # and its walk of the tree (each paced to its cost, every 30-60 s on 17,000 files).
    count, keys, idle, megabytes = 1000, 300, 60.0, 10.0
    if args.quick:
        args.size, args.rounds, count, keys, idle, megabytes = 2, 1, 20, 5, 0.5, 0.1
    compiled()
    small, large = stores(args)
    started = time.perf_counter()
    figures = read_figures(large, args.rounds)
    figures["search"] = max((figures[f"search {q}"] for q in QUERIES), key=lambda f: f[0])
    progress("read side", figures, started)
    figures["bulk_accept"] = accept_figure(large, count, args.rounds)
    progress("bulk accept", figures, started)
    work = small.parent / "maintain"
    figures["maintain_long_line"] = maintain_long.figure(work, megabytes, args.rounds)
    progress("maintain", figures, started)
    figures.update(app_figures(small, large, args.rounds, keys, idle))
    took = time.perf_counter() - started
    print(f"--size {args.size}, {args.rounds} alternating rounds, {took:.0f}s")
    return 0 if report(figures, args.json) else 1


if __name__ == "__main__":
    raise SystemExit(main())
