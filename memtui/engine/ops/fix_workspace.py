"""Quick fixes for the workspace layout's findings (engine/fixes.py): an orphan topic
gets a pointer, a dangling pointer goes (or its file is made), a badly named topic is
renamed with its pointers, content lines in the index move to a topic."""

from __future__ import annotations

import re
from typing import Any

from memtui.engine.fixes import Fix, Planner, read_checked, unchanged
from memtui.engine.frontmatter import FrontMatterError, split
from memtui.engine.layouts.workspace import ARROW, INDEX, pointer_file, topic_id
from memtui.engine.markdown import HEADING, fences
from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused, current_text
from memtui.engine.ops.lines import append_block, cut, encode, eol_of_text, line_ranges
from memtui.engine.ops.workspace import place_line, pointers_to
from memtui.engine.write.transaction import Receipt, Transaction

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

    def run(dry_run: bool) -> Receipt:
        with Transaction(root, "fix-topic-orphan", details={"file": rel}, dry_run=dry_run) as tx:
            topic = read_checked(tx, store, rel).text
            index = current_text(tx, INDEX, must_exist=False)
            old = index.text if index else ""
            if pointers_to(old, rel):
                raise Refused(f"memory.md already points to {rel}; nothing was changed")
            line = f"- {describe_topic(topic, rel)} {ARROW} {rel}"
            tx.write(INDEX, encode(index, place_line(old, UNFILED, line, eol_of_text(old))))
            tx.details["summary"] = f"add the pointer `{line}` to memory.md"
            return tx.commit()

    return Fix(finding, f"add a pointer to {rel} in memory.md (under {UNFILED[3:]})", run)


# --- pointer-missing --------------------------------------------------------------

REMOVE, CREATE = "remove", "create"


def dangling(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    how = choose[0] if choose else REMOVE
    if how not in (REMOVE, CREATE) or len(choose) > 1:
        raise Refused(f"choose {REMOVE} (the pointer goes) or {CREATE} (its file is made)")
    number = finding.line or 0

    def run(dry_run: bool) -> Receipt:
        details = {"line": number, "how": how}
        with Transaction(root, "fix-pointer-missing", details=details, dry_run=dry_run) as tx:
            index = read_checked(tx, store, INDEX)
            text = index.text
            rows = line_ranges(text)
            if not 1 <= number <= len(rows):
                raise Refused(f"memory.md has no line {number}; nothing was changed")
            start, stop, content = rows[number - 1]
            head, _arrow, tail = content.partition(ARROW)
            target = pointer_file(tail, lambda _name: False)
            if target is None or tx.read(target) is not None:
                raise Refused(f"memory.md:{number} is not a dangling pointer any more")
            if how == REMOVE:
                tx.write(INDEX, index.encode(cut(text, start, stop)))
                tx.details["summary"] = f"remove the pointer to {target} (memory.md:{number})"
            else:
                if "/" in target or "\\" in target:
                    raise Refused(f"{target} is not beside memory.md; memtui makes no folders")
                words = head.strip().lstrip("-*").strip() or topic_id(target)
                eol = eol_of_text(text)
                tx.write(target, f"# {words}{eol}".encode(), mode=tx.LIKE_SIBLINGS)
                tx.details["summary"] = f"create {target} for the pointer on memory.md:{number}"
            return tx.commit()

    what = "remove the pointer" if how == REMOVE else "create the file it names"
    return Fix(finding, f"{what} (memory.md:{number})", run, choices=(REMOVE, CREATE))


# --- topic-name ---------------------------------------------------------------------


def good_name(rel: str) -> str:
    """`memory_Travel-Plans.md` -> `memory_travel_plans.md`."""
    words = re.sub(r"[^a-z0-9]+", "_", topic_id(rel).lower()).strip("_")
    return f"memory_{words or 'topic'}.md"


def rename(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    rel = finding.file or ""
    new = f"memory_{choose[0]}.md" if choose else good_name(rel)
    if choose and (len(choose) > 1 or not re.fullmatch(r"[a-z0-9_]+", choose[0])):
        raise Refused("choose one new name of lower-case ASCII letters, digits and _")

    def run(dry_run: bool) -> Receipt:
        details = {"file": rel, "to": new}
        with Transaction(root, "fix-topic-name", details=details, dry_run=dry_run) as tx:
            unchanged(tx, store, rel)
            if tx.read(new) is not None:
                raise Refused(f"{new} already exists; choose another name")
            index = current_text(tx, INDEX, must_exist=False)
            text = index.text if index else ""
            hits = pointers_to(text, rel)
            for (start, _stop, content), _heading in reversed(hits):
                head, arrow, tail = content.partition(ARROW)
                line = head + arrow + tail.replace(rel, new, 1)
                text = text[:start] + line + text[start + len(content) :]
            tx.move(rel, new)
            if hits and index is not None:
                tx.write(INDEX, index.encode(text))
            tx.details["summary"] = f"rename {rel} to {new} with its {len(hits)} pointer(s)"
            return tx.commit()

    return Fix(finding, f"rename {rel} to {new}, and its pointers in memory.md", run)


# --- index-content --------------------------------------------------------------------


def index_content(root: str, store: Any, finding: Finding, _choose: tuple[str, ...]) -> Fix:
    numbers = sorted(
        f.line for f in store.findings if f.code == "index-content" and f.file == INDEX and f.line
    )

    def run(dry_run: bool) -> Receipt:
        details = {"lines": numbers, "to": NOTES}
        with Transaction(root, "fix-index-content", details=details, dry_run=dry_run) as tx:
            index = read_checked(tx, store, INDEX)
            text = index.text
            rows = line_ranges(text)
            moved = _with_headings(rows, set(numbers))
            for number in reversed(numbers):
                start, stop, _content = rows[number - 1]
                text = cut(text, start, stop)
            eol = eol_of_text(text)
            if not pointers_to(text, NOTES):
                text = place_line(text, UNFILED, NOTES_POINTER, eol)
            notes = current_text(tx, NOTES, must_exist=False)
            old = notes.text if notes else "# Notes moved out of the index" + eol
            mode = None if notes else tx.LIKE_SIBLINGS  # a new file of the user's own text
            tx.write(NOTES, encode(notes, append_block(old, moved, eol)), mode=mode)
            tx.write(INDEX, index.encode(text))
            tx.details["summary"] = f"move {len(numbers)} content line(s) from memory.md to {NOTES}"
            return tx.commit()

    title = f"move the {len(numbers)} content line(s) in memory.md to {NOTES}"
    return Fix(finding, title, run)


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
