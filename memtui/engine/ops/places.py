"""Where an archived entry was, so that its restore puts it back there (the seed
layouts: a topic's pointer lines, an event, a profile item, a fact section).

An archive records (in the places book, ops.places_book) each run of lines it cut
from a file: its line number, the nearest lines above and below it that are not
blank (anchors that survive the agent writing elsewhere in the file), the blank
lines that went with it, and its line endings. The restore finds the place by its
anchors (both, else one, nearest to the old line number, where the layout allows
the entry to go); the layout's own place when they are gone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from memtui.engine.markdown import HEADING
from memtui.engine.ops.lines import eol_of_text

Place = dict[str, Any]


def rows(text: str) -> list[str]:
    """Lines with their endings, split at "\\n" only."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def content(row: str) -> str:
    return row.rstrip("\n").removesuffix("\r")


def blank(line: str) -> bool:
    return not line.strip()


def removal(old: str, new: str, start: int) -> Place | None:
    """Where the whole lines that `old` has and `new` lacks were: cut from character
    `start` on, or (a cut at the end that took the blank lines before it along) at the
    end; when the file has no final newline, the line above the cut may have lost its
    ending instead. None if that is not the change.

    Its anchors are the nearest lines that are not blank above and below that place,
    with the number of blank lines between (`gap_above`, `gap_below`): blank lines are
    everywhere, an entry's neighbours are not."""
    size = len(old) - len(new)
    if size <= 0:
        return None
    if old[:start] == new[:start] and old[start + size :] == new[start:]:
        at_char = start
    elif old.startswith(new):
        at_char = len(new)
    else:
        return None
    removed = old[at_char : at_char + size]
    lines = [content(row) for row in rows(new)]
    at = new.count("\n", 0, at_char)  # the lines before the cut
    if at_char and old[at_char - 1] != "\n":  # mid-line: the ending of the line above went
        ending = "\r\n" if removed.startswith("\r\n") else "\n"
        if not removed.startswith(ending) or at_char != len(new) or old.endswith("\n"):
            return None
        removed, at = removed[len(ending) :], len(lines)
    cut = rows(removed)
    up, down = _prev(lines, at), _next(lines, at)
    core = [i for i, row in enumerate(cut) if not blank(content(row))] or [0]
    endings = [row[len(content(row)) :] for row in cut]
    return {
        "line": at,
        "above": lines[up] if up >= 0 else None,
        "gap_above": at - up - 1,
        "below": lines[down] if down < len(lines) else None,
        "gap_below": down - at,
        "first": content(cut[core[0]]),
        "last": content(cut[core[-1]]),
        "lead": [content(row) for row in cut[: core[0]]],
        "trail": [content(row) for row in cut[core[-1] + 1 :]],
        "rows": len(cut),
        "eol": next((e for e in endings if e), eol_of_text(old)),
        "end": endings[-1],
    }


def _prev(lines: list[str], k: int) -> int:
    """The last line before k that is not blank (-1: none)."""
    k -= 1
    while k >= 0 and blank(lines[k]):
        k -= 1
    return k


def _next(lines: list[str], k: int) -> int:
    """The first line from k on that is not blank (len(lines): none)."""
    while k < len(lines) and blank(lines[k]):
        k += 1
    return k


Fits = Callable[[list[str]], Callable[[int], bool]]  # the lines -> where an entry may go


def locate(text: str, place: Place, fits: Fits) -> int | None:
    """The line (0-based) to put the entry back at in `text`: where both anchors are
    still its neighbours (with as many blank lines between), else below the line that
    was above it, else above the line that was below it, the one nearest its old line
    among those `fits` allows; None when neither anchor is left."""
    lines = [content(row) for row in rows(text)]
    allowed = fits(lines)
    n, above, below = len(lines), place.get("above"), place.get("below")
    line = place.get("line") if isinstance(place.get("line"), int) else 0
    gaps = place.get("gap_above"), place.get("gap_below")
    prev = [-1] * (n + 1)  # prev[k]: _prev(lines, k), for every k at once
    for k in range(1, n + 1):
        prev[k] = k - 1 if not blank(lines[k - 1]) else prev[k - 1]
    nxt = [n] * (n + 1)
    for k in range(n - 1, -1, -1):
        nxt[k] = k if not blank(lines[k]) else nxt[k + 1]

    def up(k: int) -> bool:
        j = prev[k]
        return (lines[j] if j >= 0 else None) == above and gaps[0] in (None, k - j - 1)

    def down(k: int) -> bool:
        j = nxt[k]
        return (lines[j] if j < n else None) == below and gaps[1] in (None, j - k)

    for test in (lambda k: up(k) and down(k), up, down):
        found = [k for k in range(n + 1) if test(k) and allowed(k)]
        if found:
            return min(found, key=lambda k: (abs(k - line), k))
    return None


def block(place: Place, lines: Iterable[str]) -> list[str]:
    """The rows to put back: the blank lines that went with the entry around its lines,
    in its line ending; the last one ends as it did."""
    eol = str(place.get("eol") or "\n")
    out = [f"{x}{eol}" for x in [*place.get("lead", ()), *lines, *place.get("trail", ())]]
    if out:
        out[-1] = content(out[-1]) + str(place.get("end", eol))
    return out


def put_back(text: str, at: int, new: list[str], place: Place) -> str:
    """`new` rows inserted before line `at` (past the end: appended) in the place's line
    ending; the text keeps whether it ends with a newline, unless the rows were its end
    without one."""
    old = rows(text)
    eol = str(place.get("eol") or eol_of_text(text))
    new = list(new)
    if not new:
        return text
    if at < len(old):
        if not new[-1].endswith("\n"):
            new[-1] += eol
    elif old and not old[-1].endswith("\n"):
        old[-1] += eol
    return "".join(old[:at] + new + old[at:])


def at_heading(depth: int = 6) -> Fits:
    """Between two blocks: where only blank lines are left before the end or before a
    heading of `depth` or less."""
    head = re.compile(rf"#{{1,{depth}}}(?:[ \t]|$)")

    def fits(lines: list[str]) -> Callable[[int], bool]:
        return lambda k: (j := _next(lines, k)) == len(lines) or bool(head.match(lines[j]))

    return fits


def under(heading: str | None) -> Fits:
    """In the `## ` section whose heading line is `heading` (None: before any `#` or
    `## ` heading), as pointers_to and the profile read sections."""

    def fits(lines: list[str]) -> Callable[[int], bool]:
        owner: list[str | None] = [None]  # owner[k]: the section line k would be in
        for line in lines:
            match = HEADING.match(line)
            depth = len(match.group(1)) if match else 7
            owner.append((line if depth == 2 else None) if depth <= 2 else owner[-1])
        return lambda k: owner[k] == heading

    return fits
