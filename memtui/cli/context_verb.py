"""memtui context [--json]: what each layout's agent loads at session start (SPEC §3c)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli.output import emit_json, line
from memtui.i18n import _, tr


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    p = verbs.add_parser("context", parents=[store])
    p.set_defaults(handler=context)
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))


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
                why = _("not readable: {why}; nothing shown").format(why=tr(cf.unreadable))
                line(f"== {name}: {cf.file} ({why})")
                continue
            loaded = _("{n} lines loaded, cut") if cf.cut else _("{n} lines loaded, whole")
            line(f"== {name}: {cf.file} ({loaded.format(n=f'{cf.lines:,}')})")
            for row in cf.text.split("\n"):
                line(row)
            if cf.cut:
                cut = _("cut here: {note}; {unloaded}").format(
                    note=tr(cf.note), unloaded=tr(unloaded(store, cf))
                )
                line(f"-- {cut}")
    return 0
