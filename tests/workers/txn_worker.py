"""Worker: one multi-file memtui transaction described by a JSON plan, run as a real process.

    python txn_worker.py ROOT PLAN.json

PLAN is a list of steps, applied in order inside one `Transaction`:
``{"op": "write", "path": P, "data": TEXT}``, ``{"op": "move", "src": S, "dst": D}``,
``{"op": "remove", "path": P}``. Every file is read under the lock first (its hash is
the expected version). The txid is printed before anything happens, so a test that
kills this process (MEMTUI_CRASH_AT) still knows which change it was.
"""

from __future__ import annotations

import json
import sys

from memtui.engine.write.transaction import Transaction


def main(root: str, plan_path: str) -> int:
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    tx = Transaction(root, "crash-test", details={"steps": len(plan)})
    print(tx.txid, flush=True)
    with tx:
        for step in plan:
            if step["op"] == "write":
                tx.read(step["path"])
                tx.write(step["path"], step["data"].encode("utf-8"))
            elif step["op"] == "move":
                tx.read(step["src"])
                tx.move(step["src"], step["dst"])
            elif step["op"] == "remove":
                tx.read(step["path"])
                tx.remove(step["path"])
            else:
                raise SystemExit(f"unknown step {step!r}")
        receipt = tx.commit()
    print(json.dumps({"committed": receipt.txid}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
