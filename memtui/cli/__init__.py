"""The `memtui` command line: a thin face over memtui.engine (SPEC §6)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import Any, NoReturn

from memtui.cli.output import warn
from memtui.i18n import N_, _, tr

# The one verb table: verb -> (the cli module that builds its parser, what it is, its
# help), in the order `memtui --help` lists them. A "read" verb's call builds its parser
# alone (a `search` pays for no write verb's imports: it is measured against grep) and
# ends its process at once (_end); a "write" verb may change files; "tool": the others.
VERB_TABLE: dict[str, tuple[str, str, str]] = {
    "open": (
        "open_verb",
        "tool",
        N_("open the app on a store (the default verb: `memtui [PATH]`)"),
    ),
    "demo": ("demo_verb", "tool", N_("write a sample store holding every layout")),
    "completion": (
        "completion_verb",
        "tool",
        N_("print a shell completion script: verbs, options and the store's entry ids"),
    ),
    "serve": (
        "serve_verb",
        "tool",
        N_("serve the app in a web browser (needs the web extra: pip install 'memtui[web]')"),
    ),
    "check": ("read_verbs", "read", N_("report the findings of SPEC §5")),
    "list": ("read_verbs", "read", N_("every entry with its id")),
    "show": ("read_verbs", "read", N_("one entry or file, exactly as stored")),
    "search": ("read_verbs", "read", N_("full-text search, CJK included (smart case)")),
    "events": ("read_verbs", "read", N_("the events timeline")),
    "mood": ("read_verbs", "read", N_("the mood history, current values and healing-loop guard")),
    "pending": ("read_verbs", "read", N_("what agents staged for approval, every queue")),
    "log": (
        "read_verbs",
        "read",
        N_("the operations memtui made, newest first (`memtui undo OP`)"),
    ),
    "accept": (
        "write_verbs",
        "write",
        N_("approve queued items: accept candidates, apply staged writes"),
    ),
    "reject": ("write_verbs", "write", N_("reject queued items, unapplied; the reason is kept")),
    "edit": ("write_verbs", "write", N_("replace an entry's text (in $EDITOR unless --text-file)")),
    "archive": ("write_verbs", "write", N_("archive an entry")),
    "restore": ("write_verbs", "write", N_("bring an archived entry back")),
    "history": (
        "write_verbs",
        "tool",
        N_("a file's snapshots, newest first (for `diff` and `rollback`)"),
    ),
    "diff": ("write_verbs", "tool", N_("a snapshot against the file now, as a unified diff")),
    "rollback": ("write_verbs", "write", N_("put a snapshot back (itself undoable)")),
    "done": ("write_verbs", "write", N_("mark an event done (状态 已完成)")),
    "reopen": ("write_verbs", "write", N_("reopen an event (状态 待跟进)")),
    "index": (
        "write_verbs",
        "write",
        N_("rebuild what memtui generates from the memory (index segments, unresolved blocks)"),
    ),
    "maintain": ("write_verbs", "write", N_("dedupe and tidy (a dry run unless --apply)")),
    "add": ("write_verbs", "write", N_("add memory by hand")),
    "undo": (
        "write_verbs",
        "write",
        N_("put back every file of one operation (default: the last; see `log`)"),
    ),
    "fix": (
        "fix_verb",
        "write",
        N_(
            "the quick fix for a finding, or every finding of a code: a dry run showing the diff, "
            "--apply to make it"
        ),
    ),
    "purge": (
        "purge_verb",
        "write",
        "take a secret out of a file and out of every snapshot of it in .history/ (no undo)",
    ),
    "context": (
        "context_verb",
        "tool",
        N_("what each layout's agent loads at session start, with the cut marked"),
    ),
    "stores": (
        "stores_verb",
        "tool",
        N_("list the memory stores found on this machine, with their size and findings"),
    ),
}
VERBS = tuple(VERB_TABLE)
READ_VERBS = tuple(v for v, (_, does, _) in VERB_TABLE.items() if does == "read")


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


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    from memtui.cli.help_format import CellHelpFormatter
    from memtui.cli.language import add_option as add_lang_option
    from memtui.cli.store_arg import add_positional_paths
    from memtui.engine.detection import default_said

    parser = argparse.ArgumentParser(
        prog="memtui",
        formatter_class=CellHelpFormatter,
        description=_("Browse and curate the long-term memory LLM agents keep as files."),
        epilog=_(
            "`memtui [PATH] [--read-only]` opens the app; `memtui demo` opens it on a sample."
        ),
    )
    add_lang_option(parser)
    parser.add_argument(
        "-V",
        "--version",
        action=_Version,
        help=_("print memtui's version (from the installed package) and exit"),
    )
    verbs = _Verbs(parser.add_subparsers(dest="verb", metavar="VERB"))
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument(
        "--store",
        metavar="PATH",
        help=_("the store's root (default: {place})").format(place=tr(default_said())),
    )
    if verb in READ_VERBS:  # that verb's parser alone
        import_module(f"memtui.cli.{VERB_TABLE[verb][0]}").register(verbs, store, only=verb)
    else:
        for module in dict.fromkeys(module for module, _, _ in VERB_TABLE.values()):
            import_module(f"memtui.cli.{module}").register(verbs, store)
    add_positional_paths(parser)
    return parser


class _Verbs:
    """The verbs' subparsers: a verb's help, and its description (with `more` after it,
    unless it has one of its own), from VERB_TABLE, so that a verb is said once."""

    def __init__(self, action: Any) -> None:
        self.action = action

    def add_parser(self, name: str, more: str = "", **kwargs: Any) -> argparse.ArgumentParser:
        text = _(VERB_TABLE[name][2])  # a verb not in the table is a bug: KeyError
        kwargs.setdefault("description", text + more)
        kwargs.setdefault("formatter_class", _help_format())
        made: argparse.ArgumentParser = self.action.add_parser(name, help=text, **kwargs)
        return made


def _help_format() -> type[argparse.HelpFormatter]:
    from memtui.cli.help_format import CellHelpFormatter

    return CellHelpFormatter


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["__complete-ids"]:  # the completion scripts' helper, not a verb
        from memtui.cli.completion_verb import complete_ids

        return complete_ids(args_list[1:])
    from memtui.cli.language import start

    try:
        args_list = start(args_list)  # the language, before any text is made
    except CallError as exc:
        warn(str(exc))
        return 2
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
    store's `check`). A read verb leaves no thread or atexit work behind; the store it
    opened is kept for the next open by a child of its own (engine.cache)."""
    sys.stdout.flush()
    sys.stderr.flush()
    if "memtui.engine.cache" in sys.modules:  # imported only by a verb that opened one
        sys.modules["memtui.engine.cache"].flush_detached()
    os._exit(code)


def _last_resort(exc: Exception) -> str:
    """What reached main unhandled, in words: an engine refusal as it says itself, an
    OS error naming its file (a read-only or full disk, a folder where a file should
    be), and only a real bug as an internal error."""
    from memtui.cli.output import said
    from memtui.engine.errors import MemtuiError

    if isinstance(exc, MemtuiError):
        return said(exc)
    if isinstance(exc, OSError):
        from memtui.engine.write.errors import plain

        if exc.filename:
            return _("{file}: {why}; nothing was changed").format(
                file=exc.filename, why=tr(plain(exc))
            )
        return _("{why}; nothing was changed").format(why=tr(plain(exc)))
    return _("internal error: {kind}: {error} (set MEMTUI_DEBUG=1 for details)").format(
        kind=type(exc).__name__, error=exc
    )


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
