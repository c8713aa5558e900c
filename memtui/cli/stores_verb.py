"""`memtui stores [--json]`: the memory stores found on this machine (SPEC §3b)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli.output import emit_json, line


def register(verbs: Any, _store: Any) -> None:
    p = verbs.add_parser("stores", more=". Looked at: the usual places under HOME and this folder.")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from memtui.engine.stores import LOOKED, stores, table

    found = stores()
    if args.json:
        emit_json([store.as_json() for store in found])
        return 0
    if not found:
        line(f"no memory store found in {LOOKED}; `memtui demo` writes a sample store")
        return 0
    for text in table(found):
        line(text)
    return 0
