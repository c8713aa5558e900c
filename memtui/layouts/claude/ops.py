"""Changes to a Claude Code memory folder (SPEC §3b), each one transaction.

Archiving moves `<file>.md` to `.archive/<file>.md.archived` (no `*.md` is left
where recall scans) and takes its MEMORY.md lines out; the lines and their
places are kept in `.archive/index-lines.jsonl`, so a restore puts the memory
and its lines back where they were, byte for byte.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable

from memtui.engine.compose import new_front_matter_text
from memtui.engine.identity import check_shown_bytes, split_expect
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import check_root, encode, eol_of_text, load, one_line
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Receipt, Transaction, WriteError
from memtui.i18n import msg
from memtui.layouts.claude.rules import (
    ARCHIVE,
    ARCHIVE_LINES,
    ARCHIVED,
    INDEX,
    LINK,
    TYPES,
    cut,
    target_of,
)

LINES = f"{ARCHIVE}/{ARCHIVE_LINES}"  # one record per archived MEMORY.md line
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def memory_rel(name: str) -> str:
    """A memory's path from its id (`claude:feedback_testing.md`), refused if it is not
    a `.md` path inside the folder or is the index."""
    rel = os.path.normpath(name.replace("\\", "/")) if name else ""
    parts = rel.split("/")
    if not rel.endswith(".md") or rel.startswith(("/", "..")) or "\x00" in rel:
        raise Refused(
            msg("claude:{name} is not a memory file (a .md path inside the folder)", name=name)
        )
    if parts[-1] == INDEX or parts[0] in (ARCHIVE, ".history"):
        raise Refused(
            msg("claude:{name} is not a memory (MEMORY.md is edited as file:MEMORY.md)", name=name)
        )
    return rel


def _lines_to(text: str, rel: str) -> list[tuple[int, str]]:
    """(0-based line, line with its ending) of each MEMORY.md line linking to rel."""
    out = []
    for i, line in enumerate(_rows(text)):
        match = LINK.search(line)
        if match and target_of(match.group(2)) == rel:
            out.append((i, line))
    return out


def _rows(text: str) -> list[str]:
    """Lines with their endings, split at "\\n" only (U+2028 and the like are content)."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def _read(tx: Transaction, rel: str) -> bytes | None:
    try:
        return tx.read(rel)
    except WriteError as exc:
        raise Refused(str(exc)) from None


def archive_memory(
    root: str, name: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """The memory moves to .archive/<file>.archived and its index lines leave MEMORY.md."""
    name, expect = split_expect(name, expect)
    rel = memory_rel(name)
    dst = f"{ARCHIVE}/{rel}{ARCHIVED}"
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "archive-memory", details={"memory": rel}, dry_run=dry_run) as tx:
        raw = _read(tx, rel)
        check_shown_bytes(f"claude:{rel}", raw, expect, rel)
        if raw is None:
            raise Refused(msg("no memory {rel} in this folder", rel=rel))
        if os.path.lexists(os.path.join(tx.root, dst)):
            raise Refused(msg("{dst} already exists (archived before?); not overwritten", dst=dst))
        index = load(tx, INDEX, limits, must_exist=False)
        hits = _lines_to(index.text, rel) if index else []
        tx.move(rel, dst)
        tx.details.update({"file": rel, "to": dst, "index_lines": len(hits)})
        if index is not None and hits:
            drop = {i for i, _ in hits}
            kept = [ln for i, ln in enumerate(_rows(index.text)) if i not in drop]
            tx.write(INDEX, index.encode("".join(kept)))
            book = load(tx, LINES, limits, must_exist=False)
            records = "".join(
                json.dumps({"file": rel, "line": i + 1, "text": ln}, ensure_ascii=False) + "\n"
                for i, ln in hits
            )
            tx.write(LINES, encode(book, (book.text if book else "") + records))
        return tx.commit()


def restore_memory(
    root: str, name: str, *, expect: str | None = None, dry_run: bool = False
) -> Receipt:
    """The archived memory comes back, and its index lines go back to their places."""
    name, expect = split_expect(name, expect)
    rel = memory_rel(name)
    src = f"{ARCHIVE}/{rel}{ARCHIVED}"
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "restore-memory", details={"memory": rel}, dry_run=dry_run) as tx:
        raw = _read(tx, src)
        check_shown_bytes(f"claude:{rel}", raw, expect, src)
        if raw is None:
            raise Refused(msg("no archived memory {rel} ({src} does not exist)", rel=rel, src=src))
        if os.path.lexists(os.path.join(tx.root, rel)):
            raise Refused(
                msg("{rel} exists again; the archived copy stays in {src}", rel=rel, src=src)
            )
        book = load(tx, LINES, limits, must_exist=False)
        mine, rest = _split_book(book.text if book else "", rel)
        tx.move(src, rel)
        tx.details.update({"file": rel, "from": src, "index_lines": len(mine)})
        if mine:
            index = load(tx, INDEX, limits, must_exist=False)
            old = index.text if index else ""
            new = _put_back(old, mine) if not _lines_to(old, rel) else old
            if new != old:
                tx.write(INDEX, encode(index, new))
            assert book is not None
            if rest:
                tx.write(LINES, book.encode(rest))
            else:  # the last archived line is back: no bookkeeping file is left behind
                tx.remove(LINES)
        return tx.commit()


def _split_book(text: str, rel: str) -> tuple[list[tuple[int, str]], str]:
    """This memory's archived lines (line, text), and the records of the others."""
    mine, rest = [], []
    for raw in _rows(text):
        try:
            record = json.loads(raw)
            ours = record.get("file") == rel
        except (ValueError, AttributeError):
            ours = False
        if ours:
            mine.append((int(record.get("line") or 0), str(record.get("text") or "")))
        else:
            rest.append(raw)
    return sorted(mine), "".join(rest)


def _put_back(text: str, lines: list[tuple[int, str]]) -> str:
    """Each line at its old place (1-based; past the end: appended), in order, ended as
    the file's lines are now (it may have gone CRLF or LF since the archive)."""
    rows = _rows(text)
    eol = eol_of_text(text)
    for line, content in lines:
        at = min(max(line - 1, 0), len(rows))
        if at == len(rows) and rows and not rows[-1].endswith("\n"):
            rows[-1] += eol  # the old last line had no ending: it is no longer last
        if "\n" in text:
            content = re.sub(r"\r?\n\Z", eol, content)
        rows.insert(at, content)
    return "".join(rows)


def add_memory(
    root: str,
    file: str,
    type: str,  # the front matter's field name
    description: str,
    body: str,
    *,
    title: str | None = None,
    hook: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """Write <file> with name/description/type front matter, and its index line
    `- [title](file) — hook` at the end of MEMORY.md. Both, or neither."""
    file = file if file.endswith(".md") else f"{file}.md"
    if not NAME.fullmatch(file) or file == INDEX:
        raise Refused(
            msg("memory file {file!r}: use letters, digits, . _ - (e.g. feedback_x.md)", file=file)
        )
    if type not in TYPES:
        raise Refused(
            msg("memory type {type!r}: use one of {join}", type=type, join=", ".join(TYPES))
        )
    desc = one_line(description, msg("the description"))
    name = one_line(title, msg("the title"), required=False) or file[: -len(".md")]
    line_hook = one_line(hook, msg("the hook"), required=False) or desc
    if not isinstance(body, str) or not body.strip():
        raise Refused(msg("the memory's body is empty"))
    check_root(root)
    limits = thresholds(root)
    with Transaction(root, "add-memory", details={"file": file}, dry_run=dry_run) as tx:
        if _read(tx, file) is not None:
            raise Refused(msg("{file} already exists; edit it (claude:{file}) instead", file=file))
        index = load(tx, INDEX, limits, must_exist=False)
        old = index.text if index else ""
        eol = eol_of_text(old)
        meta = {"name": name, "description": desc or "", "type": type}
        text = new_front_matter_text(meta, body, eol)
        tx.write(file, text.encode("utf-8"), mode=tx.LIKE_SIBLINGS)
        if old and not old.endswith("\n"):
            old += eol
        new = old + f"- [{name}]({file}) — {line_hook}{eol}"
        tx.write(INDEX, encode(index, new))
        loaded = cut(new)
        if loaded.first_unloaded_line is not None:
            tx.details["warning"] = msg(
                "MEMORY.md is past Claude's cut: the agent loads up to line "
                "{value}, so the new line is not loaded",
                value=loaded.first_unloaded_line - 1,
            )
        return tx.commit()


CLAUDE_KINDS = ("claude", "claude-index")


def claude_target(
    root: str, kind: str, name: str
) -> tuple[str, Callable[[TextFile], tuple[int, int]], int]:
    """For ops.edit: (file, how to find the entry in its current text, heading level)."""
    if kind == "claude":
        rel = memory_rel(name)
        if not os.path.isfile(os.path.join(root, rel)):
            raise Refused(msg("no memory claude:{rel} ({rel} does not exist)", rel=rel))
        return rel, lambda tf: (0, len(tf.text)), 0
    target = memory_rel(name)

    def line(tf: TextFile) -> tuple[int, int]:
        start = 0
        for row in _rows(tf.text):
            match = LINK.search(row)
            if match and target_of(match.group(2)) == target:
                return start, start + len(row)
            start += len(row)
        raise Refused(msg("no MEMORY.md line points to {target}", target=target))

    return INDEX, line, 0
