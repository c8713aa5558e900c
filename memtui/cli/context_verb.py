"""memtui context [--json]: what each layout's agent loads at session start (SPEC §3c)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli.output import emit_json, line


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    p = verbs.add_parser("context", parents=[store])
    p.set_defaults(handler=context)
    p.add_argument("--json", action="store_true", help="print JSON for scripts")


def context(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import load
    from memtui.engine.context import context_json, context_of, unloaded

    store = load(args)
    if args.json:
        emit_json(context_json(store))
        return 0
    for name, files in context_of(store).items():
        for cf in files:
            if cf.unreadable is not None:  # named with why, never left out
                line(f"== {name}: {cf.file} (not readable: {cf.unreadable}; nothing shown)")
                continue
            state = "cut" if cf.cut else "whole"
            line(f"== {name}: {cf.file} ({cf.lines:,} lines loaded, {state})")
            for row in cf.text.split("\n"):
                line(row)
            if cf.cut:
                line(f"-- cut here: {cf.note}; {unloaded(store, cf)}")
    return 0
