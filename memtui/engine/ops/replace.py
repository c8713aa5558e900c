"""Replacing one entry's span of lines in a text file (SPEC §4 "edits an entry or a
file"): the layout-neutral half of every layout's edit (Layout.edit).

The entry is located again in the file's current bytes under the store lock, so lines
the agent wrote meanwhile elsewhere in the file are kept. If the caller says what text
it saw, an entry that has itself changed since is a Conflict: nothing either side
writes is lost. Every layout may refuse the change to a file of its own
(Layout.check_edit, Layout.read_only); the owner may add a rule of its entry's own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from memtui.engine.identity import check_shown, fingerprint
from memtui.engine.markdown import HEADING, sections
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import check_root, eol_of_text, line_ranges, load
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict, Receipt, Transaction
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.config import Thresholds

Locate = Callable[[TextFile], tuple[int, int]]  # (char start, char stop) of the entry
# (file, how to find the entry in its current text, heading level it starts with: 0 none)
Target = tuple[str, Locate, int]
# (the transaction's root, the fingerprint shown, whether the text seen was given)
Targeting = Callable[[str, "str | None", bool], Target]


class EditedText(NamedTuple):
    """An edit about to be written, for the layouts' rules (Layout.check_edit)."""

    root: str
    entry_id: str  # as the caller gave it
    kind: str  # of the entry edited ("file" for a whole file by its path)
    rel: str  # the file
    old: str  # the entry's text before
    new: str  # and after
    before: str  # the whole file's text before
    after: str  # and after
    limits: Thresholds


def whole(tf: TextFile) -> tuple[int, int]:
    """The whole file is the entry."""
    return 0, len(tf.text)


def section(rel: str, name: str, expect: str | None) -> Locate:
    """The `## name` section of `rel`; of two by one name, the one shown (`expect`)."""
    wanted = name.strip()

    def locate(tf: TextFile) -> tuple[int, int]:
        spans = [s.span for s in sections(tf, 2, False) if s.name.strip() == wanted]
        if not spans:
            raise Refused(msg("no section {wanted!r} in {rel}", wanted=wanted, rel=rel))
        shown = [sp for sp in spans if fingerprint(tf.text[sp.char_start : sp.char_stop]) == expect]
        span = (shown or spans)[0]
        return span.char_start, span.char_stop

    return locate


def replace_entry(
    root: str,
    kind: str,
    new_text: str,
    target: Targeting,
    *,
    entry_id: str,
    seen_text: str | None = None,
    expect: str | None = None,
    insist: bool = False,
    dry_run: bool = False,
    check: Callable[[EditedText], None] | None = None,
) -> Receipt:
    """Replace the entry `target` finds with `new_text`, in one transaction with
    read-back. `seen_text` is the entry's text as the caller read it: if the entry
    differs now, Conflict. Without it, `expect` is its fingerprint as shown, with the
    same effect. Empty text is refused (an entry is removed by archiving it); `check`
    (the owner's) and every layout's check_edit may refuse the new text; a file a
    layout keeps read-only is changed only if the user insists."""
    from memtui.engine.layouts import registry

    if seen_text is not None:  # the text seen names the entry more exactly than an id
        expect = fingerprint(seen_text)
    if not new_text.strip():
        raise Refused(
            msg(
                "{entry_id}: the new text is empty; an edit never removes an "
                "entry (archiving it does: `memtui archive`, or x in the app); "
                "nothing was written",
                entry_id=entry_id,
            )
        )
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "edit", details={"entry": entry_id}, dry_run=dry_run) as tx:
        rel, locate, heading_level = target(tx.root, expect, seen_text is not None)
        why = read_only(tx.root, rel)
        if why is not None and not insist:
            raise Refused(
                msg(
                    "{why}; to change them anyway, insist (`memtui edit --insist`, "
                    "or ctrl+u in the app)",
                    why=why,
                )
            )
        tf = load(tx, rel, limits)
        assert tf is not None
        try:
            start, stop = locate(tf)
        except Refused:
            if seen_text is not None:
                raise Conflict(
                    msg(
                        "{entry_id} is no longer in {rel} (removed or renumbered since "
                        "you read it, by the agent?); nothing was changed — reload and "
                        "try again",
                        entry_id=entry_id,
                        rel=rel,
                    )
                ) from None
            raise
        old = tf.text[start:stop]
        # Blank lines after it are not part of what was seen (the agent's append after
        # the last event adds one); fit() keeps them.
        if seen_text is not None and old.rstrip() != seen_text.rstrip():
            raise Conflict(
                msg(
                    "{entry_id} changed since you read it (the agent wrote to it): "
                    "{what_changed}; nothing was changed — reload and try again",
                    entry_id=entry_id,
                    what_changed=what_changed(seen_text, old),
                )
            )
        check_shown(entry_id, old, expect, rel)
        new = fit(new_text, old, tf.text)
        if heading_level:
            _check_heading(entry_id, new, heading_level)
        text = tf.text[:start] + new + tf.text[stop:]
        change = EditedText(tx.root, entry_id, kind, rel, old, new, tf.text, text, limits)
        if check is not None:
            check(change)
        for lay in registry().values():
            lay.check_edit(change)
        _check_json(rel, text)
        tx.details["file"] = rel
        if text != tf.text:
            tx.write(rel, tf.encode(text))
        else:
            tx.details["unchanged"] = True
        return tx.commit()


def read_only(root: str, rel: str) -> str | None:
    """Why a layout keeps `rel` read-only unless the user insists (Layout.read_only)."""
    from memtui.engine.layouts import registry

    return next(filter(None, (lay.read_only(root, rel) for lay in registry().values())), None)


# --- the new text ------------------------------------------------------------


def fit(new: str, old: str, whole: str) -> str:
    """`new` in the entry's line ending, ending the way the old text ended."""
    eol = eol_of_text(old, eol_of_text(whole))
    if eol == "\r\n":
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")
    if not new:
        return new
    if old.endswith("\n") and not new.endswith("\n"):
        new += eol
    elif old and not old.endswith("\n") and new.endswith("\n"):
        new = new[:-2] if new.endswith("\r\n") else new[:-1]  # the file ends without one
    # The blank lines that separate the entry from the next one are kept when the new
    # text has none (text from `memtui show`, or an editor that trims): else the two
    # entries would run together.
    gap = old[len(old.rstrip("\r\n")) :]
    if gap.count("\n") > 1 and not new.endswith(eol + eol):
        new = new.rstrip("\r\n") + gap
    return new


def what_changed(seen: str, now: str) -> str:
    a, b = seen.split("\n"), now.split("\n")
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return msg(
                "line {value} of the entry was {short}, now {short2}",
                value=index + 1,
                short=_short(x),
                short2=_short(y),
            )
    if len(b) > len(a):
        return msg("{value:,} line(s) were added to it", value=len(b) - len(a))
    return msg("{value:,} line(s) were removed from it", value=len(a) - len(b))


def _short(line: str, limit: int = 60) -> str:
    line = line.rstrip("\r")
    return repr(line if len(line) <= limit else line[:limit] + "…")


def _check_heading(entry_id: str, new: str, level: int) -> None:
    first = line_ranges(new)[0][2]
    match = HEADING.match(first)
    if not match or len(match.group(1)) != level:
        marks = "#" * level
        raise Refused(
            msg(
                "{entry_id}: the text must begin with its `{marks} ` heading "
                "line, or it would merge into the entry before it",
                entry_id=entry_id,
                marks=marks,
            )
        )


def _check_json(rel: str, new: str) -> None:
    if rel.endswith(".json"):
        try:
            json.loads(new)
        except (ValueError, RecursionError) as exc:
            raise Refused(
                msg("{rel}: the new text is not valid JSON ({exc}); not written", rel=rel, exc=exc)
            ) from None
