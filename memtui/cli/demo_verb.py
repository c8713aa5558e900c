"""`memtui demo`: write a realistic sample store (and, later, open it)."""

from __future__ import annotations

import argparse
from typing import Any

from memtui.cli import CallError
from memtui.cli.output import line
from memtui.i18n import _, tr


def register(verbs: Any, _store: Any) -> None:
    p = verbs.add_parser("demo", description=_description())
    p.add_argument("--dir", metavar="D", help=_("where to write it (default: a new temp folder)"))
    p.add_argument(
        "--size",
        type=int,
        default=1,
        metavar="N",
        help=_("scale: N=500 is the benchmark store (20,000 events)"),
    )
    p.add_argument("--no-ui", action="store_true", help=_("only write the store"))
    p.set_defaults(handler=run)


def _description() -> str:
    """Every registered layout in its own words (its `title`), in detection order: a
    layout that cannot share the root writes its own folder."""
    from memtui.engine.layouts import detectors

    titles = [f"{d.name} ({tr(d.title)})" if d.title else d.name for d in detectors().values()]
    held = (
        _("{some} and {last}").format(some=", ".join(titles[:-1]), last=titles[-1])
        if titles[:-1]
        else "".join(titles)
    )
    return _(
        "Write a deterministic sample store holding every layout, each in a folder of its "
        "own where it cannot share the root: {layouts}."
    ).format(layouts=held)


def run(args: argparse.Namespace) -> int:
    import tempfile
    from pathlib import Path

    from memtui.demo import write_demo
    from memtui.engine.config import today

    if args.size < 1:
        raise CallError(_("--size must be 1 or more"))
    target = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="memtui-demo-"))
    try:
        counts = write_demo(target, size=args.size, today=today())
    except (ValueError, OSError) as exc:
        raise CallError(
            _("cannot write the demo store in {folder}: {why}").format(folder=target, why=exc)
        ) from None
    line(_("wrote a demo store in {folder}").format(folder=target))
    line("  " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
    if args.no_ui:
        line(_("open it with: memtui {folder}").format(folder=target))
        return 0
    from memtui.cli.open_verb import launch

    return launch(str(target))
