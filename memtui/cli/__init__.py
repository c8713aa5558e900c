"""The `memtui` command line: a thin face over memtui.engine (SPEC §6)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from memtui.cli.output import warn

VERBS = (
    "open",
    "demo",
    "completion",
    "serve",
    "check",
    "list",
    "show",
    "search",
    "events",
    "mood",
    "pending",
    "accept",
    "reject",
    "edit",
    "archive",
    "restore",
    "history",
    "diff",
    "rollback",
    "done",
    "reopen",
    "index",
    "maintain",
    "add",
    "log",
    "undo",
    "fix",
    "context",
    "stores",
)


class CallError(Exception):
    """A wrong call or a store that cannot be opened: exit status 2."""


class Refused(Exception):
    """An action refused or failed: exit status 1, nothing changed."""


class _Version(argparse.Action):
    """argparse's version action, but the version is looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from memtui import __version__

        print(f"memtui {__version__}")
        parser.exit()


# The verbs cli.read_verbs registers: a call of one of them builds only their parsers
# (a `search` pays for no write verb's imports: it is measured against grep).
READ_VERBS = ("check", "list", "show", "search", "events", "mood", "log", "pending")


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    from memtui.cli import read_verbs
    from memtui.cli.store_arg import add_positional_paths

    parser = argparse.ArgumentParser(
        prog="memtui",
        description="Browse and curate the long-term memory LLM agents keep as files.",
        epilog="`memtui [PATH] [--read-only]` opens the app; `memtui demo` opens it on a sample.",
    )
    parser.add_argument(
        "-V",
        "--version",
        action=_Version,
        help="print memtui's version (from the installed package) and exit",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument(
        "--store",
        metavar="PATH",
        help="the store's root (default: this folder if it is a store, else ~/.dsh/memory)",
    )
    if verb in READ_VERBS:
        read_verbs.register(verbs, store, only=verb)
        add_positional_paths(parser)
        return parser
    from memtui.cli import (
        completion_verb,
        context_verb,
        demo_verb,
        fix_verb,
        open_verb,
        serve_verb,
        stores_verb,
        write_verbs,
    )

    open_verb.register(verbs)
    demo_verb.register(verbs)
    completion_verb.register(verbs)
    serve_verb.register(verbs, store)
    read_verbs.register(verbs, store)
    write_verbs.register(verbs, store)
    fix_verb.register(verbs, store)
    context_verb.register(verbs, store)
    stores_verb.register(verbs)
    add_positional_paths(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["__complete-ids"]:  # the completion scripts' helper, not a verb
        from memtui.cli.completion_verb import complete_ids

        return complete_ids(args_list[1:])
    if len(args_list) >= 3 and args_list[0] == "--store" and args_list[2] in VERBS:
        args_list = [args_list[2], *args_list[:2], *args_list[3:]]  # `--store P verb ...`
    elif len(args_list) >= 2 and args_list[0].startswith("--store=") and args_list[1] in VERBS:
        args_list = [args_list[1], args_list[0], *args_list[2:]]
    first = args_list[0] if args_list else ""
    if first not in VERBS and (not first.startswith("-") or first in ("--read-only", "--summary")):
        args_list = ["open", *args_list]  # `memtui [PATH]`
    try:
        code = _run(args_list)
        if argv is None and args_list[0] in READ_VERBS:
            _end(code)  # the program itself (not a caller of main): nothing more to do
        return code
    except CallError as exc:
        warn(str(exc))
        return 2
    except Refused as exc:
        warn(str(exc))
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away; stay quiet like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # last resort: a message, never a traceback
        if os.environ.get("MEMTUI_DEBUG"):
            raise
        warn(_last_resort(exc))
        return 1


def _end(code: int) -> NoReturn:
    """End a read verb's process at once, its output flushed: what it built (a large
    store's snapshot is 500,000 objects) is not freed object by object first, nor the
    interpreter torn down; the OS takes the memory back in one go (30 ms of a large
    store's `check`). A read verb leaves no thread, child or atexit work behind."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _last_resort(exc: Exception) -> str:
    """What reached main unhandled, in words: an engine refusal as it says itself, an
    OS error naming its file (a read-only or full disk, a folder where a file should
    be), and only a real bug as an internal error."""
    from memtui.engine.errors import MemtuiError

    if isinstance(exc, MemtuiError):
        return str(exc)
    if isinstance(exc, OSError):
        from memtui.engine.write.errors import plain

        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{plain(exc)}; nothing was changed"
    return f"internal error: {type(exc).__name__}: {exc} (set MEMTUI_DEBUG=1 for details)"


def _run(args_list: list[str]) -> int:
    from memtui.cli.store_arg import merge_store_path
    from memtui.cli.warn_layouts import warn_skipped_layouts

    try:
        args = build_parser(args_list[0] if args_list else None).parse_args(args_list)
        if getattr(args, "handler", None) is None:
            build_parser().print_help()
            return 2
        merge_store_path(args)
        return int(args.handler(args))
    finally:  # before any error of the verb: a skipped layout may be why
        warn_skipped_layouts()
