"""Finding the heading section an id names (`file#Heading`, `file#Heading#2` where a
heading is shared) in a file as it is now, so that an action hits the entry the user
saw or nothing: where a heading is shared only the fingerprint shown names one, and
an entry that moved, changed or went since it was shown is a Conflict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memtui.engine.identity import fingerprint
from memtui.engine.markdown import sections
from memtui.engine.model import Span
from memtui.engine.ops.common import Refused
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.ops.replace import Targeting

AGAIN = msg("nothing was changed — reload and try again")
NTH = re.compile(r"(.*)#(\d{1,6})", re.S)  # `Notes#2`: the second section headed Notes


def headed(tf: TextFile, heading: str, level: int) -> tuple[list[Span], int]:
    """The spans of the sections (headings of `level` `#` or fewer) headed `heading`,
    and which of them is meant (1-based): the heading as written, else `Heading#n`."""
    found = [(s.name.strip(), s.span) for s in sections(tf, level, False)]
    pool = [span for h, span in found if h == heading]
    m = NTH.fullmatch(heading)
    if not pool and m:
        pool = [span for h, span in found if h == m.group(1).strip()]
        return pool, int(m.group(2))
    return pool, 1


def whole(tf: TextFile) -> Span:
    return Span(tf.path, 0, len(tf.text.splitlines()), 0, len(tf.text))


def one_section(new: str, level: int) -> bool:
    """Whether `new` is one section from its heading line to its end (else it would
    merge into the section before it, or split in two)."""
    found = sections(TextFile("", new, False, 0), level, False)
    return len(found) == 1 and found[0].span.char_start == 0 and found[0].span.char_stop == len(new)


class Sections:
    """Locating a layout's sections, in its words: what a section is called (`noun`),
    who writes the file (`who`), and why an entry changed (`changed`)."""

    def __init__(self, noun: str, who: str, changed: str) -> None:
        self.noun, self.who, self.why_changed = noun, who, changed

    def target(
        self, rel_of: Callable[[str], str], entry_id: str, heading: str | None, level: int
    ) -> Targeting:
        """replace_entry's target: the entry in the file `rel_of(root)` names, located
        with the fingerprint shown."""

        def target(tx_root: str, shown: str | None, _seen: bool) -> Any:  # heading level: None
            def find(tf: TextFile) -> tuple[int, int]:
                span = self.locate(tf, entry_id, heading, shown, level)
                return span.char_start, span.char_stop

            return rel_of(tx_root), find, None

        return target

    def changed(self, entry_id: str) -> Conflict:
        return Conflict(
            msg(
                "{entry_id} changed since it was shown ({why_changed}); {AGAIN}",
                entry_id=entry_id,
                why_changed=self.why_changed,
                AGAIN=AGAIN,
            )
        )

    def locate(
        self, tf: TextFile, entry_id: str, heading: str | None, fp: str | None, level: int
    ) -> Span:
        """The span of the entry `entry_id` names in the file as it is now: the whole
        file (`heading` None), or its section; `fp` is the fingerprint shown."""
        if heading is None:
            if fp is not None and fingerprint(tf.text) != fp:
                raise self.changed(entry_id)
            return whole(tf)
        pool, nth = headed(tf, heading, level)
        noun = self.noun
        if not pool:
            if fp is not None:
                raise Conflict(
                    msg(
                        "{entry_id} is no longer in {path} ({who}?); {AGAIN}",
                        entry_id=entry_id,
                        path=tf.path,
                        who=self.who,
                        AGAIN=AGAIN,
                    )
                )
            raise Refused(
                msg("no {noun} {heading!r} in {path}", noun=noun, heading=heading, path=tf.path)
            )
        if fp is None:
            if len(pool) == 1 and nth == 1:
                return pool[0]
            raise Refused(
                msg(
                    "{count} {noun}s of {path} are headed {heading!r}: one is "
                    "named with its place and fingerprint, as `memtui list` prints "
                    "it ({entry_id}#2@…); nothing was changed",
                    count=len(pool),
                    noun=noun,
                    path=tf.path,
                    heading=heading,
                    entry_id=entry_id,
                )
            )
        text = tf.text
        shown = [
            i for i, sp in enumerate(pool) if fingerprint(text[sp.char_start : sp.char_stop]) == fp
        ]
        if nth - 1 in shown:
            return pool[nth - 1]
        if shown:
            raise Conflict(
                msg(
                    "{entry_id} moved since it was shown ({who} wrote to {path}): "
                    "it is now the {noun} headed {heading!r} number {value}; "
                    "{AGAIN}",
                    entry_id=entry_id,
                    who=self.who,
                    path=tf.path,
                    noun=noun,
                    heading=heading,
                    value=shown[0] + 1,
                    AGAIN=AGAIN,
                )
            )
        raise self.changed(entry_id)
