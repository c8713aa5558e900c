"""`memtui stores [--json]`: the memory stores found on this machine (SPEC §3b)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli.output import emit_json, line
from memtui.i18n import _, tr


def register(verbs: Any, _store: Any) -> None:
    p = verbs.add_parser(
        "stores", more=". " + _("Looked at: the usual places under HOME and this folder.")
    )
    p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from memtui.engine.stores import LOOKED, stores
    from memtui.stores_table import table

    found = stores()
    if args.json:
        emit_json([store.as_json() for store in found])
        return 0
    if not found:
        line(
            _("no memory store found in {places}; `memtui demo` writes a sample store").format(
                places=tr(LOOKED)
            )
        )
        return 0
    for text in table(found):
        line(tr(text))
    return 0
