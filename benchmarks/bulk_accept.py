"""Write-side benchmark: bulk accept of 1,000 candidates on the large demo store.

    .venv/bin/python benchmarks/bulk_accept.py [--size 500] [--count 1000] [--repeat 3]

Baseline, measured in the same run on the same disk: the same number of plain
single-file atomic writes, each the size of a candidate, done the durable way
(temp file, fsync, os.replace, fsync of the folder, as memtui's own writes).
`--no-dir-fsync` drops the folder fsync from the baseline (a faster, weaker
one). Each side runs in its own process on a fresh copy of the store; the time
is measured inside the process (the operation only), the memory is the
process's peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable


def worker_accept(root: str, count: int) -> dict[str, float]:
    from memtui.layouts.dsh import ops as dsh

    ids = sorted(n[:-3] for n in os.listdir(os.path.join(root, "pending")) if n.endswith(".md"))
    start = time.perf_counter()
    receipts = dsh.accept(root, ids[:count])
    elapsed = time.perf_counter() - start
    return {"seconds": elapsed, "chunks": len(receipts)}


def worker_baseline(root: str, count: int, dir_fsync: bool = True) -> dict[str, float]:
    folder = os.path.join(root, "baseline")
    os.makedirs(folder)
    payload = Path(root, "pending", sorted(os.listdir(os.path.join(root, "pending")))[0])
    data = payload.read_bytes()
    start = time.perf_counter()
    for i in range(count):
        final = os.path.join(folder, f"f{i}.md")
        temp = final + ".tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, data)
        os.fsync(fd)
        os.close(fd)
        os.replace(temp, final)
        if dir_fsync:
            dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            os.fsync(dfd)
            os.close(dfd)
    return {"seconds": time.perf_counter() - start, "chunks": 0}


def run(kind: str, template: Path, count: int) -> tuple[float, float, int]:
    work = Path(tempfile.mkdtemp(prefix="memtui-bulk-"))
    root = work / "store"
    shutil.copytree(template, root, symlinks=True)
    # The copy's 100 MB are still being written back: each side starts from a settled
    # disk, so that neither side's fsyncs wait for the copy (ext4's ordered mode makes
    # a journal commit flush the data of every file it holds).
    os.sync()
    try:
        proc = subprocess.Popen(
            [PY, __file__, "--worker", kind, str(root), str(count)], stdout=subprocess.PIPE
        )
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{kind} worker failed")
        result = json.loads(out)
        return result["seconds"], usage.ru_maxrss / 1024, int(result["chunks"])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        kind, root, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
        if kind == "accept":
            print(json.dumps(worker_accept(root, count)))
        else:
            print(json.dumps(worker_baseline(root, count, kind == "baseline")))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=500)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", help="reuse (or create) the template store here")
    ap.add_argument("--no-dir-fsync", action="store_true", help="weaker baseline: no folder fsync")
    args = ap.parse_args()
    template = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-bench-")) / "s"
    if not template.exists():
        subprocess.run(
            [
                PY,
                "-m",
                "memtui",
                "demo",
                "--no-ui",
                "--dir",
                str(template),
                "--size",
                str(args.size),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    rows = {}
    base_kind = "baseline-nodirsync" if args.no_dir_fsync else "baseline"
    for kind in (base_kind, "accept"):
        runs = [run(kind, template, args.count) for _ in range(args.repeat)]
        rows[kind] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs), runs[0][2])
    base, ours = rows[base_kind], rows["accept"]
    print(f"{args.count} operations on a --size {args.size} store (median of {args.repeat})")
    how = "temp + fsync + replace" + ("" if args.no_dir_fsync else " + folder fsync")
    print(f"  baseline  {base[0]:8.3f}s  peak {base[1]:6.1f} MiB  ({how} each)")
    print(f"  accept    {ours[0]:8.3f}s  peak {ours[1]:6.1f} MiB  ({ours[2]} chunks)")
    ratio = ours[0] / base[0]
    print(f"  ratio     {ratio:8.2f}   target <= 1.0  {'ok' if ratio <= 1.0 else 'MISS'}")
    return 0 if ratio <= 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
