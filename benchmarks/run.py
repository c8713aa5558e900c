"""Read-side benchmark: check, open and search on the large demo store.

    .venv/bin/python benchmarks/run.py [--size 500] [--dir D] [--repeat 5]

Each command runs in its own process; the time is the median wall time and the
memory is the process's peak RSS (from wait4). Floors are measured in the same
run on the same store: reading every byte of it in one Python process (for
check and open) and `grep -rF` (for search).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from memtui.engine.config import NO_CACHE  # every figure here is timed with it but the warm ones

PY = sys.executable
# The console script a user types (python -m memtui where it is not installed).
_script = Path(PY).with_name("memtui")
MEMTUI = [str(_script)] if _script.exists() else [PY, "-m", "memtui"]
READ_ALL = """
import os, sys
n = 0
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        with open(os.path.join(d, f), 'rb') as fh:
            n += len(fh.read())
"""
OPEN = "import sys; from memtui.engine import open_store; open_store(sys.argv[1])"
# A CLI verb's open: through the cache, written here (a verb's child writes it after).
OPEN_CACHED = (
    "import sys; from memtui.engine import open_store, cache; "
    "open_store(sys.argv[1], cache=True); cache.flush()"
)


@contextlib.contextmanager
def disk_cache(folder: Path) -> Iterator[None]:
    """The processes started meanwhile read (and write) a cache in `folder`."""
    saved = {name: os.environ.get(name) for name in (NO_CACHE, "XDG_CACHE_HOME")}
    os.environ.pop(NO_CACHE, None)
    os.environ["XDG_CACHE_HOME"] = str(folder)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def settle(root: Path) -> None:
    """Wait until the store's newest file is RACY_NS old: only then may a cache vouch for it."""
    from memtui.engine.rawfile import RACY_NS

    newest = max(p.stat().st_ctime_ns for p in root.rglob("*"))
    time.sleep(max(0.0, (newest + RACY_NS - time.time_ns()) / 1e9 + 0.1))


def measure(cmd: list[str], repeat: int) -> tuple[float, float]:
    """(median seconds, max peak RSS in MiB) over `repeat` runs of cmd."""
    times, peaks = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"{' '.join(cmd)} exited {code}: {err}")
    return statistics.median(times), max(peaks)


def store_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=500)
    ap.add_argument("--dir", help="reuse (or create) the store here")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    os.environ[NO_CACHE] = "1"  # cold figures: a second check must not read the first's cache
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-bench-")) / "s"
    if not root.exists():
        t = time.perf_counter()
        subprocess.run(
            [PY, "-m", "memtui", "demo", "--no-ui", "--dir", str(root), "--size", str(args.size)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"generated --size {args.size} store in {time.perf_counter() - t:.1f}s: {root}")
    size_mib = store_bytes(root) / 2**20
    files = sum(1 for p in root.rglob("*") if p.is_file())
    print(f"store: {files} files, {size_mib:.1f} MiB\n")
    r = args.repeat
    measure([PY, "-c", READ_ALL, str(root)], 1)  # warm the page cache
    _, interp_mib = measure([PY, "-c", "pass"], r)
    floor_t, floor_m = measure([PY, "-c", READ_ALL, str(root)], r)
    rows = [
        ("open", measure([PY, "-c", OPEN, str(root)], r), (floor_t, floor_m), 5.0),
        (
            "check --json",
            measure([*MEMTUI, "check", "--json", "--store", str(root)], r),
            (floor_t, floor_m),
            5.0,
        ),
    ]
    for query in ("deploy", "周末"):
        grep = measure(["grep", "-rF", query, str(root)], r)
        ours = measure([*MEMTUI, "search", "-s", query, "--store", str(root)], r)
        rows.append((f"search -s {query}", ours, grep, 2.0))
    mem_cap = 4 * size_mib + interp_mib
    print(
        f"{'what':<18}{'time':>9}{'floor':>9}{'ratio':>8}{'target':>8}"
        f"{'peak MiB':>10}{'cap MiB':>9}  verdict"
    )
    ok = True
    for name, (t, m), (ft, _fm), target in rows:
        ratio = t / ft
        good = ratio <= target and m <= mem_cap
        ok &= good
        print(
            f"{name:<18}{t:>8.3f}s{ft:>8.3f}s{ratio:>8.2f}{target:>7.1f}x"
            f"{m:>10.1f}{mem_cap:>9.1f}  {'ok' if good else 'MISS'}"
        )
    print(
        f"\nfloors: read-all {floor_t:.3f}s / {floor_m:.1f} MiB; "
        f"bare interpreter {interp_mib:.1f} MiB; grep as listed"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
