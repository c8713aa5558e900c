"""The read verbs: check, list, show, search, events, mood, pending (and the summary)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from memtui.cli import CallError, Refused, queue_cli
from memtui.cli.formats import FORMATS
from memtui.cli.output import (
    detail,
    emit_json,
    level_word,
    line,
    lines,
    location,
    padded,
    said,
    warn,
)
from memtui.engine.layouts import names
from memtui.i18n import _, ngettext, tr


def register(verbs: Any, store: argparse.ArgumentParser, only: str | None = None) -> None:
    """The read verbs' parsers; with `only`, that verb's alone (a call of `search` builds
    no other: argparse costs it a millisecond or two per verb)."""

    def verb(name: str, handler: Any) -> argparse.ArgumentParser | None:
        if only is not None and name != only:
            return None
        p = verbs.add_parser(name, parents=[store])
        p.set_defaults(handler=handler)
        p.add_argument("--json", action="store_true", help=_("print JSON for scripts"))
        return p

    if p := verb("check", check):
        p.add_argument("--strict", action="store_true", help=_("exit 1 on warnings too"))
        p.add_argument(
            "--format",
            choices=FORMATS,
            default=None,
            help=_(
                "text (default), json (= --json), github (workflow annotations) "
                "or sarif (SARIF 2.1.0, for code scanning)"
            ),
        )
    if p := verb("list", list_entries):
        p.add_argument(
            "--layout",
            choices=(*names(), "store"),
            help=_("only the entries of this layout"),
        )
    if p := verb("show", show):
        p.add_argument(
            "entry",
            metavar="ENTRY",
            help=_("an id as `list` gives it (kind:name), or file:<path>"),
        )
        p.add_argument(
            "--raw",
            action="store_true",
            help=_(
                "only the text, byte for byte (no header, control characters not escaped): "
                "for `show --raw X > f; edit X --text-file f`"
            ),
        )
    if p := verb("search", search):
        p.add_argument(
            "query", metavar="QUERY", help=_("the text to find (or a regex with --regex)")
        )
        p.add_argument(
            "--regex", action="store_true", help=_("QUERY is a Python regular expression")
        )
        p.add_argument("-s", "--case-sensitive", action="store_true", help=_("never ignore case"))
    if p := verb("events", events):
        p.add_argument("--open", action="store_true", help=_("only open events (状态 待跟进)"))
        p.add_argument(
            "--overdue", action="store_true", help=_("only open events past their due date")
        )
    verb("mood", mood)
    verb("log", oplog)
    if p := verb("pending", queue_cli.pending):
        queue_cli.add_options(p, picking=True)


# --- opening a store -------------------------------------------------------


def store_root(given: str | None) -> str:
    """--store, else this folder if it is a store, else a layout's default store if it
    exists (Detection.default_store, SPEC §6).

    A folder holding no known layout is a wrong call (exit 2), refused before anything
    is read or written: a write verb would otherwise leave a .memory.lock in it."""
    from memtui.engine.detection import default_store, looks_like_store, no_layout

    if given:
        if not os.path.isdir(given):
            raise CallError(_("{path}: no such folder").format(path=given))
        root = given
    elif looks_like_store(os.getcwd()):
        return os.getcwd()
    else:
        root = default_store() or ""
        if not root:
            raise CallError(
                _(
                    "no memory store here: pass --store PATH, run inside a store, "
                    "or try `memtui demo` for a sample one"
                )
            )
    if not looks_like_store(root):
        raise CallError(
            _("{why}. Nothing was read or written; `memtui demo` writes a sample store").format(
                why=tr(no_layout(root))
            )
        )
    return root


# The store a verb loaded last, kept alive: a read verb run as the program ends its
# process without freeing it (cli._end).
LOADED: list[Any] = []


def load(args: argparse.Namespace) -> Any:
    from memtui.engine import StoreError, open_store

    root = store_root(args.store)
    try:
        store = open_store(root, cache=True)  # a second read verb of it: half the time
    except (StoreError, OSError) as exc:
        raise CallError(
            _("cannot open the store at {root}: {why}").format(root=root, why=said(exc))
        ) from None
    LOADED[:] = [store]
    return store


def _tally(store: Any) -> str:
    """`1 error, 2 warnings, 0 info`: each level's count, most severe first."""
    from memtui.engine.words import level_counts

    return ", ".join(tr(said) for _level, _n, said in level_counts(store))


# --- verbs -----------------------------------------------------------------


def _heading(store: Any) -> str:
    """`ROOT  (dsh, claude)`: the store and the layouts found in it."""
    layouts = ", ".join(store.layouts) or _("no known layout")
    return f"{store.root}  ({layouts})"


def summary(path: str | None) -> int:
    """The one-screen text summary (`memtui PATH` without a terminal, or --summary)."""
    store = load(argparse.Namespace(store=path))
    from memtui.engine.layouts import layout

    line(_heading(store))
    for name in store.layouts:  # each layout's own line(s)
        if (data := store.data.get(name)) is not None:
            lines(f"  {name}: {tr(said)}" for said in layout(name).summary(data))
    line("  " + _("findings: {tally}  (memtui check)").format(tally=_tally(store)))
    return 0


def check(args: argparse.Namespace) -> int:
    fmt = args.format or ("json" if args.json else "text")
    if args.json and fmt != "json":
        raise CallError(
            _("--json is --format json; it cannot go with --format {format}").format(format=fmt)
        )
    store = load(args)
    if fmt == "json":
        emit_json(
            {
                "root": store.root,
                "layouts": list(store.layouts),
                "findings": [f.to_json() for f in store.findings],
            }
        )
    elif fmt == "sarif":
        from memtui import __version__
        from memtui.cli.formats import sarif_log

        emit_json(sarif_log(store.root, store.findings, __version__))
    elif fmt == "github":
        from memtui.cli.formats import github_lines

        for text in github_lines(store.root, store.findings):
            sys.stdout.write(text + "\n")  # already escaped (GitHub's %XX rules)
    else:
        line(_heading(store))
        for f in store.findings:  # the message in the reader's language, the code as it is
            line(f"{location(f.file, f.line)}  {f.code}  {tr(f.message)}", lead=level_word(f.level))
        line(_tally(store))
    from memtui.engine.findings import FAILING

    failing = {"error", "warning"} if args.strict else {"error"}
    return 1 if any(f.level in failing or f.code in FAILING for f in store.findings) else 0


def list_entries(args: argparse.Namespace) -> int:
    from memtui.engine.entries import entry_json, iter_entries

    store = load(args)
    entries = [e for e in iter_entries(store) if args.layout in (None, e.layout)]
    if args.json:  # with each entry's fingerprint, for an action's --expect
        emit_json({"root": store.root, "entries": [entry_json(store, e) for e in entries]})
    else:
        for e in entries:
            line(f"{e.id}\t{e.title}\t{location(e.file, e.line)}")
    return 0


def show(args: argparse.Namespace) -> int:
    from memtui.engine.entries import EntryNotFound, entry_json, entry_text, resolve
    from memtui.engine.layouts.common import unreadable
    from memtui.engine.rawfile import not_readable

    store = load(args)
    try:
        entry = resolve(store, args.entry)
    except EntryNotFound as exc:
        raise Refused(said(exc)) from None
    text = entry_text(store, entry)
    reason = unreadable(store, entry.file) if text is None else None
    if args.json:
        shown = entry_json(store, entry)  # with its fingerprint
        emit_json({**shown, "text": text, "unreadable": reason, **_details(store, entry)})
        return 0
    if text is None:
        raise Refused(tr(not_readable(entry.file, reason or _("it cannot be read"))))
    if args.raw:  # asked for: the bytes may drive a terminal, so only on request
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8"))
        return 0
    line(f"# {entry.id}  {location(entry.file, entry.line)}")
    line(text.rstrip("\r\n"))  # a CRLF file's last CR is no character to show
    return 0


def _details(store: Any, entry: Any) -> dict[str, Any]:
    """What the entry's layout adds for `show --json` (an event's fields, ...)."""
    from memtui.engine.layouts import layout

    data = store.data.get(entry.layout)
    return {} if data is None else layout(entry.layout).details(store, data, entry)


def search(args: argparse.Namespace) -> int:
    from memtui.engine.search import BadQuery
    from memtui.engine.search import search as run

    root = store_root(args.store)
    try:
        hits = run(
            root, args.query, regex=args.regex, ignore_case=False if args.case_sensitive else None
        )
        if args.json:
            emit_json(
                {
                    "root": os.path.realpath(root),
                    "query": args.query,
                    "hits": [h.to_json() for h in hits],
                }
            )
        else:
            lines(f"{h.file}:{h.line}:{h.column}: {h.text}" for h in hits)
    except BadQuery as exc:
        raise CallError(said(exc)) from None
    return 0


def events(args: argparse.Namespace) -> int:
    from memtui.engine.identity import fingerprint
    from memtui.engine.timeline import timelines

    store = load(args)
    found = timelines(store)
    if not found:
        warn(_("this store keeps no events timeline (no layout in it has one)"))
    chosen = []
    for at in found:
        for i in at.in_file_order():
            e, overdue = at.events[i], i in at.overdue
            if ((args.open or args.overdue) and not e.is_open) or (args.overdue and not overdue):
                continue
            chosen.append((e, at.ids[i], at.entry_id(at.ids[i]), overdue))
    if args.json:
        emit_json(
            {
                "root": store.root,
                "last_active": found[0].last_active if found else None,
                "events": [
                    {
                        "id": entry_id,  # with the fingerprint where ambiguous
                        **e.to_json(),
                        "fingerprint": fingerprint(e.text),
                        "overdue": overdue,
                    }
                    for e, _eid, entry_id, overdue in chosen
                ],
            }
        )
        return 0
    for e, eid, _entry_id, overdue in chosen:
        n = e.stars or 0
        stars = "⭐" * n if n <= 5 else f"⭐×{n:,}"  # a typo of 5,000 stars is one word
        status = _("open") if e.is_open else (e.status or "-")
        due_text = _due(e.due, overdue) if e.due else ""
        line(f"{eid}  {e.date}  {e.type}  {stars}  {status}  {due_text}  {e.content}".rstrip())
    for at in found:
        line(_("last active: {date}").format(date=at.last_active or _("unknown")))
    return 0


def _due(due: str, overdue: bool) -> str:
    return (_("due {date} OVERDUE") if overdue else _("due {date}")).format(date=due)


def mood(args: argparse.Namespace) -> int:
    from memtui.engine.model import Mood
    from memtui.engine.views import mood as mood_of

    store = load(args)
    m = mood_of(store)
    if args.json:
        emit_json({"root": store.root, "mood": m.to_json() if m else None})
        return 0
    if m is None:
        warn(_("this store has no {file}").format(file=Mood.FILE))
        return 0
    line(_("now: valence {valence}  energy {energy}").format(valence=m.valence, energy=m.energy))
    guard = _("on (no positive Δvalence)") if m.healing_guard_on else _("off")
    line(
        _("healing-loop guard: {guard}, consecutive_g4c_count {count}").format(
            guard=guard, count=m.g4c_count
        )
    )
    line(_("last decay: {date}").format(date=m.last_decay or _("unknown")))
    for s in m.snapshots:
        said = f"valence {s.valence}  energy {s.energy}  {s.note}"  # the store's own words
        line(f"  {s.time}  {padded(s.source, 13)}{said}")
    return 0


def oplog(args: argparse.Namespace) -> int:
    from memtui.engine.oplog import ENTRY_KEYS, operations

    ops = list(reversed(operations(store_root(args.store))))
    if args.json:
        emit_json({"operations": [o.to_json() for o in ops]})
        return 0
    for o in ops:
        merged = o.merged
        about = ", ".join(
            f"{k}: {detail(k, v)}"
            for k, v in merged.items()
            if k not in ENTRY_KEYS and isinstance(v, str | int)
        )
        note = " " + _("(settled after a crash)") if o.recovered else ""
        named = _entries_text(o.entries, o.entry_count)
        files = _("{n} file(s)").format(n=f"{len(o.paths):,}")
        line(f"{o.opid}  {o.time}  {o.who}  {o.op}{note}  {files}{named}  {about}")
    if not ops:
        line(_("no operations yet"))
    return 0


def _entries_text(entries: list[str], count: int) -> str:
    """`  3 entries: a:x, a:y, b:z` (every one the log names)."""
    from memtui.engine.words import listed

    if not count:
        return ""
    n = f"{count:,}"
    more = " " + _("… ({n} in all)").format(n=n) if count > len(entries) else ""
    said = ngettext("{n} entry", "{n} entries", count).format(n=n)
    return f"  {said}: {listed(entries)}{more}"
