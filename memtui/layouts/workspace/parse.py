"""The workspace layout (SPEC §1): soul/user/agent.md, the memory.md index, topic files."""

from __future__ import annotations

import re
from collections.abc import Callable

from memtui.engine.markdown import HEADING, sections
from memtui.engine.model import Section
from memtui.engine.reader import StoreReader
from memtui.engine.textfile import iter_lines, line_count
from memtui.i18n import msg
from memtui.layouts.workspace.detect import (  # noqa: F401 - re-exported
    COMPANIONS,
    DSH_L0,
    TOPIC_LIKE,
    topic_files,
)
from memtui.layouts.workspace.detect import WORKSPACE_INDEX as INDEX
from memtui.layouts.workspace.model import Pointer, Workspace

INDEX_CAP_LINES = 200  # SPEC §1: memory.md's hard cap (the thresholds warn and block below it)
TOPIC_NAME = re.compile(r"memory_([a-z0-9_]+)\.md")
ARROW = "→"
POINTER_FILE = re.compile(r"[^\s（()）\[\]<>\"'`，,；;]+?\.md(?![\w.])")
PATH_WORD = re.compile(r"[^\s（()）\[\]<>\"'`，,；;]+")


def topic_id(filename: str) -> str:
    """`memory_course.md` -> `course` (the name in `topic:<name>`)."""
    return filename[len("memory_") : -len(".md")]


def parse(reader: StoreReader, root_files: list[str]) -> Workspace:
    t = reader.thresholds
    index = reader.read(INDEX)
    pointers: list[Pointer] = []
    index_lines = 0
    index_sections: list[Section] = []
    if index is not None:
        index_lines = line_count(index.text)
        if index_lines >= t.index_block_lines:
            reader.findings.add(
                "index-size",
                INDEX,
                None,
                msg(
                    "memory.md has {lines:,} lines (blocked at {block:,}): nothing may add "
                    "to it until it is governed",
                    lines=index_lines,
                    block=t.index_block_lines,
                ),
                level="error",
            )
        elif index_lines >= t.index_warn_lines:
            reader.findings.add(
                "index-size",
                INDEX,
                None,
                msg(
                    "memory.md has {lines:,} lines (warning from {warn:,}): run governance soon",
                    lines=index_lines,
                    warn=t.index_warn_lines,
                ),
            )
        code = reader.fences(index)
        pointers = _pointers(reader, index.text, code.lines(index.text))
        index_sections = sections(index, 2, fenced=code)

    topics = topic_files(root_files)
    reader.read_first(topics)  # topic text is memory too: shown, searched, reported if unreadable
    _check_pointers(reader, pointers)
    _check_topics(reader, topics, pointers)

    agent_bytes = None
    if reader.exists("agent.md"):
        agent = reader.read("agent.md")
        agent_bytes = agent.size if agent else None
        if agent_bytes is not None and agent_bytes > t.agent_max_bytes:
            reader.findings.add(
                "agent-size",
                "agent.md",
                None,
                msg(
                    "agent.md is {bytes:,} bytes (threshold {max:,}); it is injected into "
                    "every prompt, so trim rules that have served their purpose",
                    bytes=agent_bytes,
                    max=t.agent_max_bytes,
                ),
            )
    user = _sections_of(reader, "user.md")
    _check_user_duplicates(reader, user)
    return Workspace(
        index_file=INDEX,
        index_lines=index_lines,
        index_sections=tuple(index_sections),
        pointers=tuple(pointers),
        topics=tuple(topics),
        soul_sections=tuple(_sections_of(reader, "soul.md")),
        user_sections=tuple(user),
        agent_sections=tuple(_sections_of(reader, "agent.md")),
        agent_bytes=agent_bytes,
    )


def _sections_of(reader: StoreReader, name: str) -> list[Section]:
    tf = reader.read(name) if reader.exists(name) else None
    return sections(tf, 2, fenced=reader.fences(tf)) if tf else []


def _pointers(reader: StoreReader, text: str, code: frozenset[int]) -> list[Pointer]:
    """The index's pointers; `code`: the lines inside fenced code blocks, content
    whatever they look like."""
    found: list[Pointer] = []
    for index, _offset, line in iter_lines(text):
        stripped = line.strip()
        if not stripped or (HEADING.match(stripped) and index not in code):
            continue
        head, arrow, tail = stripped.partition(ARROW)
        pointer_shaped = bool(arrow) and index not in code
        target = pointer_file(tail, reader.exists) if pointer_shaped else None
        outside = _path_out(reader, tail) if pointer_shaped and target is None else None
        if outside is not None:  # pointer-shaped, to something that is not a .md file
            _escape_finding(reader, outside, index + 1)
            continue
        if target is None:
            reader.findings.add(
                "index-content",
                INDEX,
                index + 1,
                msg(
                    "the index holds only headings and pointers (`- topic → file.md`); "
                    "move this content into a topic file"
                ),
            )
            continue
        description = head.strip().removeprefix("-").removeprefix("*").strip()
        found.append(Pointer(description, target, index + 1))
    return found


def pointer_file(tail: str, exists: Callable[[str], bool]) -> str | None:
    """The file named after a pointer's arrow: the whole rest of the line when that
    file exists (a bare name may hold spaces or brackets), else the first `*.md` in
    it (`→ 详见 user.md（…）` points too)."""
    whole = tail.strip()
    if whole.endswith(".md") and exists(whole):
        return whole
    match = POINTER_FILE.search(tail)
    return match.group(0) if match else None


def _path_out(reader: StoreReader, tail: str) -> str | None:
    """A path after a pointer's arrow that leads out of the root (`../x`, `/etc/passwd`,
    `~/x`, a folder linked out), if any: words with no path separator are prose."""
    for word in PATH_WORD.findall(tail):
        if ("/" in word or "\\" in word or word[0] == "~") and reader.escapes("", word):
            return word
    return None


def _escape_finding(reader: StoreReader, target: str, line: int) -> None:
    reader.findings.add(
        "path-escape",
        INDEX,
        line,
        msg("pointer to {file} leads outside the store root; it is not followed", file=target),
    )


def _check_pointers(reader: StoreReader, pointers: list[Pointer]) -> None:
    seen: dict[str, int] = {}
    for p in pointers:
        if reader.escapes("", p.target):
            _escape_finding(reader, p.target, p.line)
            continue
        if p.target in seen:
            reader.findings.add(
                "pointer-duplicate",
                INDEX,
                p.line,
                msg(
                    "{file} is already pointed to on line {first}",
                    file=p.target,
                    first=seen[p.target],
                ),
            )
        else:
            seen[p.target] = p.line
        if not reader.exists(p.target):
            reader.findings.add(
                "pointer-missing",
                INDEX,
                p.line,
                msg("pointer names {file}, which does not exist", file=p.target),
            )


def _check_topics(reader: StoreReader, topics: list[str], pointers: list[Pointer]) -> None:
    pointed = {p.target for p in pointers}
    for name in topics:
        if not TOPIC_NAME.fullmatch(name):
            reader.findings.add(
                "topic-name",
                name,
                None,
                msg(
                    "{file}: topic files are named memory_<name>.md with lower-case ASCII, "
                    "digits and underscores",
                    file=name,
                ),
            )
        if name not in pointed and INDEX not in reader.unreadable:  # unknown is not empty
            reader.findings.add(
                "topic-orphan",
                name,
                None,
                msg(
                    "{file} has no pointer in memory.md, so the agent will not know it exists",
                    file=name,
                ),
            )


def _check_user_duplicates(reader: StoreReader, user: list[Section]) -> None:
    """SPEC §1: user.md has no duplicate fields: a `## ` field twice, or an item twice."""
    fields: dict[str, int] = {}
    for section in user:
        name = " ".join(section.name.split()).casefold()
        if name in fields:
            reader.findings.add(
                "user-duplicate",
                "user.md",
                section.span.lineno,
                msg(
                    "the field {field!r} is already on line {first}: update it there, "
                    "don't repeat it",
                    field=section.name.strip(),
                    first=fields[name],
                ),
            )
        else:
            fields[name] = section.span.lineno
    seen: dict[str, int] = {}
    for section in user:
        for item, line in zip(section.items, section.item_lines, strict=True):
            key = " ".join(item.split()).casefold()
            if key in seen:
                reader.findings.add(
                    "user-duplicate",
                    "user.md",
                    line,
                    msg(
                        "the same item is already on line {first}: update it, don't repeat it",
                        first=seen[key],
                    ),
                )
            else:
                seen[key] = line
