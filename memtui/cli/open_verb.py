"""`memtui [PATH]`: open the app on a store (a summary when there is no terminal)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memtui.cli.read_verbs import store_root, summary


def register(verbs: Any) -> None:
    p = verbs.add_parser(
        "open",
        help="open the app on a store (the default verb: `memtui [PATH]`)",
        description="Open the memtui app on a store.",
    )
    p.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="the store (default: this folder if it is a store, else ~/.dsh/memory)",
    )
    p.add_argument("--read-only", action="store_true", help="disable every change")
    p.add_argument("--summary", action="store_true", help="print a summary, don't open the app")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    root = store_root(args.path)
    return launch(root, read_only=args.read_only, summary_only=args.summary)


def launch(root: str, *, read_only: bool = False, summary_only: bool = False) -> int:
    if summary_only or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return summary(root)  # a full-screen app needs a terminal
    from memtui.ui.app import MemtuiApp

    MemtuiApp(root, read_only=read_only).run()
    return 0
