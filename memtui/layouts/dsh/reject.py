"""Rejecting dsh candidates: each moves to archive/rejected/ with the reason added
to its front matter (every other byte of the file kept); chunked like accept."""

from __future__ import annotations

import os
import time
from collections import deque
from typing import Any

from memtui.engine import frontmatter
from memtui.engine.identity import check_shown_bytes, split_expect
from memtui.engine.ops.common import Refused, now_iso
from memtui.engine.textfile import Unreadable, decode
from memtui.engine.words import clauses
from memtui.engine.write.files import read_or_none, sha256
from memtui.engine.write.transaction import Receipt, WriteError
from memtui.i18n import msg
from memtui.layouts.dsh.books import Counts, plan_stats, read_facts, sop_names
from memtui.layouts.dsh.chunks import Pace, chunked, precheck, stop, targets
from memtui.layouts.dsh.parse import FACTS
from memtui.layouts.dsh.store import (
    ARCHIVE_REJECTED,
    NOT_PENDING,
    PENDING,
    begin,
    check_expected,
    free_name,
    md_files,
    normalise_expected,
)
from memtui.layouts.dsh.text import add_front_matter, yaml_quoted


def reject(
    root: str | os.PathLike[str],
    ids: Any,
    reason: str,
    *,
    expected: Any = None,
    dry_run: bool = False,
    chunk_size: int | None = None,
    chunk_seconds: float = 0.8,
) -> list[Receipt]:
    """Move candidates to archive/rejected/ with `reject_reason` and `rejected_at` added
    to their front matter (the rest of each file byte-identical); one receipt per chunk."""
    root = os.path.realpath(os.fspath(root))
    if not isinstance(reason, str) or not reason.strip():
        raise Refused(msg("a reject needs a reason"))
    reason = reason.strip()
    rels = targets(root, ids, False)
    wanted = normalise_expected(expected)
    single = len(rels) == 1
    precheck(root, rels, wanted)
    carried: dict[str, Any] = {}  # facts.md as parsed, while it stays that text

    def run(queue: deque[str], pace: Pace, number: int) -> Receipt:
        tx = begin(root, "reject", dry_run)
        with tx:
            started = time.monotonic()
            taken, writes = 0, 0
            done: dict[str, str] = {}
            refused: list[dict[str, str]] = []
            names: set[str] = set()
            now = now_iso()
            while queue:
                if not dry_run and stop(
                    taken, started, pace, writes, chunk_size, chunk_seconds, len(queue)
                ):
                    break
                rel = queue.popleft()
                cid = rel[len(PENDING) + 1 : -len(".md")]
                taken += 1
                try:
                    raw = tx.read(rel)
                    new, problem = _rejected_bytes(raw, reason, now)
                except WriteError as exc:  # a link, or a path that leaves the root
                    raw, new, problem = None, None, str(exc)
                check_expected(rel, raw, wanted)
                if new is None:
                    if single:
                        raise Refused(msg("candidate {cid} {problem}", cid=cid, problem=problem))
                    refused.append({"id": cid, "reason": f"{problem}"})
                    continue
                dst = free_name(tx.root, ARCHIVE_REJECTED, cid, names)
                tx.write(dst, new, expect=None)
                tx.remove(rel)
                done[cid] = dst
                writes += 2
            finishing = time.monotonic()
            if done:
                tf, state, found = read_facts(tx, carried)
                if tf is not None:  # a reject leaves facts.md as it is
                    carried[FACTS] = (tf.text, found)
                listed = set(md_files(tx.root, PENDING))
                pending = len(listed - {f"{PENDING}/{i}.md" for i in done})
                sops = len(sop_names(tx.root))
                plan_stats(
                    tx,
                    Counts(state.count, len(state.names), sops, pending, rejected=len(done)),
                )
            tx.details.update(
                summary=msg(
                    "{said} (reason: {reason})",
                    said=clauses(
                        [msg("rejected {n} candidate(s)", n=len(done))]
                        + ([msg("refused {n}", n=len(refused))] if refused else [])
                    ),
                    reason=reason,
                ),
                rejected=list(done),
                reason=reason,
                chunk=number,
                moved_to=f"{ARCHIVE_REJECTED}/",
            )
            renamed = {i: p for i, p in done.items() if p != f"{ARCHIVE_REJECTED}/{i}.md"}
            if renamed:  # a candidate of that id was rejected before
                tx.details["archived_as"] = renamed
            if refused:
                tx.details["refused"] = refused
            books = time.monotonic() - finishing
            receipt = tx.commit()
            pace.learn(time.monotonic() - finishing, writes, books)
        return receipt

    return chunked(deque(rels), run, Pace.for_books(root, (FACTS,)))


def _rejected_bytes(raw: bytes | None, reason: str, now: str) -> tuple[bytes | None, str | None]:
    """The candidate's bytes with the reject keys in its front matter, or why not."""
    if raw is None:
        return None, NOT_PENDING
    got = decode("candidate", raw)
    if isinstance(got, Unreadable):
        return None, f"is {got.reason}; move it by hand"
    keys = [("reject_reason", yaml_quoted(reason)), ("rejected_at", now)]
    text = add_front_matter(got.text, keys)
    try:  # the keys must read back as written (a candidate whose YAML was fine stays fine)
        meta = frontmatter.load(frontmatter.split(text).yaml_text or "")
        ok = meta.get("reject_reason") == reason
    except frontmatter.FrontMatterError:
        ok = _broken(got.text)
    if not ok:
        return None, "has front matter the reason cannot be added to safely"
    return got.encode(text), None


def _broken(text: str) -> bool:
    """Whether the candidate's own front matter was already unusable (then the reason is
    added as text, and the file stays as broken as it was)."""
    try:
        split = frontmatter.split(text)
        if split.yaml_text is not None:
            frontmatter.load(split.yaml_text)
    except frontmatter.FrontMatterError:
        return True
    return False


def digest(root: str | os.PathLike[str], rel: str) -> str | None:
    """sha256 of a file now (what a UI passes back as `expected`)."""
    data = read_or_none(os.path.join(os.fspath(root), rel))
    return None if data is None else sha256(data)


REJECT_KEYS = ("reject_reason", "rejected_at")


def unreject(
    root: str | os.PathLike[str],
    name: str,
    *,
    expect: str | None = None,
    dry_run: bool = False,
) -> Receipt:
    """A rejected candidate (`archive/rejected/<name>.md`) back to pending/, without the
    keys the reject added: a mistaken reject undone through the transaction. `expect`
    (or `@FINGERPRINT` after the name): the rejected file's fingerprint as shown."""
    root = os.path.realpath(os.fspath(root))
    name, expect = split_expect(name, expect)
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise Refused(
            msg(
                "{name!r} is not a rejected candidate's name (archive/rejected/<name>.md)",
                name=name,
            )
        )
    src = f"{ARCHIVE_REJECTED}/{name}.md"
    tx = begin(root, "unreject", dry_run)
    with tx:
        raw = tx.read(src)
        check_shown_bytes(f"pending:{name}", raw, expect, src)
        if raw is None:
            raise Refused(
                msg("no rejected candidate {name} ({src} does not exist)", name=name, src=src)
            )
        got = decode(src, raw)
        if isinstance(got, Unreadable):
            raise Refused(msg("{src} is {reason}; move it by hand", src=src, reason=got.reason))
        text = _without_reject_keys(got.text)
        cid = _original_name(name, _candidate_id(text))
        dst = f"{PENDING}/{cid}.md"
        if read_or_none(os.path.join(tx.root, dst)) is not None:
            raise Refused(msg("{dst} exists: a candidate of that id is pending again", dst=dst))
        tx.write(dst, got.encode(text), expect=None)
        tx.remove(src)
        _, state, _ = read_facts(tx)
        pending = len(md_files(tx.root, PENDING)) + 1
        sops = len(sop_names(tx.root))
        plan_stats(tx, Counts(state.count, len(state.names), sops, pending, rejected=-1))
        said = msg("{name} is pending again", name=name)
        tx.details.update(summary=said, candidate=cid, moved_to=dst)
        return tx.commit()


def _without_reject_keys(text: str) -> str:
    """The front matter without the reject's lines; without the block at all when those
    were all it held (the reject made it for a candidate that had none)."""
    try:
        split = frontmatter.split(text)
    except frontmatter.FrontMatterError:
        split = None
    if split is None or split.yaml_text is None:
        return text
    start = text.find("\n") + 1
    close = start + len(split.yaml_text)
    added = tuple(f"{key}:" for key in REJECT_KEYS)
    lines = split.yaml_text.split("\n")[:-1]  # it ends with "\n": the last is ""
    kept = [line + "\n" for line in lines if not line.startswith(added)]
    if not kept:
        return split.body
    return text[:start] + "".join(kept) + text[close:]


def _original_name(name: str, cid: str | None) -> str:
    """The file name the candidate had in pending/: `name`, less the `.N` a reject
    adds when that name was taken in archive/rejected/ (its id says so)."""
    base, dot, n = name.rpartition(".")
    return base if dot and n.isdigit() and base == cid else name


def _candidate_id(text: str) -> str | None:
    try:
        split = frontmatter.split(text)
        meta = frontmatter.load(split.yaml_text) if split.yaml_text else {}
    except frontmatter.FrontMatterError:
        return None
    value = meta.get("id")
    ok = isinstance(value, str) and value and "/" not in value and not value.startswith(".")
    return value if ok else None
