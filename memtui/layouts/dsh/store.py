"""What the dsh operations share: the transaction they run in, reading the store
under the lock, candidates, and the bookkeeping files (memory-meta.json,
memory_stats.json, index.txt).

Everything here reads through the transaction (`tx.read`), so each file an
operation changes is checked at commit against the version it planned from.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from memtui.engine import frontmatter
from memtui.engine.identity import checked, fingerprint_bytes
from memtui.engine.ops.common import Refused
from memtui.engine.paths import Scan, list_files
from memtui.engine.textfile import Unreadable, decode
from memtui.engine.write.files import sha256
from memtui.engine.write.transaction import Conflict, Transaction, WriteError, check_path
from memtui.i18n import msg
from memtui.layouts.dsh.parse import ENTRY_TYPES, sop_name_problem

PENDING, SOPS = "pending", "sops"
ARCHIVE_PENDING, ARCHIVE_REJECTED = "archive/pending", "archive/rejected"
ARCHIVE_SOPS, ARCHIVE_FACTS = "archive/sops", "archive/facts"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# An id with no file in pending/: a typo, another store, or settled meanwhile.
NOT_PENDING = msg("is not a pending item of this store (see `memtui pending`)")


LOCK_WAIT: float | None = None  # seconds to wait for the store lock; None: the lock's 10 s


def begin(root: str | os.PathLike[str], op: str, dry_run: bool) -> Transaction:
    return Transaction(os.fspath(root), op, details={}, dry_run=dry_run, lock_wait=LOCK_WAIT)


def refuse_path(rel: str, root: str) -> str:
    """check_path's verdict as a refusal."""
    try:
        return check_path(root, rel)
    except WriteError as exc:
        raise Refused(str(exc)) from None


# --- listing ---------------------------------------------------------------------


def md_files(root: str, folder: str) -> list[str]:
    """The `.md` files directly in `folder` (relative paths, sorted), as the reader sees
    them: temp files and links that leave the root are not listed."""
    scan = Scan()
    if os.path.isdir(os.path.join(root, folder)):
        list_files(root, folder, False, scan)
    return [rel for rel in scan.files if rel.endswith(".md")]


def count_files(root: str, *folders: str) -> int:
    return sum(len(md_files(root, folder)) for folder in folders)


def stem(rel: str) -> str:
    return rel.rsplit("/", 1)[-1][: -len(".md")]


def free_name(root: str, folder: str, name: str, taken: set[str]) -> str:
    """`folder/name.md`, or `folder/name.<n>.md` when that exists or is planned already."""
    rel = f"{folder}/{name}.md"
    n = 1
    while rel in taken or os.path.lexists(os.path.join(root, rel)):
        rel = f"{folder}/{name}.{n}.md"
        n += 1
    taken.add(rel)
    return rel


# --- names -----------------------------------------------------------------------


def section_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return "no target"
    if _CONTROL.search(name.strip()):
        return msg(
            "target {name!r} is not a usable facts.md section name (control characters)", name=name
        )
    if name.strip().startswith(".") or "·" in name:  # `·` separates names in index.txt
        return msg(
            "target {name!r} is not a usable facts.md section name (· or a leading .)", name=name
        )
    return None


def archived_section(name: str) -> str:
    """archive/facts/<SECTION>.md, with / \\ and % escaped so a name stays one file name."""
    safe = name.replace("%", "%25").replace("/", "%2F").replace("\\", "%5C")
    return f"{ARCHIVE_FACTS}/{safe}.md"


def check_entry(entry_id: str) -> tuple[str, str]:
    """("fact", SECTION) or ("sop", name) from an entry id; Refused otherwise."""
    kind, _, name = entry_id.partition(":")
    if kind not in ENTRY_TYPES or not name:
        raise Refused(
            msg(
                "{entry_id!r}: only fact:<SECTION> and sop:<name> entries apply here",
                entry_id=entry_id,
            )
        )
    problem = sop_name_problem(name) if kind == "sop" else section_problem(name)
    if problem:
        raise Refused(
            msg("{entry_id}: {replace}", entry_id=entry_id, replace=problem.replace("target ", ""))
        )
    return kind, name.strip()


# --- candidates ------------------------------------------------------------------


@dataclass
class Candidate:
    """A pending candidate as read under the lock, with any edits applied."""

    id: str  # the file's stem
    rel: str  # pending/<id>.md
    raw: bytes | None
    text: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    entry_type: str | None = None
    target: str | None = None
    evidence: str | None = None
    problem: str | None = None  # why it cannot be accepted
    edited: list[str] = field(default_factory=list)
    existing: bytes | None = None  # a sop candidate: the sop file it supersedes, if any

    @property
    def digest(self) -> str | None:
        return None if self.raw is None else sha256(self.raw)

    def provenance(self) -> dict[str, Any]:
        seqs = self.meta.get("source_seqs")
        session = self.meta.get("source_session")
        return {
            "evidence": self.evidence,
            "sourceSession": None if session is None else str(session),
            "sourceSeqs": seqs if isinstance(seqs, list) else [],
            "createdAt": _text(self.meta.get("created_at")),
            "acceptedFrom": self.rel,
        }


def _text(value: Any) -> str | None:
    return None if value is None or isinstance(value, dict | list) else str(value)


def read_candidate(tx: Transaction, rel: str) -> Candidate:
    """Read and parse a candidate (problem set when its front matter is unusable)."""
    try:
        raw = tx.read(rel)
    except WriteError as exc:  # a link, or a path that leaves the root
        return Candidate(stem(rel), rel, None, problem=str(exc))
    cand = Candidate(stem(rel), rel, raw)
    if raw is None:
        cand.problem = NOT_PENDING
        return cand
    got = decode(rel, raw)
    if isinstance(got, Unreadable):
        cand.problem = f"is {got.reason}"
        return cand
    cand.text = got.text
    cand.meta, cand.body, cand.problem = parse_front(got.text)
    return cand


def validate(cand: Candidate, edits: dict[str, Any]) -> Candidate:
    """Apply edit-then-accept changes and decide whether the candidate can be accepted."""
    if cand.problem:
        return cand
    cand.entry_type = edits.get("entry_type") or _text(cand.meta.get("entry_type"))
    cand.target = edits.get("target") or _text(cand.meta.get("target"))
    cand.body = edits["body"] if edits.get("body") is not None else cand.body
    cand.edited = sorted(k for k, v in edits.items() if v is not None)
    cand.evidence = _text(cand.meta.get("evidence"))
    cand.problem = target_problem(cand.entry_type, cand.target)
    if cand.entry_type == "fact" and cand.target:
        cand.target = cand.target.strip()
    if cand.problem is None and not (cand.evidence and cand.evidence.strip()):
        cand.problem = msg("has no evidence (No Execution, No Memory); it cannot be accepted")
    return cand


def target_problem(entry_type: str | None, target: str | None) -> str | None:
    """Why a candidate's entry_type and target cannot be accepted, or None."""
    if entry_type not in ENTRY_TYPES:
        return msg("has entry_type {entry_type!r}, not fact or sop", entry_type=entry_type)
    return sop_name_problem(target) if entry_type == "sop" else section_problem(target)


def candidate_problem(text: str) -> str | None:
    """Why `text` is not a candidate (its front matter, entry_type and target), or None."""
    meta, _body, problem = parse_front(text)
    return problem or target_problem(_text(meta.get("entry_type")), _text(meta.get("target")))


def parse_front(text: str) -> tuple[dict[str, Any], str, str | None]:
    """(front matter keys, body, why the front matter is unusable or None)."""
    try:
        split = frontmatter.split(text)
    except frontmatter.FrontMatterError as exc:
        return {}, text, msg("has broken front matter: {exc}", exc=exc)
    if split.yaml_text is None:
        return {}, split.body, "has no front matter (`---` … `---`)"
    try:
        return frontmatter.load(split.yaml_text), split.body, None
    except frontmatter.FrontMatterError as exc:
        return {}, split.body, msg("has broken front matter: {exc}", exc=exc)


def normalise_id(ref: str) -> str:
    """A candidate id from `pending:<id>`, `<id>` or `pending/<id>.md`; Refused if it
    cannot name a file in pending/."""
    raw = str(ref).strip()
    if raw.startswith("pending:"):
        raw = raw[len("pending:") :]
    if raw.startswith(PENDING + "/") and raw.endswith(".md"):
        raw = raw[len(PENDING) + 1 : -3]
    if not raw or raw in (".", "..") or "/" in raw or "\\" in raw or _CONTROL.search(raw):
        raise Refused(msg("{ref!r} is not a candidate id", ref=ref))
    return raw


def resolve_ids(root: str, refs: list[str]) -> list[str]:
    """pending/<id>.md for each id (a front-matter `id:` that differs from the file name
    is found too); ids given twice count once. A missing one is kept: it is refused later."""
    out: dict[str, None] = {}  # in order, each once (a list's `in` made 10,000 ids 2 s)
    by_id: dict[str, str] | None = None
    for ref in refs:
        cid = normalise_id(ref)
        rel = f"{PENDING}/{cid}.md"
        if not os.path.lexists(os.path.join(root, rel)):
            if by_id is None:
                by_id = _front_matter_ids(root)
            rel = by_id.get(cid, rel)
        out[rel] = None
    return list(out)


def _front_matter_ids(root: str) -> dict[str, str]:
    found: dict[str, str] = {}
    pattern = re.compile(rb"\Aid:[ \t]*['\"]?([^'\"\r\n]+?)['\"]?[ \t]*\r?$", re.M)
    for rel in md_files(root, PENDING):
        try:
            with open(os.path.join(root, rel), "rb") as fh:
                head = fh.read(4096)
        except OSError:
            continue
        for line in head.split(b"\n")[1:40]:
            match = pattern.match(line)
            if match:
                found.setdefault(match.group(1).decode("utf-8", "replace"), rel)
                break
    return found


def normalise_expected(expected: Any) -> dict[str, str]:
    """{pending/<id>.md: sha256 or fingerprint} from keys given as paths, `pending:<id>`
    or bare ids; the values are the file's sha256 (as the app sends it) or the
    candidate's fingerprint (identity: `--expect`, as `memtui list --json` prints it)."""
    out: dict[str, str] = {}
    for key, digest in dict(expected or {}).items():
        rel = key if "/" in key else f"{PENDING}/{normalise_id(key)}.md"
        want = str(digest).strip().lower()
        out[os.path.normpath(rel)] = want if len(want) == 64 else str(checked(want))
    return out


def check_expected(rel: str, raw: bytes | None, expected: dict[str, str]) -> None:
    """Conflict when the candidate is not the version the user saw."""
    want = expected.get(rel)
    if want is None:
        return
    digest = sha256 if len(want) == 64 else fingerprint_bytes
    now = None if raw is None else digest(raw)
    if now != want:
        raise Conflict(
            msg(
                "{rel} was removed since you saw it (by the agent?); nothing was changed — "
                "reload and try again",
                rel=rel,
            )
            if raw is None
            else msg(
                "{rel} changed since you saw it (by the agent?); nothing was changed — reload "
                "and try again",
                rel=rel,
            )
        )
