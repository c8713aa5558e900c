"""Which store a verb works on: `--store PATH`, or PATH as a verb's only positional
argument (`memtui check memory/`, as a linter takes a path). A verb with positionals
of its own (ids, queries, files, an operation) takes --store only: a path among them
would read as one more id, or as a file inside the store."""

from __future__ import annotations

import argparse
import os

from memtui.cli import CallError
from memtui.i18n import N_, _

STORE_ONLY = N_(
    "The store is given with --store PATH only: this verb's own arguments name things "
    "in the store, so a path among them would be read as one of those."
)


def add_positional_paths(parser: argparse.ArgumentParser) -> None:
    """Each verb with --store and no positional of its own takes an optional PATH too;
    the others say in their --help that the store is --store only."""
    for verbs in parser._actions:
        if not isinstance(verbs, argparse._SubParsersAction):
            continue
        for verb in verbs.choices.values():
            actions = verb._actions
            if not any("--store" in a.option_strings for a in actions):
                continue  # demo, stores, completion, open (whose PATH is its own)
            if any(not a.option_strings for a in actions):
                verb.epilog = _(STORE_ONLY)
                continue
            verb.add_argument(
                "store_path",
                nargs="?",
                metavar="PATH",
                help=_("the store's root, the same as --store PATH"),
            )


def merge_store_path(args: argparse.Namespace) -> None:
    """PATH given as a positional becomes args.store; given twice, it must agree."""
    path = getattr(args, "store_path", None)
    if path is None:
        return
    if args.store is not None and os.path.realpath(args.store) != os.path.realpath(path):
        raise CallError(
            _("two stores given, {store} (--store) and {path}: give one").format(
                store=args.store, path=path
            )
        )
    args.store = path
