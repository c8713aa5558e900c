"""The quick fix for an `entry-injection` finding, in any layout: the entry holding the
planted text is archived through its layout's own archive, so `memtui restore` brings
it back. Where its layout archives no such entry (a file kept whole, an OpenClaw
workspace, a profile item...), only the planted lines are cut out of the entry through
its layout's own edit (its rules hold: read-only files, files its agent rebuilds), the
old text kept in .history/ for `memtui undo`; where neither is allowed, the refusal
says why, with nothing written. Either is tried as a dry run when planned, so what is
offered is what will run."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from memtui.engine.errors import MemtuiError
from memtui.engine.fix_batch import Batch
from memtui.engine.fixes import Fix, where
from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused
from memtui.i18n import N_, msg

INJECTION = "entry-injection"
_LINE = re.compile(r"[^\n]*(?:\n|$)")
# The fix's title, a template for each case (the catalogue's sentences are whole).
_ARCHIVE = N_("archive {entry}, which holds the planted text (`memtui restore` brings it back)")
_ARCHIVE_ITEM = N_(
    "archive the planted item of {entry}, which holds the planted text "
    "(`memtui restore` brings it back)"
)
_CUT_LINE = N_(
    "cut line {lines} (the planted text) out of {entry}, which is not archived "
    "({why_not}); `memtui undo` brings them back from .history/"
)
_CUT_LINES = N_(
    "cut lines {lines} (the planted text) out of {entry}, which is not archived "
    "({why_not}); `memtui undo` brings them back from .history/"
)


def remove_planted(root: str, store: Any, finding: Finding, _choose: tuple[str, ...]) -> Fix:
    from memtui.engine.entries import entry_at, fingerprint_of, resolve

    rel = finding.file or ""
    if finding.line is None or rel not in store.texts:
        raise Refused(
            msg("{where}: no entry to archive (the finding names no line)", where=where(finding))
        )
    entry_id = entry_at(store, rel, finding.line)
    entry = resolve(store, entry_id)
    expect = fingerprint_of(store, entry)
    same = [  # the injection findings of this entry, this one among them
        f
        for f in store.findings
        if f.code == INJECTION
        and f.file == rel
        and f.line is not None
        and entry_at(store, rel, f.line) == entry_id
    ]
    covers = tuple(f for f in same if f != finding)
    details = {"entry": entry_id, "file": rel, "line": finding.line}
    why_not = msg("it is kept whole") if entry.kind == "file" else ""
    if not why_not:
        archive, item = _archive(root, store, entry, expect, finding.line)
        try:
            archive(True)
        except MemtuiError as exc:
            why_not = str(exc)  # a Msg, said in the reader's language, but for a final "."
            why_not = why_not.rstrip(".") if why_not.endswith(".") else why_not
        else:
            title = msg(_ARCHIVE_ITEM if item else _ARCHIVE, entry=entry_id)
            return _fix(finding, title, root, details, () if item else covers, archive)
    text = store.texts[rel].text
    ranges = _merged(_planted_lines(text, f.line) for f in same if f.line is not None)
    cut = _cut(root, store, entry, ranges, expect)
    try:
        cut(True)
    except MemtuiError as exc:
        raise Refused(
            msg(
                "{where}: {entry} is not archived ({why_not}), and the planted lines cannot be "
                "cut out of it: {why}",
                where=where(finding),
                entry=entry_id,
                why_not=why_not,
                why=str(exc),
            )
        ) from None
    said = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)
    one = len(ranges) == 1 and ranges[0][0] == ranges[0][1]
    title = msg(_CUT_LINE if one else _CUT_LINES, lines=said, entry=entry_id, why_not=why_not)
    details["lines"] = [list(r) for r in ranges]
    return _fix(finding, title, root, details, covers, cut, op="fix-entry-injection")


def _fix(
    finding: Finding,
    title: str,
    root: str,
    details: dict[str, Any],
    covers: tuple[Finding, ...],
    runs: Any,
    op: str = "archive",
) -> Fix:
    def step(_batch: Batch) -> str:
        raise Refused(msg("runs as its own verb"))  # never: `runs` is run instead

    return Fix(finding, title, root, op, step, details, covers=covers, runs=runs)


def _archive(
    root: str, store: Any, entry: Any, expect: str | None, at: int
) -> tuple[Any, str | None]:
    """(archive(dry_run), the item): the entry through its layout's archive; an entry that
    holds items (a profile category) archives the item the planted line is."""
    from memtui.engine import ops
    from memtui.engine.layouts import for_kind

    options: dict[str, Any] = {"expect": expect}
    layout = for_kind(entry.kind)
    name = entry.id.partition(":")[2]
    items = layout.items(store, store.data.get(layout.name), entry.kind, name) if layout else []
    if items:
        line = store.texts[entry.file].text.split("\n")[at - 1]
        options = {"item": next((i for i in items if i.strip() and i.strip() in line), None)}

    def run(dry_run: bool) -> Any:
        return ops.archive(root, entry.id, dry_run=dry_run, **options)

    return run, options.get("item")


def _planted_lines(text: str, line: int) -> tuple[int, int]:
    """(first, last) 1-based lines of the planted text at `line`: an HTML comment opened
    on it runs to the line that closes it."""
    rows = text.split("\n")
    last = line
    opened = rows[line - 1].rfind("<!--")
    if opened != -1 and "-->" not in rows[line - 1][opened:]:
        while last < len(rows):
            last += 1
            if "-->" in rows[last - 1]:
                break
    return line, last


def _merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line ranges in order, those that overlap or touch joined (a comment's own lines)."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _cut(
    root: str, store: Any, entry: Any, ranges: list[tuple[int, int]], expect: str | None
) -> Any:
    """cut(dry_run): the entry's text without the planted lines (1-based, inclusive
    ranges), through its layout's edit (ops.edit_entry), if the entry is as the check
    saw it."""
    from memtui.engine.ops import edit_entry

    tf = store.texts[entry.file]
    rows = _LINE.findall(tf.text)
    base = entry.span.char_start if entry.span else 0
    end = entry.span.char_stop if entry.span else len(tf.text)
    old = tf.text[base:end]
    new = old
    for first, last in reversed(ranges):
        start = sum(len(r) for r in rows[: first - 1])
        stop = min(start + sum(len(r) for r in rows[first - 1 : last]), end)
        if not base <= start < end:
            raise Refused(
                msg(
                    "line {line} of {file} is not inside {entry}; check again",
                    line=first,
                    file=entry.file,
                    entry=entry.id,
                )
            )
        new = new[: start - base] + new[stop - base :]
    if not old.endswith("\n") and new.endswith("\n"):  # its last line went: no ending now
        new = new.removesuffix("\r\n") if new.endswith("\r\n") else new.removesuffix("\n")

    def run(dry_run: bool) -> Any:
        return edit_entry(root, entry.id, new, expect=expect, dry_run=dry_run)

    return run
