"""Quick fixes for the companion layout's findings (engine/fixes.py): mood snapshots
over the limit are trimmed oldest first into the archive; a full profile category
has the items the user chooses archived (never its protected core items)."""

from __future__ import annotations

from typing import Any

from memtui.engine.fix_batch import Batch
from memtui.engine.fixes import Fix, Planner, read_checked
from memtui.engine.markdown import sections
from memtui.engine.model import Finding, Section, item_text
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import (
    append_block,
    block_lines,
    cut,
    encode,
    eol_of_text,
    insert_after_content,
    line_ranges,
)
from memtui.engine.textfile import TextFile
from memtui.i18n import msg
from memtui.layouts.companion.ops import ARCHIVE_PROFILE
from memtui.layouts.companion.parse import CORE_WORDS, MOOD, PROFILE

ARCHIVE_MOOD = "archive/" + MOOD


# --- mood-snapshots ------------------------------------------------------------------


def snapshot_starts(text: str) -> list[int]:
    """The offset of each `### time · source=…` line (newest first, as in the file)."""
    return [start for start, _stop, line in line_ranges(text) if line.startswith("###")]


def trim_mood(root: str, store: Any, finding: Finding, _choose: tuple[str, ...]) -> Fix:
    keep = thresholds(root).mood_max_snapshots

    def step(batch: Batch) -> str:
        mood = read_checked(batch, store, MOOD)
        starts = snapshot_starts(mood.text)
        if len(starts) <= keep:
            raise Refused(
                msg(
                    "{MOOD} has {count:,} snapshots, not more than {keep:,}",
                    MOOD=MOOD,
                    count=len(starts),
                    keep=keep,
                )
            )
        start = starts[keep]
        # the oldest run to the end of the file, or to the next heading after them
        stop = next(
            (s for s, _e, line in line_ranges(mood.text, start) if line.startswith(("# ", "## "))),
            len(mood.text),
        )
        moved = block_lines(mood.text[start:stop])
        archive = batch.text(ARCHIVE_MOOD, must_exist=False)
        old = archive.text if archive else ""
        eol = eol_of_text(old, eol_of_text(mood.text))
        batch.write(MOOD, mood.encode(cut(mood.text, start, stop, separators=True)))
        batch.write(ARCHIVE_MOOD, encode(archive, append_block(old, moved, eol)))
        return msg(
            "archive the {value:,} oldest mood snapshot(s) to "
            "{ARCHIVE_MOOD}, keeping the newest {keep:,}",
            value=len(starts) - keep,
            ARCHIVE_MOOD=ARCHIVE_MOOD,
            keep=keep,
        )

    title = msg(
        "trim {MOOD} to its newest {keep:,} snapshots (the rest archived)", MOOD=MOOD, keep=keep
    )
    details = {"keep": keep, "to": ARCHIVE_MOOD}
    return Fix(finding, title, root, "fix-mood-snapshots", step, details)


# --- profile-category-full ---------------------------------------------------------------


def is_core(words: str) -> bool:
    """Names 称呼/昵称/关系/禁忌: never offered for archiving (SPEC: protected)."""
    folded = words.casefold()
    return any(word in folded for word in CORE_WORDS)


def _category(tf: TextFile, line: int | None) -> Section:
    found = next((s for s in sections(tf, 2) if s.span.lineno == line), None)
    if found is None:
        raise Refused(
            msg(
                "{PROFILE}:{line} is not a category heading any more; check again",
                PROFILE=PROFILE,
                line=line,
            )
        )
    return found


def archive_items(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    tf = store.texts.get(PROFILE)
    if tf is None:
        raise Refused(msg("{PROFILE} cannot be read", PROFILE=PROFILE))
    category = _category(tf, finding.line)
    name = category.name.strip()
    if is_core(name):
        raise Refused(
            msg(
                "{name!r} is a protected core category: nothing is offered for "
                "archiving; archive an item explicitly with `memtui archive "
                "profile:{name} --item TEXT`",
                name=name,
            )
        )
    offered = tuple(item for item in category.items if not is_core(item))
    wanted = [item_text(c) if c[:1] in "-*•" else c.strip() for c in choose]
    for item in wanted:
        if item not in offered:
            raise Refused(
                msg(
                    "{item!r} is not an item offered under {name!r}; nothing was changed",
                    item=item,
                    name=name,
                )
            )

    def step(batch: Batch) -> str:
        if not wanted:
            raise Refused(
                msg(
                    "choose which of the {count:,} items under {name!r} to archive",
                    count=len(offered),
                    name=name,
                )
            )
        profile = read_checked(batch, store, PROFILE)
        section = _category(profile, finding.line)
        rows = line_ranges(profile.text, section.span.char_start, section.span.char_stop)
        hits = [r for r in rows[1:] if r[2][:1] in "-*•" and item_text(r[2]) in wanted]
        text = profile.text
        for start, stop, _content in reversed(hits):
            text = cut(text, start, stop)
        archive = batch.text(ARCHIVE_PROFILE, must_exist=False)
        old = archive.text if archive else ""
        eol = eol_of_text(old, eol_of_text(profile.text))
        lines = [r[2] for r in hits]
        home = (
            next((s for s in sections(archive, 2, False) if s.name.strip() == name), None)
            if archive
            else None
        )
        if home is None:
            new = append_block(old, [rows[0][2], *lines], eol)
        else:
            new = insert_after_content(old, home.span.char_start, home.span.char_stop, lines, eol)
        batch.write(PROFILE, profile.encode(text))
        batch.write(ARCHIVE_PROFILE, encode(archive, new))
        return msg(
            "archive {count:,} item(s) of {name!r} to {ARCHIVE_PROFILE}",
            count=len(hits),
            name=name,
            ARCHIVE_PROFILE=ARCHIVE_PROFILE,
        )

    return Fix(
        finding,
        f"archive the items you choose under {name!r} ({len(category.items):,} items; "
        f"core items are never offered)",
        root,
        "fix-profile-full",
        step,
        {"category": name, "items": wanted, "to": ARCHIVE_PROFILE},
        choices=offered,
        needs_choice=not wanted,
        ask=f"the items under {name!r} to archive",
    )


FIXES: dict[str, Planner] = {  # finding code -> its fix (engine/fixes.py)
    "mood-snapshots": trim_mood,
    "profile-category-full": archive_items,
}
