"""Quick fixes for the workspace layout's findings (engine/fixes.py): an orphan topic
gets a pointer, a dangling pointer goes (or its file is made), a badly named topic is
renamed with its pointers, content lines in the index move to a topic."""

from __future__ import annotations

import re
from typing import Any

from memtui.engine.fix_batch import Batch
from memtui.engine.fixes import Fix, Planner, read_checked, unchanged
from memtui.engine.frontmatter import FrontMatterError, split
from memtui.engine.markdown import HEADING, fences
from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import append_block, cut, encode, eol_of_text, line_ranges
from memtui.i18n import msg
from memtui.layouts.workspace.edit import check_index_growth
from memtui.layouts.workspace.ops import index_to_add_to, new_topic_file, place_line, pointers_to
from memtui.layouts.workspace.parse import ARROW, INDEX, TOPIC_LIKE, pointer_file, topic_id

UNFILED = "## Unfiled topics"  # where a pointer for an orphan goes
NOTES = "memory_index_notes.md"  # where content lines found in the index go
NOTES_POINTER = f"- Notes moved out of the index {ARROW} {NOTES}"


def describe_topic(text: str, name: str) -> str:
    """A pointer's words for a topic: its first heading, else its front matter's
    description, else its name. One line, without the pointer's arrow."""
    try:
        parts = split(text)
    except FrontMatterError:
        parts = None
    body = parts.body if parts else text
    code = fences(body).lines(body)
    for index, (_s, _e, line) in enumerate(line_ranges(body)):
        match = HEADING.match(line)
        if match and index not in code and match.group(2).strip():
            return _one_line(match.group(2))
    if parts and parts.yaml_text:
        found = re.search(r"(?m)^description:\s*(.+)$", parts.yaml_text)
        if found:
            return _one_line(found.group(1).strip("'\" "))
    return topic_id(name)


def _one_line(words: str) -> str:
    return " ".join(words.replace(ARROW, "->").split()) or "topic"


# --- topic-orphan ---------------------------------------------------------------


def orphan(root: str, store: Any, finding: Finding, _choose: tuple[str, ...]) -> Fix:
    rel = finding.file or ""

    def step(batch: Batch) -> str:
        topic = read_checked(batch, store, rel).text
        # add topic's own rule: nothing is added to an index at its block
        index, old = index_to_add_to(batch, thresholds(root))  # type: ignore[arg-type]
        if pointers_to(old, rel):
            raise Refused(msg("memory.md already points to {rel}; nothing was changed", rel=rel))
        line = f"- {describe_topic(topic, rel)} {ARROW} {rel}"
        batch.write(INDEX, encode(index, place_line(old, UNFILED, line, eol_of_text(old))))
        return msg("add the pointer `{line}` to memory.md", line=line)

    title = msg(
        "add a pointer to {rel} in memory.md (under {UNFILED})", rel=rel, UNFILED=UNFILED[3:]
    )
    return Fix(finding, title, root, "fix-topic-orphan", step, {"file": rel})


# --- pointer-missing --------------------------------------------------------------

REMOVE, CREATE = "remove", "create"


def dangling(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    how = choose[0] if choose else REMOVE
    if how not in (REMOVE, CREATE) or len(choose) > 1:
        raise Refused(
            msg(
                "choose {REMOVE} (the pointer goes) or {CREATE} (its file is made)",
                REMOVE=REMOVE,
                CREATE=CREATE,
            )
        )
    number = finding.line or 0

    def step(batch: Batch) -> str:
        index = read_checked(batch, store, INDEX)
        text = index.text
        rows = line_ranges(text)
        if not 1 <= number <= len(rows):
            raise Refused(msg("memory.md has no line {number}; nothing was changed", number=number))
        start, stop, content = rows[number - 1]
        head, _arrow, tail = content.partition(ARROW)
        target = pointer_file(tail, lambda _name: False)
        if target is None or batch.read(target) is not None:
            raise Refused(
                msg("memory.md:{number} is not a dangling pointer any more", number=number)
            )
        if how == REMOVE:
            batch.write(INDEX, index.encode(cut(text, start, stop)))
            return msg(
                "remove the pointer to {target} (memory.md:{number})", target=target, number=number
            )
        if "/" in target or "\\" in target:
            raise Refused(
                msg("{target} is not beside memory.md; memtui makes no folders", target=target)
            )
        if TOPIC_LIKE.fullmatch(target):  # a new topic file: add topic's rules
            new_topic_file(root, topic_id(target))
        words = head.strip().lstrip("-*").strip() or topic_id(target)
        batch.write(target, f"# {words}{eol_of_text(text)}".encode(), mode=batch.LIKE_SIBLINGS)
        return msg(
            "create {target} for the pointer on memory.md:{number}", target=target, number=number
        )

    what = msg("remove the pointer") if how == REMOVE else msg("create the file it names")
    details = {"line": number, "how": how}
    title = msg("{what} (memory.md:{number})", what=what, number=number)
    return Fix(finding, title, root, "fix-pointer-missing", step, details, (REMOVE, CREATE))


# --- topic-name ---------------------------------------------------------------------


def good_name(rel: str) -> str:
    """`memory_Travel-Plans.md` -> `memory_travel_plans.md`."""
    words = re.sub(r"[^a-z0-9]+", "_", topic_id(rel).lower()).strip("_")
    return f"memory_{words or 'topic'}.md"


def rename(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    rel = finding.file or ""
    if len(choose) > 1:
        raise Refused(msg("choose one new name of lower-case ASCII letters, digits and _"))
    new = new_topic_file(root, choose[0] if choose else topic_id(good_name(rel)))

    def step(batch: Batch) -> str:
        unchanged(batch, store, rel)
        if batch.read(new) is not None:
            raise Refused(msg("{new} already exists; choose another name", new=new))
        index = batch.text(INDEX, must_exist=False)
        text = index.text if index else ""
        hits = pointers_to(text, rel)
        for (start, _stop, content), _heading in reversed(hits):
            head, arrow, tail = content.partition(ARROW)
            line = head + arrow + tail.replace(rel, new, 1)
            text = text[:start] + line + text[start + len(content) :]
        batch.move(rel, new)
        if hits and index is not None:
            batch.write(INDEX, index.encode(text))
        return msg(
            "rename {rel} to {new} with its {count:,} pointer(s)", rel=rel, new=new, count=len(hits)
        )

    title = msg("rename {rel} to {new}, and its pointers in memory.md", rel=rel, new=new)
    return Fix(finding, title, root, "fix-topic-name", step, {"file": rel, "to": new})


# --- index-content --------------------------------------------------------------------


def index_content(root: str, store: Any, finding: Finding, _choose: tuple[str, ...]) -> Fix:
    found = [f for f in store.findings if f.code == "index-content" and f.file == INDEX]
    numbers = sorted(f.line for f in found if f.line)

    def step(batch: Batch) -> str:
        index = read_checked(batch, store, INDEX)
        text = index.text
        rows = line_ranges(text)
        moved = _with_headings(rows, set(numbers))
        pointer = not pointers_to(text, NOTES)  # the notes' pointer takes the first one's place
        for number in reversed(numbers):
            start, stop, content = rows[number - 1]
            if pointer and number == numbers[0]:
                text = text[:start] + NOTES_POINTER + text[start + len(content) :]
            else:
                text = cut(text, start, stop)
        # edit's rule for memory.md (by design the move never grows it)
        check_index_growth(index.text, text, thresholds(root).index_block_lines)
        eol = eol_of_text(text)
        notes = batch.text(NOTES, must_exist=False)
        old = notes.text if notes else "# Notes moved out of the index" + eol
        mode = None if notes else batch.LIKE_SIBLINGS  # a new file of the user's own text
        batch.write(NOTES, encode(notes, append_block(old, moved, eol)), mode=mode)
        batch.write(INDEX, index.encode(text))
        return msg(
            "move {count:,} content line(s) from memory.md to {NOTES}",
            count=len(numbers),
            NOTES=NOTES,
        )

    title = msg(
        "move the {count:,} content line(s) in memory.md to {NOTES}",
        count=len(numbers),
        NOTES=NOTES,
    )
    details = {"lines": numbers, "to": NOTES}
    return Fix(finding, title, root, "fix-index-content", step, details, covers=tuple(found))


def _with_headings(rows: list[tuple[int, int, str]], numbers: set[int]) -> list[str]:
    """The lines `numbers` names, each run under the `## ` heading it was under."""
    out: list[str] = []
    heading, shown = None, None
    for index, (_s, _e, content) in enumerate(rows, 1):
        if content.startswith("## "):
            heading = content
        if index not in numbers:
            continue
        if heading is not None and heading != shown:
            out.append(heading)
            shown = heading
        out.append(content)
    return out


FIXES: dict[str, Planner] = {  # finding code -> its fix (engine/fixes.py)
    "topic-orphan": orphan,
    "pointer-missing": dangling,
    "topic-name": rename,
    "index-content": index_content,
}
