"""`memtui [PATH]`: open the app on a store (a summary when there is no terminal)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memtui.cli import CallError
from memtui.cli.read_verbs import store_root, summary
from memtui.i18n import _, tr


def register(verbs: Any, _store: Any) -> None:
    from memtui.engine.detection import default_said

    p = verbs.add_parser("open", description=_("Open the memtui app on a store."))
    p.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help=_("the store (default: {place})").format(place=tr(default_said())),
    )
    p.add_argument("--read-only", action="store_true", help=_("disable every change"))
    p.add_argument("--summary", action="store_true", help=_("print a summary, don't open the app"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        root = store_root(args.path)
    except CallError:
        if args.path or not ui_wanted(args.summary):
            raise  # a script (or a PATH that is no store) still gets exit 2
        root = ""  # no store to open: the app offers the machine's stores (SPEC §3b)
    return launch(root, read_only=args.read_only, summary_only=args.summary)


def ui_wanted(summary_only: bool) -> bool:
    """A full-screen app needs a terminal; without one, or asked to, a summary."""
    return not summary_only and sys.stdin.isatty() and sys.stdout.isatty()


def launch(root: str, *, read_only: bool = False, summary_only: bool = False) -> int:
    if not ui_wanted(summary_only):
        return summary(root)
    from memtui.ui.app import MemtuiApp

    MemtuiApp(root, read_only=read_only).run()
    return 0
