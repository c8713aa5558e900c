"""The dsh layout (seed 004): index.txt, facts.md, sops/, pending/, archive/ and the JSON files.

Planted findings, at every size: index-stale (one sop missing from the auto segment),
fact-duplicate, pending-no-evidence; and at size 1 index.txt sits at 25-30 lines (l1-size).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memtui.demo.common import (
    Sink,
    day,
    iso,
    random_time,
    session_id,
    shuffled,
    source_seqs,
    unique_names,
)
from memtui.layouts.dsh import demo_vocab as V

FACTS_PER_SIZE = 100
SOPS_PER_SIZE = 10
PENDING_PER_SIZE = 20
MIN_SECTIONS = 8
PENDING_DAYS = 14  # candidates wait up to two weeks before someone looks at them
AUTO_BEGIN, AUTO_END = "# --- auto ---", "# --- end auto ---"
MAX_FACT_TRIES = 40
ACCEPTED_KEPT = 3  # accepted candidates kept in archive/pending/


@dataclass
class Section:
    name: str
    base: str  # the entry of V.SECTION_BASES it derives from; picks the fact templates
    facts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Sop:
    name: str
    title: str
    tags: tuple[str, ...]
    obj: str


@dataclass(frozen=True)
class Candidate:
    id: str
    kind: str  # fact | sop
    target: str
    evidence: str | None
    session: str
    seqs: tuple[int, ...]
    created: dt.datetime
    body: str


def build_dsh(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    facts = _FactSource(rng)
    sections = _sections(rng, facts, FACTS_PER_SIZE * size, max(MIN_SECTIONS, size))
    sop_count = SOPS_PER_SIZE * size
    # The names after the first sop_count are not written: new-sop candidates target them.
    all_sops = _sops(rng, sop_count + 3 * size)
    sops, unwritten_sops = all_sops[:sop_count], all_sops[sop_count:]

    sink.write("memory_management_sop.md", V.META_SOP_MD)
    sink.write_lines("facts.md", _facts_lines(sections))
    for sop in sops:
        sink.write(f"sops/{sop.name}.md", _sop_md(rng, sop))
    sink.write_lines("index.txt", _index_lines(sections, sops))

    pending = _pending(rng, PENDING_PER_SIZE * size, today, facts, sections, sops, unwritten_sops)
    for candidate in pending:
        sink.write(f"pending/{candidate.id}.md", _candidate_md(candidate))
    archived = _write_archive(sink, rng, today)

    fact_count = sum(len(section.facts) for section in sections)
    sink.write_json("memory-meta.json", _meta(rng, today, sections, sops))
    stats = {
        "facts": fact_count,
        "factSections": len(sections),
        "sops": len(sops),
        "pending": len(pending),
        "accepted": len(sections) + len(sops),
        **archived,
        "rollbacks": 1,
        "lastMaintenance": iso(random_time(rng, day(today, 3))),
    }
    sink.write_json("memory_stats.json", stats)
    sink.write_json("maintenance-report.json", _maintenance_report(rng, today, sections))
    sink.write_json("file_access_stats.json", _access_stats(rng, today, sops))
    return {
        "facts": fact_count,
        "fact_sections": len(sections),
        "sops": len(sops),
        "pending": len(pending),
    }


# --- slots and facts ----------------------------------------------------------------------------


def _slots(rng: random.Random, obj: str = "") -> dict[str, Any]:
    """Values for the `{slot}`s of the text templates in vocab_dsh."""
    return {
        "host": rng.choice(V.HOSTS),
        "proj": rng.choice(V.PROJECTS),
        "py": f"3.{rng.randint(10, 13)}.{rng.randint(0, 12)}",
        "ver": f"{rng.randint(1, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 30)}",
        "port": rng.randint(1024, 65000),
        "n": rng.randint(2, 12),
        "minor": rng.randint(0, 8),
        "ip": f"10.{rng.randint(0, 3)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
        "obj": obj,
    }


def _fill(rng: random.Random, templates: Sequence[str], count: int, obj: str = "") -> list[str]:
    """`count` different templates, filled in, kept in pool order (sop steps are in order)."""
    picked = sorted(rng.sample(range(len(templates)), count))
    return [templates[i].format(**_slots(rng, obj)) for i in picked]


class _FactSource:
    """Draws facts that never repeat, so that the planted duplicate is the only one."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._seen: set[str] = set()

    def draw(self, base: str) -> str:
        templates = V.FACTS.get(base, V.GENERIC_FACTS)
        for _ in range(MAX_FACT_TRIES):
            fact = _fill(self._rng, templates, 1)[0]
            if fact not in self._seen:
                break
        else:  # the small template spaces of a big store are used up: number the fact
            fact = f"{fact}（#{len(self._seen)}）"
        self._seen.add(fact)
        return fact


def _sections(
    rng: random.Random, facts: _FactSource, fact_count: int, section_count: int
) -> list[Section]:
    def tagged(section: Section, round_no: int) -> Section:
        tags = V.SECTION_TAGS
        tag = tags[round_no - 1] if round_no <= len(tags) else f"R{round_no}"
        return Section(f"{section.base}_{tag}", section.base)

    sections = unique_names([Section(b, b) for b in V.SECTION_BASES], section_count, tagged)
    # Every section holds at least one fact; the rest pile up unevenly, as in real use.
    sizes = [1] * len(sections)
    weights = [rng.uniform(0.3, 3.0) for _ in sections]
    spread = fact_count - len(sections) - 1  # minus one: the planted duplicate
    for index in rng.choices(range(len(sections)), weights=weights, k=spread):
        sizes[index] += 1
    for section, count in zip(sections, sizes, strict=True):
        section.facts = [facts.draw(section.base) for _ in range(count)]
    # fact-duplicate: the first fact again, at the end of its section.
    sections[0].facts.append(sections[0].facts[0])
    return sections


def _facts_lines(sections: list[Section]) -> list[str]:
    lines = ["# Facts"]
    for section in sections:
        lines += ["", f"## {section.name}", *(f"- {fact}" for fact in section.facts)]
    return lines


# --- sops and the index -------------------------------------------------------------------------


def _sops(rng: random.Random, count: int) -> list[Sop]:
    bases = [
        Sop(f"{verb}-{obj}", f"{verb_zh} {obj_zh}", (verb, obj.split("-")[0]), obj)
        for verb, verb_zh in V.SOP_VERBS
        for obj, obj_zh in V.SOP_OBJECTS
    ]

    def per_env(sop: Sop, round_no: int) -> Sop:
        lap, env = divmod(round_no - 1, len(V.SOP_ENVS))
        suffix = V.SOP_ENVS[env] if lap == 0 else f"{V.SOP_ENVS[env]}-{lap + 1}"
        return Sop(f"{sop.name}-{suffix}", f"{sop.title}（{suffix}）", (*sop.tags, suffix), sop.obj)

    return unique_names(shuffled(rng, bases), count, per_env)


def _sop_md(rng: random.Random, sop: Sop) -> str:
    lines = []
    if rng.random() < 0.5:  # about half the sops carry front matter
        lines += ["---", f"title: {sop.title}", f"tags: [{', '.join(sop.tags)}]", "---"]
    steps = _fill(rng, V.SOP_STEPS, rng.randint(4, 9), sop.obj)
    lines += [
        f"# {sop.title}",
        "",
        *_fill(rng, V.SOP_CONTEXT, 1),
        "",
        "## 前置条件",
        *_bullets(_fill(rng, V.SOP_PREREQS, rng.randint(1, 3))),
        "",
        "## 步骤",
        *(f"{number}. {step}" for number, step in enumerate(steps, start=1)),
        "",
        "## 坑点",
        *_bullets(_fill(rng, V.SOP_PITFALLS, rng.randint(1, 3))),
        "",
        "## 验证",
        *_bullets(_fill(rng, V.SOP_CHECKS, rng.randint(1, 2), sop.obj)),
    ]
    return "\n".join(lines)


def _bullets(items: Sequence[str]) -> list[str]:
    return [f"- {item}" for item in items]


def _index_lines(sections: list[Section], sops: list[Sop]) -> list[str]:
    names = sorted(sop.name for sop in sops)
    del names[len(names) // 2]  # index-stale: the agent wrote this sop after the last rebuild
    lines = [V.INDEX_HEADER]
    for comment, rules in V.INDEX_RULES:
        lines += [comment, *(f"[RULES] {rule}" for rule in rules)]
    return [
        *lines,
        "",
        AUTO_BEGIN,
        "[FACTS] " + " · ".join(section.name for section in sections),
        "[SOPS] " + " · ".join(names),
        AUTO_END,
    ]


# --- pending candidates and the archive ---------------------------------------------------------


def _pending(
    rng: random.Random,
    count: int,
    today: dt.date,
    facts: _FactSource,
    sections: list[Section],
    sops: list[Sop],
    unwritten_sops: list[Sop],
) -> list[Candidate]:
    moments = sorted(
        random_time(rng, day(today, rng.randint(1, PENDING_DAYS))) for _ in range(count)
    )
    per_day: Counter[dt.date] = Counter()
    candidates = []
    for index, moment in enumerate(moments):
        per_day[moment.date()] += 1
        candidate_id = f"{moment:%Y%m%d}-{per_day[moment.date()]:04d}"
        evidence: str | None
        if index == count // 2:  # the one fact for a section facts.md does not have yet
            kind, target, body = "fact", V.NEW_SECTION, _fact_body(rng, facts, V.NEW_SECTION)
            evidence = _fact_evidence(rng, V.NEW_SECTION)
        elif rng.random() < 0.65:
            section = rng.choice(sections)
            kind, target, body = "fact", section.name, _fact_body(rng, facts, section.base)
            evidence = _fact_evidence(rng, section.base)
        else:  # a new sop, or an update that would supersede an existing one
            sop = rng.choice(unwritten_sops if rng.random() < 0.4 else sops)
            kind, target, body = "sop", sop.name, _sop_candidate_body(rng, sop)
            evidence = _sop_evidence(rng, sop.obj)
        if index == count // 3:  # pending-no-evidence
            evidence = None
        candidates.append(
            Candidate(
                candidate_id,
                kind,
                target,
                evidence,
                session_id(rng),
                tuple(source_seqs(rng)),
                moment,
                body,
            )
        )
    return candidates


def _fact_evidence(rng: random.Random, base: str) -> str:
    return _fill(rng, V.EVIDENCE.get(base, V.GENERIC_EVIDENCE), 1)[0]


def _sop_evidence(rng: random.Random, obj: str) -> str:
    return _fill(rng, V.SOP_CHECKS, 1, obj)[0].replace("`", "")


def _fact_body(rng: random.Random, facts: _FactSource, base: str) -> str:
    return "\n".join(f"- {facts.draw(base)}" for _ in range(rng.randint(1, 2)))


def _sop_candidate_body(rng: random.Random, sop: Sop) -> str:
    steps = _fill(rng, V.SOP_STEPS, rng.randint(3, 4), sop.obj)
    return "\n".join([f"# {sop.title}", "", *(f"{n}. {s}" for n, s in enumerate(steps, 1))])


def _candidate_md(candidate: Candidate, extra: Sequence[str] = ()) -> str:
    """The SPEC §3 front matter, in its key order, then the body."""
    lines = [
        "---",
        f"id: {candidate.id}",
        f"entry_type: {candidate.kind}",
        f"target: {candidate.target}",
    ]
    if candidate.evidence is not None:
        lines.append(f"evidence: {_quoted(candidate.evidence)}")
    seqs = ", ".join(str(seq) for seq in candidate.seqs)
    lines += [
        f"source_session: {candidate.session}",
        f"source_seqs: [{seqs}]",
        f"created_at: {iso(candidate.created)}",
        *extra,
        "---",
        candidate.body,
    ]
    return "\n".join(lines)


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (a JSON string is one), as the seed writes evidence."""
    return json.dumps(text, ensure_ascii=False)


def _write_archive(sink: Sink, rng: random.Random, today: dt.date) -> dict[str, int]:
    """Archived sops and a fact section, plus rejected and accepted candidates (seed principle 3:
    nothing is physically discarded)."""
    for name, title in V.ARCHIVED_SOPS:
        verb, obj = name.split("-", 1)
        sink.write(f"archive/sops/{name}.md", _sop_md(rng, Sop(name, title, (verb,), obj)))
    sink.write_lines(
        f"archive/facts/{V.ARCHIVED_SECTION}.md",
        [f"## {V.ARCHIVED_SECTION}", *_bullets(V.ARCHIVED_SECTION_FACTS)],
    )

    # Older than anything in pending/, so the ids cannot collide with it.
    ages = rng.sample(range(PENDING_DAYS + 2, 90), len(V.REJECT_REASONS) + ACCEPTED_KEPT)
    rejected_ages, accepted_ages = ages[: len(V.REJECT_REASONS)], ages[len(V.REJECT_REASONS) :]
    for age, reason in zip(rejected_ages, V.REJECT_REASONS, strict=True):
        candidate = _old_candidate(rng, day(today, age))
        rejected_at = iso(random_time(rng, day(today, age - 1)))
        extra = [f"reject_reason: {_quoted(reason)}", f"rejected_at: {rejected_at}"]
        sink.write(f"archive/rejected/{candidate.id}.md", _candidate_md(candidate, extra))
    for age in accepted_ages:
        candidate = _old_candidate(rng, day(today, age))
        sink.write(f"archive/pending/{candidate.id}.md", _candidate_md(candidate))
    return {"archived": len(V.ARCHIVED_SOPS) + 1, "rejected": len(V.REJECT_REASONS)}


def _old_candidate(rng: random.Random, date: dt.date) -> Candidate:
    section = rng.choice(V.SECTION_BASES)
    body = "\n".join(_bullets(_fill(rng, V.FACTS.get(section, V.GENERIC_FACTS), 1)))
    evidence = _fact_evidence(rng, section)
    return Candidate(
        f"{date:%Y%m%d}-{rng.randint(1, 40):04d}",
        "fact",
        section,
        evidence,
        session_id(rng),
        tuple(source_seqs(rng)),
        random_time(rng, date),
        body,
    )


# --- JSON files ---------------------------------------------------------------------------------


def _meta(
    rng: random.Random, today: dt.date, sections: list[Section], sops: list[Sop]
) -> dict[str, Any]:
    entries = {
        f"fact:{section.name}": _meta_entry(rng, today, "fact", _fact_evidence(rng, section.base))
        for section in sections
    }
    for sop in sops:
        entries[f"sop:{sop.name}"] = _meta_entry(rng, today, "sop", _sop_evidence(rng, sop.obj))
    archived = [("fact", V.ARCHIVED_SECTION, _fact_evidence(rng, V.ARCHIVED_SECTION))]
    archived += [
        ("sop", name, _sop_evidence(rng, name.split("-", 1)[1])) for name, _ in V.ARCHIVED_SOPS
    ]
    for kind, name, evidence in archived:
        entry = _meta_entry(rng, today, kind, evidence, status="archived")
        entry["archivedAt"] = iso(random_time(rng, day(today, rng.randint(5, 15))))
        entries[f"{kind}:{name}"] = entry
    return {"version": 1, "entries": entries}


def _meta_entry(
    rng: random.Random, today: dt.date, kind: str, evidence: str, status: str = "active"
) -> dict[str, Any]:
    created_age = rng.randint(20, 400)
    created = day(today, created_age)
    updated = day(today, rng.randint(1, created_age - 1))
    accepted_from = f"pending/{created:%Y%m%d}-{rng.randint(1, 40):04d}.md"
    return {
        "type": kind,
        "status": status,
        "evidence": evidence,
        "sourceSession": session_id(rng),
        "sourceSeqs": source_seqs(rng),
        "createdAt": iso(random_time(rng, created)),
        "updatedAt": iso(random_time(rng, updated)),
        "acceptedFrom": accepted_from,
        "supersedes": [],
    }


def _maintenance_report(
    rng: random.Random, today: dt.date, sections: list[Section]
) -> dict[str, Any]:
    # The planted duplicate fact arrived after this run, so the report did not see it.
    near = rng.sample(sections[-1].facts, min(2, len(sections[-1].facts)))
    return {
        "time": iso(random_time(rng, day(today, 3))),
        "duplicatesFound": 2,
        "merged": 2,
        "nearDuplicates": [{"section": sections[-1].name, "facts": near}],
        "indexLinesBefore": 31,
        "indexLinesAfter": 27,
        "pendingMerged": 1,
        "durationMs": rng.randint(200, 900),
    }


def _access_stats(rng: random.Random, today: dt.date, sops: list[Sop]) -> dict[str, Any]:
    read = ["facts.md", "index.txt", "memory_management_sop.md"]
    read += [f"sops/{sop.name}.md" for sop in rng.sample(sops, min(30, len(sops)))]
    return {
        path: {
            "reads": rng.randint(1, 120),
            "lastRead": iso(random_time(rng, day(today, rng.randint(1, 30)))),
        }
        for path in read
    }
