"""The dsh layout (SPEC §3): index.txt, facts.md, sops/, pending/, archive/, JSON files."""

from __future__ import annotations

import collections
import json
import os
import posixpath
import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from memtui.engine import frontmatter
from memtui.engine.findings import unparsed
from memtui.engine.markdown import fences, sections
from memtui.engine.model import item_text
from memtui.engine.reader import StoreReader
from memtui.engine.records import maker
from memtui.engine.textfile import TextFile, iter_lines, line_count, split_lines
from memtui.engine.words import clauses
from memtui.i18n import Msg, msg
from memtui.layouts.dsh.candidate import Candidate
from memtui.layouts.dsh.detect import DSH_INDEX as INDEX
from memtui.layouts.dsh.detect import FACTS
from memtui.layouts.dsh.model import Dsh, FactSection, Sop

META = "memory-meta.json"
STATS = "memory_stats.json"
REPORT = "maintenance-report.json"
HEAT = "file_access_stats.json"
BOOKS = (META, STATS, REPORT, HEAT)  # the JSON files beside the memory
AUTO_BEGIN = "# --- auto ---"
AUTO_END = "# --- end auto ---"
SEP = " · "
ENTRY_TYPES = ("fact", "sop")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NOT_BARE = re.compile(r"[/\\\x00-\x1f\x7f]")  # what keeps a name from being one file in sops/
OUTSIDE = "leads outside the store root"


def under(files: Iterable[str], *folders: str, suffix: str = ".md") -> list[list[str]]:
    """The files directly in each of `folders` with `suffix`, sorted (one pass over
    `files`: 17,000 on a large store)."""
    found: dict[str, list[str]] = {folder: [] for folder in folders}
    for f in files:
        folder, _, name = f.partition("/")
        inside = found.get(folder)
        if inside is not None and name.endswith(suffix) and "/" not in name:
            inside.append(f)
    return [sorted(inside) for inside in found.values()]


def expected_auto(fact_sections: Iterable[str], sops: Iterable[str]) -> list[str]:
    """The automatic segment's lines for what exists in L2 and L3."""
    lines = []
    facts = list(fact_sections)
    names = sorted(sops)
    if facts:
        lines.append("[FACTS] " + SEP.join(facts))
    if names:
        lines.append("[SOPS] " + SEP.join(names))
    return lines


def parse(reader: StoreReader) -> Dsh:
    index_lines, rules, auto = _index(reader)
    fact_sections = _facts(reader)
    sop_paths, pending = under(reader.files, "sops", "pending")
    texts = reader.read_first(sop_paths)
    sops = [_sop(reader, path, tf) for path, tf in zip(sop_paths, texts, strict=True)]
    _check_auto(reader, auto, [s.name for s in fact_sections], [s.name for s in sops])
    texts = reader.read_first(pending)
    candidates = [_candidate(reader, path, tf) for path, tf in zip(pending, texts, strict=True)]
    meta = _json(reader, META, _meta_shape)
    stats = _json(reader, STATS, _object_shape)
    _json(reader, REPORT, _object_shape)
    heat = _heat(reader, _json(reader, HEAT, _heat_shape))
    entries = meta.get("entries", {}) if meta else {}
    return Dsh(
        index_lines=index_lines,
        rules=tuple(rules),
        auto_segment=None if auto is None else tuple(auto),
        fact_sections=tuple(fact_sections),
        sops=tuple(sops),
        candidates=tuple(candidates),
        archived=tuple(sorted(f for f in reader.files if f.startswith("archive/"))),
        provenance=MappingProxyType(entries),
        stats=MappingProxyType(stats or {}),
        heat=MappingProxyType(heat),
    )


def _index(reader: StoreReader) -> tuple[int, list[str], list[str] | None]:
    tf = reader.read(INDEX)
    if tf is None:
        return 0, [], None
    t = reader.thresholds
    count = line_count(tf.text)
    if count > t.l1_max_lines:
        reader.findings.add(
            "l1-size",
            INDEX,
            None,
            msg(
                "index.txt has {n:,} lines, over the {cap:,}-line cap",
                n=count,
                cap=t.l1_max_lines,
            ),
            level="error",
        )
    elif count >= t.l1_warn_lines:
        reader.findings.add(
            "l1-size",
            INDEX,
            None,
            msg(
                "index.txt has {n:,} lines (cap {cap:,}): run maintenance soon",
                n=count,
                cap=t.l1_max_lines,
            ),
        )
    rules: list[str] = []
    auto: list[str] | None = None
    inside = False
    for _index, _offset, line in iter_lines(tf.text):
        stripped = line.strip()
        if stripped == AUTO_BEGIN:
            inside, auto = True, []
        elif stripped == AUTO_END:
            inside = False
        elif inside and auto is not None:
            if stripped:
                auto.append(stripped)
        elif stripped.startswith("[RULES]"):
            rules.append(stripped)
    return count, rules, auto


def _check_auto(
    reader: StoreReader, auto: list[str] | None, facts: list[str], sops: list[str]
) -> None:
    if not reader.exists(INDEX) or INDEX in reader.unreadable:
        return
    if auto is None:
        reader.findings.add(
            "index-stale",
            INDEX,
            None,
            msg(
                "index.txt has no `{begin}` … `{end}` segment (run `memtui index`)",
                begin=AUTO_BEGIN,
                end=AUTO_END,
            ),
        )
        return
    listed: dict[str, set[str]] = {"[FACTS]": set(), "[SOPS]": set()}
    for line in auto:
        for tag, names in listed.items():
            if line.startswith(tag):
                names.update(n.strip() for n in line[len(tag) :].split("·") if n.strip())
    problems = []
    for tag, exists in (("[FACTS]", set(facts)), ("[SOPS]", set(sops))):
        if tag == "[FACTS]" and FACTS in reader.unreadable:
            continue  # its sections are unknown, not none
        missing = sorted(exists - listed[tag])
        gone = sorted(listed[tag] - exists)
        if missing:
            problems.append(msg("{tag} lacks {names}", tag=tag, names=_few(missing)))
        if gone:
            said = msg("{tag} lists {names}, which no longer exist", tag=tag, names=_few(gone))
            problems.append(said)
    if problems:
        said = msg(
            "the automatic segment is stale: {problems} (run `memtui index`)",
            problems=clauses(problems),
        )
        reader.findings.add("index-stale", INDEX, None, said)


def _few(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    if len(names) <= limit:
        return shown
    return msg("{names} and {more:,} more", names=shown, more=len(names) - limit)


def _facts(reader: StoreReader) -> list[FactSection]:
    tf = reader.read(FACTS)  # None if absent or unreadable (a link out too)
    if tf is None:
        return []
    return reader.parsed("facts", tf, lambda: _parse_facts(reader, tf))


def _parse_facts(reader: StoreReader, tf: TextFile) -> list[FactSection]:
    code = reader.fences(tf)
    # The file's lines are split once, for the sections and the keys (a section's
    # `facts` would split its text again), and the usual fact is its own key: no blank
    # but single spaces inside (checked for all of them at C speed). Only the facts
    # whose key's hash repeats are compared.
    lines = split_lines(tf.text)
    found = [
        FactSection(s.name.strip(), s.span, s.item_lines, tf)
        for s in sections(tf, 2, False, fenced=code, lines=lines)
    ]
    numbers = [n for s in found for n in s.fact_lines]
    keys = [item_text(lines[n - 1]) for n in numbers]
    del lines
    if "  " in tf.text or not all(map(str.isprintable, keys)):
        keys = [fact_key(text) for text in keys]
    hashes = list(map(hash, keys))
    repeated = {h for h, count in collections.Counter(hashes).items() if count > 1}
    seen: dict[int, int] = {}  # hash -> the first fact with it
    for i in [i for i, h in enumerate(hashes) if h in repeated] if repeated else ():
        first = seen.setdefault(hashes[i], i)
        if first != i and keys[first] == keys[i]:
            reader.findings.add(
                "fact-duplicate",
                FACTS,
                numbers[i],
                msg("the same fact is already on line {first}", first=numbers[first]),
            )
    return found


def fact_key(text: str) -> str:
    """A fact's text with its runs of whitespace made one space, none at either end:
    two facts with one key are the same fact (`fact-duplicate`)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text  # already so (" " is the one blank that is printable): no split
    return " ".join(text.split())


def _sop(reader: StoreReader, path: str, tf: TextFile | None) -> Sop:
    name = path[len("sops/") : -len(".md")]
    if tf is None:
        return Sop(name, path, name)
    return reader.parsed("sop", tf, lambda: _parse_sop(reader, tf, name, path))


def _parse_sop(reader: StoreReader, tf: TextFile, name: str, path: str) -> Sop:
    meta: Mapping[str, Any] = {}
    body = tf.text
    try:
        split = frontmatter.split(tf.text)
        body = split.body
        if split.yaml_text is not None:
            meta = frontmatter.load(split.yaml_text)
    except frontmatter.FrontMatterError as exc:
        reader.findings.add("sop-bad-frontmatter", path, 1, str(exc))
    title = meta.get("title") if isinstance(meta.get("title"), str) else None
    if title is None and body.startswith("# "):
        # The usual sop: its first line is the heading (no fence can hide line one).
        title = body.partition("\n")[0][2:].strip()
    if title is None:
        head = body.split("\n", 40)[:40]
        code = fences("\n".join(head)).lines("\n".join(head))  # `# comment` in a bash block
        title = next(
            (ln[2:].strip() for i, ln in enumerate(head) if ln.startswith("# ") and i not in code),
            name,
        )
    return _new_sop(name, path, title, MappingProxyType(dict(meta)))


_new_sop = maker(Sop)  # 5,000 sops on a large store


def _candidate(reader: StoreReader, path: str, tf: TextFile | None) -> Candidate:
    if tf is None:
        return _parse_candidate(reader, None, path)
    return reader.parsed("candidate", tf, lambda: _parse_candidate(reader, tf, path))


def _parse_candidate(reader: StoreReader, tf: TextFile | None, path: str) -> Candidate:
    """A candidate from its file; depends on the text and on `reader.escaped` only."""
    stem = path[len("pending/") : -len(".md")]
    meta: dict[str, Any] = {}
    body_start = 0
    problem: str | None = None
    if tf is not None:
        try:
            split = frontmatter.split(tf.text)
            body_start = len(tf.text) - len(split.body)
            if split.yaml_text is None:
                problem = msg("no front matter (`---` … `---`)")
            else:
                meta = frontmatter.load(split.yaml_text)
        except frontmatter.FrontMatterError as exc:
            problem = str(exc)
    entry_type, target = _text(meta.get("entry_type")), _text(meta.get("target"))
    if tf is not None and problem is None:
        problem = _candidate_problem(entry_type, target)
        if problem:
            reader.findings.add("pending-bad-frontmatter", path, 1, _bad(stem, problem))
        elif entry_type == "sop" and (problem := sop_name_problem(target)):
            # accept refuses it too, so it is reported here, not only when accepted. The
            # name is checked first, from its text alone: a bare name's escape check
            # below depends only on the scan (what a reopen's reuse is keyed on).
            if problem.endswith(OUTSIDE):
                reader.findings.add("path-escape", path, None, problem)
            else:
                reader.findings.add("pending-bad-frontmatter", path, 1, _bad(stem, problem))
        elif entry_type == "sop" and reader.escapes("sops", f"{target}.md"):
            problem = msg("target {name!r} leads outside the store root", name=target)
            reader.findings.add("path-escape", path, None, problem)
    elif problem:
        reader.findings.add("pending-bad-frontmatter", path, 1, _bad(stem, problem))
    evidence = _text(meta.get("evidence"))
    valid = tf is not None and problem is None
    if valid and not (evidence and evidence.strip()):
        reader.findings.add(
            "pending-no-evidence",
            path,
            1,
            msg(
                "candidate {name} has no evidence and cannot be accepted (No Execution, No Memory)",
                name=stem,
            ),
        )
    seqs = meta.get("source_seqs")
    if tf is None:
        broken: str | None = f"unreadable: {reader.unreadable.get(path, 'cannot be read')}"
    elif problem is None or problem.endswith(OUTSIDE):
        broken = problem  # a target leaving the root says so itself
    else:
        broken = f"broken front matter: {problem}"
    return _new_candidate(
        _text(meta.get("id")) or stem,  # id
        path,  # file
        entry_type,
        target,
        evidence,
        _text(meta.get("source_session")),
        tuple(seqs) if isinstance(seqs, list) else (),  # source_seqs
        _text(meta.get("created_at")),
        MappingProxyType(meta),
        valid,
        body_start,
        tf,  # source
        broken,
    )


_new_candidate = maker(Candidate)  # 10,000 candidates on a large store


def sop_name_problem(name: Any) -> str | None:
    """Why `name` cannot name a sop (SPEC §3: one file, sops/<name>.md), or None."""
    return None if _plain_sop_name(name) else _sop_name_problem(name)


def _plain_sop_name(name: Any) -> bool:
    """The usual name, one plain file name: nothing `_sop_name_problem` checks objects
    to it (and it skips that function's path arithmetic, for 3,500 candidates)."""
    plain = type(name) is str and name and name[0] != "." and name == name.strip()
    return bool(plain) and not _NOT_BARE.search(name)


def _sop_name_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return msg("no target")
    joined = posixpath.normpath(posixpath.join("sops", name.replace("\\", "/")))
    if os.path.isabs(name) or joined == ".." or joined.startswith(("../", "/")):
        return msg("target {name!r} leads outside the store root", name=name)
    if "/" in name or "\\" in name:  # inside the root, but not one file in sops/
        return msg(
            "target {name!r} is not a bare sop name (a sop is one file, sops/<name>.md)",
            name=name,
        )
    if name != name.strip() or name.startswith(".") or _CONTROL.search(name):
        return msg("target {name!r} is not a usable sop name", name=name)
    return None


def _bad(stem: str, problem: str) -> Msg:
    return msg("candidate {name}: {problem}", name=stem, problem=problem)


def _candidate_problem(entry_type: str | None, target: str | None) -> str | None:
    if entry_type not in ENTRY_TYPES:
        return msg("entry_type is {type!r}, not fact or sop", type=entry_type)
    return None if target else msg("no target")


def _text(value: Any) -> str | None:
    if type(value) is str:  # the usual value: 60,000 calls on a large store
        return value
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value)


# --- JSON files ------------------------------------------------------------


def _json(reader: StoreReader, path: str, shape: Any) -> dict[str, Any] | None:
    tf = reader.read(path) if reader.exists(path) else None
    if tf is None:
        return None
    return reader.parsed("json", tf, lambda: _parse_json(reader, tf, shape))


def _parse_json(reader: StoreReader, tf: TextFile, shape: Any) -> dict[str, Any] | None:
    path = tf.path
    try:
        data = json.loads(tf.text)
    except (ValueError, RecursionError) as exc:  # ValueError: also ints of 4,300+ digits
        where = getattr(exc, "lineno", None)
        said = msg("{file} does not parse: {why}", file=path, why=unparsed(exc))
        reader.findings.add("json-invalid", path, where, said)
        return None
    problem = shape(data)
    if problem:
        said = msg("{file} has the wrong shape: {why}", file=path, why=problem)
        reader.findings.add("json-invalid", path, None, said)
        return None
    return data


def _object_shape(data: Any) -> str | None:
    return None if isinstance(data, dict) else "the top level is not an object"


def _meta_shape(data: Any) -> str | None:
    if not isinstance(data, dict):
        return msg("the top level is not an object")
    entries = data.get("entries", {})
    if not isinstance(entries, dict) or not all(isinstance(v, dict) for v in entries.values()):
        return msg('"entries" is not an object of objects')
    return None


def _heat_shape(data: Any) -> str | None:
    if not isinstance(data, dict):
        return msg("the top level is not an object")
    for key, value in data.items():
        if not isinstance(value, dict) or not isinstance(value.get("reads", 0), int):
            return msg('{key!r} is not {{"reads": N, "lastRead": …}}', key=key)
    return None


def _heat(reader: StoreReader, data: dict[str, Any] | None) -> dict[str, int]:
    heat: dict[str, int] = {}
    for path, value in (data or {}).items():
        if reader.escapes("", path):
            reader.findings.add(
                "path-escape",
                HEAT,
                None,
                msg("read stats name {path!r}, outside the store root", path=path),
            )
            continue
        heat[path] = int(value.get("reads", 0))
    return heat
