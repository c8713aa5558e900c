"""Worker: memtui curating a companion store while the agent keeps appending to it.

    python memtui_loop.py ROOT TAG ITERATIONS AGENT_TOTAL AGENT_PREFIX

Each iteration is one transaction that (a) flips one open event's **状态** line from
待跟进 to 已完成 by exact string replace in memory/events.md and (b) appends the item
`- memtui-TAG-i` to memory/user_profile.md. Every fifth iteration also edits
memory/scratch-TAG.md and then rolls it back from the snapshot that edit left in
.history/ (two more transactions). Iterations are paced by the agent's progress (the
number of its events in the file, read without the lock), so memtui's writes are spread
over the agent's whole run; a deadline keeps a dead agent from hanging the loop.

Prints one JSON object: txids of every commit, events flipped, items added, rollbacks,
conflicts met (there should be none: every read happens under the lock).
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from typing import Any

from memtui.engine.write.transaction import Conflict, Transaction

EVENTS = "memory/events.md"
PROFILE = "memory/user_profile.md"
OPEN, DONE = "**状态**：待跟进", "**状态**：已完成"
HEADING = re.compile(r"^### \[E(\d{3,})\] .*$", re.M)
PACE_DEADLINE = 90.0  # seconds; only there so that a dead agent cannot hang the loop


def open_events(text: str) -> list[tuple[str, str]]:
    """(label, block text) of every numbered, non-sentinel event still open."""
    heads = [m for m in HEADING.finditer(text) if m.group(1) != "000"]
    found = []
    for m in heads:
        stop = text.find("\n### ", m.end())
        block = text[m.start() : len(text) if stop < 0 else stop]
        if OPEN in block:
            found.append((f"E{m.group(1)}", block))
    return found


def agent_progress(root: str, prefix: str) -> int:
    try:
        with open(os.path.join(root, EVENTS), encoding="utf-8") as fh:
            return fh.read().count(f"**内容**：{prefix}-")
    except (OSError, UnicodeDecodeError):
        return 0


def run_loop(
    root: str, tag: str, iterations: int, agent_total: int = 0, agent_prefix: str = "agent-run"
) -> dict[str, Any]:
    rng = random.Random(f"memtui-loop/{tag}")
    out: dict[str, Any] = {"txids": [], "flipped": [], "items": [], "rollbacks": 0}
    out["conflicts"] = []
    scratch = f"memory/scratch-{tag}.md"
    deadline = time.monotonic() + PACE_DEADLINE
    for i in range(1, iterations + 1):
        want = agent_total * i // (iterations + 1)
        while agent_progress(root, agent_prefix) < want and time.monotonic() < deadline:
            time.sleep(0.005)
        try:
            with Transaction(root, "done", details={"worker": tag, "i": i}) as tx:
                text = tx.read(EVENTS).decode("utf-8")
                candidates = open_events(text)
                flipped = None
                if candidates:
                    flipped, block = rng.choice(candidates)
                    assert text.count(block) == 1
                    text = text.replace(block, block.replace(OPEN, DONE, 1), 1)
                    tx.write(EVENTS, text.encode("utf-8"))
                item = f"- memtui-{tag}-{i}\n"
                tx.write(PROFILE, tx.read(PROFILE) + item.encode("utf-8"))
                out["txids"].append(tx.commit().txid)
            if flipped:
                out["flipped"].append(flipped)
            out["items"].append(item.strip())
        except Conflict as exc:
            out["conflicts"].append(str(exc))
        if i % 5 == 0:
            with Transaction(root, "edit", details={"worker": tag, "i": i}) as tx:
                old = tx.read(scratch)
                tx.write(scratch, old + f"edit {i} to be rolled back\n".encode())
                receipt = tx.commit()
            out["txids"].append(receipt.txid)
            snapshot = receipt.changes[0].snapshot
            with open(os.path.join(root, snapshot), "rb") as fh:
                pre_image = fh.read()
            with Transaction(root, "rollback", details={"snapshot": snapshot}) as tx:
                tx.read(scratch)
                tx.write(scratch, pre_image)
                out["txids"].append(tx.commit().txid)
            out["rollbacks"] += 1
    return out


def main(argv: list[str]) -> int:
    root, tag, iterations, total, prefix = argv
    print(json.dumps(run_loop(root, tag, int(iterations), int(total), prefix)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
