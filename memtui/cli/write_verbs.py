"""The mutating verbs. Each calls one engine operation; the engine's transaction
does the writing. `--dry-run` prints the diff that would be applied."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from memtui.cli import CallError, Refused
from memtui.cli.output import emit_json, line, warn
from memtui.cli.read_verbs import store_root
from memtui.cli.reporting import engine_errors, read_text_file, report
from memtui.layouts.claude.rules import TYPES as CLAUDE_TYPES
from memtui.layouts.companion.vocab import EVENT_TYPES

_ENTRY_HELP = "the entry's id as `list` gives it (e.g. fact:PYTHON_ENV, event:E020)"
_FILE_HELP = "a file of the store, relative to its root (e.g. memory/events.md)"
_SNAPSHOT_HELP = "a snapshot as `history FILE` lists it (default: the newest)"


def register(verbs: Any, store: argparse.ArgumentParser) -> None:
    common = argparse.ArgumentParser(add_help=False, parents=[store])
    common.add_argument("--json", action="store_true", help="print what changed as JSON")
    common.add_argument("--dry-run", action="store_true", help="print the diff, change nothing")

    def verb(name: str, handler: Callable[..., Any], text: str) -> argparse.ArgumentParser:
        p = verbs.add_parser(name, parents=[common], help=text, description=text)
        p.set_defaults(handler=_settling(handler))
        return p

    from memtui.cli import queue_cli

    queue_cli.register(verb, _expect_option)
    p = verb("edit", edit, "replace an entry's text (in $EDITOR unless --text-file)")
    p.add_argument("entry", metavar="ENTRY", help=_ENTRY_HELP)
    _expect_option(p)
    p.add_argument("--text-file", metavar="F", help="the new text (-: stdin)")
    p.add_argument(
        "--insist", action="store_true", help="change the dsh L0 meta-rules (read-only otherwise)"
    )
    for name, text in (
        ("archive", "archive an entry"),
        ("restore", "bring an archived entry back"),
    ):
        p = verb(name, archive if name == "archive" else restore, text)
        p.add_argument("entry", metavar="ENTRY", help=_ENTRY_HELP)
        _expect_option(p)
        p.add_argument("--item", help="with profile:<category>: the item's text")
    text = "a file's snapshots, newest first (for `diff` and `rollback`)"
    p = verbs.add_parser("history", parents=[store], help=text, description=text)
    p.set_defaults(handler=history)
    p.add_argument("file", metavar="FILE", help=_FILE_HELP)
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    text = "a snapshot against the file now, as a unified diff"
    p = verbs.add_parser("diff", parents=[store], help=text, description=text)
    p.set_defaults(handler=diff)
    p.add_argument("file", metavar="FILE", help=_FILE_HELP)
    p.add_argument("snapshot", nargs="?", metavar="SNAPSHOT", help=_SNAPSHOT_HELP)
    p = verb("rollback", rollback, "put a snapshot back (itself undoable)")
    p.add_argument("file", metavar="FILE", help=_FILE_HELP)
    p.add_argument("--to", metavar="SNAPSHOT", help="default: the newest snapshot")
    for name, text in (
        ("done", "mark an event done (状态 已完成)"),
        ("reopen", "reopen an event (状态 待跟进)"),
    ):
        p = verb(name, done if name == "done" else reopen, text)
        p.add_argument("event", metavar="EVENT", help="an event id, e.g. E020 or event:E020")
        _expect_option(p)
    verb("index", index, "rebuild the dsh index segment and MEMORY.md's unresolved block")
    p = verb("undo", undo, "put back every file of one operation (default: the last; see `log`)")
    p.add_argument("op", nargs="?", metavar="OP", help="the operation's id, or a unique prefix")
    p = verb("maintain", maintain, "dedupe and tidy (a dry run unless --apply)")
    p.add_argument("--apply", action="store_true", help="really remove exact duplicates")
    _register_add(verb)


def _expect_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--expect",
        metavar="FP",
        type=_fingerprint,
        help="the entry's fingerprint as you saw it (`list --json`, `show --json`): "
        "refused, nothing changed, if the entry is not that any more (SPEC §6)",
    )


def _fingerprint(value: str) -> str | None:
    from memtui.engine.identity import checked
    from memtui.engine.ops.common import Refused as NotOne

    try:
        return checked(value)
    except NotOne as exc:  # a malformed option: a wrong call (exit status 2)
        raise argparse.ArgumentTypeError(str(exc)) from None


def _register_add(verb: Callable[..., argparse.ArgumentParser]) -> None:
    p = verb("add", add, "add memory by hand: a fact, a sop, an event, a topic, a memory, …")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    text = "a fact line in a facts.md section"
    f = kinds.add_parser("fact", help=text, description=text)
    f.add_argument("section", help="the facts.md section (## NAME), e.g. PYTHON_ENV")
    f.add_argument("text", help="the fact, one line")
    f.add_argument("--evidence", required=True, help="how it was verified")
    text = "a sops/<name>.md procedure"
    s = kinds.add_parser("sop", help=text, description=text)
    s.add_argument("name", help="the sop's name: sops/<name>.md")
    s.add_argument("--body-file", required=True, metavar="F", help="the procedure (-: stdin)")
    s.add_argument("--evidence", required=True, help="how it was verified")
    text = "a companion event, numbered after the last one"
    e = kinds.add_parser("event", help=text, description=text)
    e.add_argument("type", choices=EVENT_TYPES, help="the event's 类型")
    e.add_argument("content", help="the event's 内容, one line")
    e.add_argument("--stars", type=int, help="1-5, for 情绪事件")
    e.add_argument("--due", help="YYYY-MM-DD, required for 约定")
    e.add_argument("--state", help="用户状态")
    e.add_argument("--follow-up", help="后续")
    text = "a memory_<name>.md topic with its index pointer"
    t = kinds.add_parser("topic", help=text, description=text)
    t.add_argument("name", help="the topic's name: memory_<name>.md")
    t.add_argument("--section", required=True, help="the memory.md section for its pointer")
    t.add_argument("--description", required=True, help="the pointer's text")
    t.add_argument("--body-file", required=True, metavar="F", help="the topic's text (-: stdin)")
    text = "a Claude Code memory <file>.md (front matter) with its MEMORY.md line"
    m = kinds.add_parser("memory", help=text, description=text)
    m.add_argument("file", help="the memory's file, e.g. feedback_testing.md")
    m.add_argument("--type", required=True, choices=CLAUDE_TYPES, help="the memory's type")
    m.add_argument("--description", required=True, help="what recall sees, one line")
    m.add_argument("--title", help="its name: (default: the file name)")
    m.add_argument("--hook", help="the index line's hook (default: the description)")
    m.add_argument("--body-file", required=True, metavar="F", help="the memory (-: stdin)")
    text = "an entry in Hermes' MEMORY.md (memory) or USER.md (user), as its add does"
    h = kinds.add_parser("hermes", help=text, description=text)
    h.add_argument(
        "hermes_target",
        choices=("memory", "user"),
        metavar="memory|user",
        help="MEMORY.md (the agent's notes) or USER.md (the user profile)",
    )
    h.add_argument("text", help="the entry (it may span lines; stripped as Hermes strips it)")
    for sub in (f, s, e, t, m, h):  # options after the kind work too
        sub.add_argument(
            "--store", metavar="PATH", default=argparse.SUPPRESS, help="the store's root"
        )
        sub.add_argument(
            "--json", action="store_true", default=argparse.SUPPRESS, help="print JSON"
        )
        sub.add_argument(
            "--dry-run",
            action="store_true",
            default=argparse.SUPPRESS,
            help="print the diff, change nothing",
        )


# --- running an operation --------------------------------------------------


def _settling(handler: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """Settle a change a crash interrupted first, and say what that did (SPEC §0)."""

    def run(args: argparse.Namespace) -> int:
        if not args.dry_run and getattr(args, "apply", True):  # maintain: a dry run unless --apply
            from memtui.engine.write.transaction import settle_interrupted

            with _engine_errors():
                for note in settle_interrupted(store_root(args.store)):
                    warn(f"settled a change interrupted earlier: {note}")
        from memtui.engine.write.operation import operation

        with operation():  # one call, one operation for `memtui undo`, however many commits
            return handler(args)

    return run


# The shared helpers' old names, for the verbs that still call them (cli.reporting).
_engine_errors = engine_errors
_report = report
_read_text_file = read_text_file


# --- verbs -----------------------------------------------------------------


def edit(args: argparse.Namespace) -> int:
    from memtui.cli.read_verbs import load
    from memtui.engine.entries import entry_text, resolve
    from memtui.engine.layouts.common import unreadable
    from memtui.engine.ops.edit import edit_entry, is_l0
    from memtui.engine.rawfile import not_readable

    store = load(args)
    with _engine_errors():
        entry = resolve(store, args.entry, expect=args.expect)
    seen = entry_text(store, entry)
    if seen is None:
        why = unreadable(store, entry.file) or "it cannot be read as text"
        raise Refused(f"{not_readable(entry.file, why)}; it is never edited, nothing was changed")
    if is_l0(store.root, entry.file) and not args.insist:  # before $EDITOR opens
        raise Refused(f"{entry.file} holds the dsh L0 meta-rules, read-only unless you --insist")
    new = (
        _read_text_file(args.text_file, store.root)
        if args.text_file
        else _in_editor(seen, entry.file, store.config.thresholds.max_file_bytes)
    )
    if new == seen:
        line("no change")
        return 0
    with _engine_errors():
        receipt = edit_entry(
            store.root, entry.id, new, seen_text=seen, insist=args.insist, dry_run=args.dry_run
        )
    return _report(args, [receipt])


def _in_editor(text: str, name: str, limit: int) -> str:
    """$VISUAL or $EDITOR on the text (memtui.editor); the lock is not held meanwhile."""
    from memtui.editor import EditorFailed, EditorNotRun, run_editor

    try:
        return run_editor(text, name, limit)
    except EditorNotRun as exc:  # a wrong $EDITOR is a wrong call: exit status 2
        raise CallError(str(exc)) from None
    except EditorFailed as exc:
        raise Refused(str(exc)) from None


def _archive_call(args: argparse.Namespace, restoring: bool) -> Any:
    from memtui.engine import ops

    root = store_root(args.store)
    kind = args.entry.partition(":")[0]
    if kind == "pending" and not restoring:
        raise CallError("a pending candidate leaves with `memtui reject` (or accept)")
    if kind == "profile" and not args.item:
        raise CallError("profile entries need --item TEXT (the item to archive/restore)")
    shown = {"expect": args.expect, "dry_run": args.dry_run, "item": args.item}
    try:
        return (ops.restore if restoring else ops.archive)(root, args.entry, **shown)
    except ops.NotAnEntry as exc:  # no layout owns the id's kind: a wrong call
        raise CallError(str(exc)) from None


def archive(args: argparse.Namespace) -> int:
    with _engine_errors():
        return _report(args, [_archive_call(args, restoring=False)])


def restore(args: argparse.Namespace) -> int:
    with _engine_errors():
        return _report(args, [_archive_call(args, restoring=True)])


def history(args: argparse.Namespace) -> int:
    from memtui.engine.ops.history import snapshots

    root = store_root(args.store)
    with _engine_errors():
        found = snapshots(root, args.file)
    if args.json:
        emit_json({"file": args.file, "snapshots": [s.to_json() for s in found]})
        return 0
    if not found:
        line(f"{args.file} has no history yet")
    for s in found:
        line(f"{s.name}  {s.time}  {s.size:,} bytes")
    return 0


def diff(args: argparse.Namespace) -> int:
    from memtui.cli.output import printable
    from memtui.engine.ops.history import diff as run

    with _engine_errors():
        text = run(store_root(args.store), args.file, args.snapshot)
    sys.stdout.write(printable(text) if text else "no difference\n")
    return 0


def rollback(args: argparse.Namespace) -> int:
    from memtui.engine.ops.history import rollback as run

    with _engine_errors():
        receipt = run(store_root(args.store), args.file, args.to, dry_run=args.dry_run)
    return _report(args, [receipt])


def done(args: argparse.Namespace) -> int:
    from memtui.layouts.companion import ops as companion

    with _engine_errors():
        receipt = companion.done(
            store_root(args.store), args.event, expect=args.expect, dry_run=args.dry_run
        )
    return _report(args, [receipt])


def reopen(args: argparse.Namespace) -> int:
    from memtui.layouts.companion import ops as companion

    with _engine_errors():
        receipt = companion.reopen(
            store_root(args.store), args.event, expect=args.expect, dry_run=args.dry_run
        )
    return _report(args, [receipt])


def index(args: argparse.Namespace) -> int:
    from memtui.engine.ops.generated import rebuild

    with _engine_errors():
        receipt = rebuild(store_root(args.store), dry_run=args.dry_run)
    return _report(args, [receipt])


def maintain(args: argparse.Namespace) -> int:
    from memtui.layouts.dsh import ops as dsh

    if args.apply and args.dry_run:
        raise CallError("--apply and --dry-run contradict each other")
    args.dry_run = not args.apply  # without --apply, maintain is a dry run
    with _engine_errors():
        receipt = dsh.maintain(store_root(args.store), apply=args.apply)
    return _report(args, [receipt])


def add(args: argparse.Namespace) -> int:
    from memtui.layouts.companion import ops as companion
    from memtui.layouts.dsh import ops as dsh
    from memtui.layouts.workspace import ops as workspace

    root = store_root(args.store)
    with _engine_errors():
        if args.kind == "fact":
            r = dsh.add_fact(root, args.section, args.text, args.evidence, dry_run=args.dry_run)
        elif args.kind == "sop":
            body = _read_text_file(args.body_file, root)
            r = dsh.add_sop(root, args.name, body, args.evidence, dry_run=args.dry_run)
        elif args.kind == "event":
            r = companion.add_event(
                root,
                args.type,
                args.content,
                stars=args.stars,
                due=args.due,
                user_state=args.state,
                follow_up=args.follow_up,
                dry_run=args.dry_run,
            )
        elif args.kind == "hermes":
            from memtui.layouts.hermes.ops import add_entry

            r = add_entry(root, args.hermes_target, args.text, dry_run=args.dry_run)
        elif args.kind == "memory":
            from memtui.layouts.claude.ops import add_memory

            body = _read_text_file(args.body_file, root)
            r = add_memory(
                root,
                args.file,
                args.type,
                args.description,
                body,
                title=args.title,
                hook=args.hook,
                dry_run=args.dry_run,
            )
        else:
            body = _read_text_file(args.body_file, root)
            r = workspace.add_topic(
                root, args.name, args.description, args.section, body, dry_run=args.dry_run
            )
    return _report(args, [r])


def undo(args: argparse.Namespace) -> int:
    from memtui.engine.ops.undo import undo as undo_op

    with _engine_errors():
        receipt = undo_op(store_root(args.store), args.op, dry_run=args.dry_run)
    return _report(args, [receipt])
