"""The workspace layout (seed 000): soul.md, user.md, agent.md, memory.md and its topic files.

Planted findings, at every size: pointer-missing, topic-orphan, pointer-duplicate, index-content,
topic-name; and at size 1 `memory.md` sits at 150-179 lines (index-size warning).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from memtui.demo.common import Sink, day, shuffled, unique_names
from memtui.layouts.workspace import demo_vocab as V

TOPICS_MIN = 120
TOPICS_PER_SIZE = 4


@dataclass(frozen=True)
class Topic:
    section: int  # index into V.TOPIC_SECTIONS
    file: str
    description: str
    subject: str


def topic_count(size: int) -> int:
    return max(TOPICS_MIN, TOPICS_PER_SIZE * size)


def build_workspace(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    sink.write("soul.md", V.SOUL_MD)
    sink.write("user.md", V.USER_MD)
    sink.write("agent.md", _agent_md(rng, today))

    # The orphan and the badly named file are topic files too; they count towards the total.
    regular = _regular_topics(rng, topic_count(size) - 2, today)
    for topic in regular:
        sink.write(topic.file, _topic_md(rng, topic.description, topic.subject, today))
    for file, description in (V.ORPHAN_TOPIC, V.BAD_NAME_TOPIC):
        sink.write(file, _topic_md(rng, description, description, today))

    sink.write_lines("memory.md", _index_lines(regular))
    return {"topics": len(regular) + 2}


def _regular_topics(rng: random.Random, count: int, today: dt.date) -> list[Topic]:
    combos = [
        Topic(index, f"{stem}_{aspect}", _join_words(subject, aspect_zh), subject)
        for index, (_, subjects) in enumerate(V.TOPIC_SECTIONS)
        for stem, subject in subjects
        for aspect, aspect_zh in V.ASPECTS
    ]

    # Beyond the pool, topics split by year, the way a long-lived agent's files do.
    def per_year(topic: Topic, round_no: int) -> Topic:
        year = today.year - round_no
        return Topic(
            topic.section, f"{topic.file}_{year}", f"{topic.description}（{year}）", topic.subject
        )

    chosen = unique_names(shuffled(rng, combos), count, per_year)
    return [Topic(t.section, f"memory_{t.file}.md", t.description, t.subject) for t in chosen]


def _join_words(first: str, second: str) -> str:
    """`移动端 App` + `进度` -> `移动端 App 进度`: a space between Latin and CJK, as people type."""
    return f"{first} {second}" if first[-1].isascii() else first + second


def _index_lines(regular: list[Topic]) -> list[str]:
    sections: list[list[str]] = [[] for _ in V.TOPIC_SECTIONS]
    for topic in regular:
        sections[topic.section].append(_pointer(topic.description, topic.file))

    def section_of(heading: str) -> list[str]:
        return sections[[h for h, _ in V.TOPIC_SECTIONS].index(heading)]

    # The planted index findings, each where an agent would plausibly have put it.
    section_of("## 旅行").append(_pointer(*reversed(V.BAD_NAME_TOPIC)))
    section_of("## 阅读与写作").append(_pointer(*reversed(V.MISSING_TOPIC)))
    first = regular[0]
    section_of("## 其他").append(_pointer(first.description + V.DUPLICATE_SUFFIX, first.file))
    section_of("## 工作项目").append(V.INDEX_CONTENT_LINE)

    lines = [V.INDEX_TITLE, "", V.USER_SECTION, V.USER_POINTER]
    for (heading, _), pointers in zip(V.TOPIC_SECTIONS, sections, strict=True):
        lines += ["", heading, *pointers]
    return lines


def _pointer(description: str, file: str) -> str:
    return f"- {description} → {file}"


def _topic_md(rng: random.Random, description: str, subject: str, today: dt.date) -> str:
    # Skewed towards short files: most topics hold a handful of notes, a few grow to KBs.
    note_count = int(rng.triangular(3, 32, 7))
    ages = sorted((rng.randint(1, 240) for _ in range(note_count)), reverse=True)
    notes = [f"- [{day(today, age)}] {rng.choice(V.TOPIC_NOTES).format(s=subject)}" for age in ages]
    lines = [f"# {description}", "", f"> 最近更新：{day(today, ages[-1])}"]
    parts = min(len(V.TOPIC_SUBHEADINGS), 1 + note_count // 8)
    step = -(-note_count // parts)  # ceiling division
    for part in range(parts):
        lines += ["", V.TOPIC_SUBHEADINGS[part], *notes[part * step : (part + 1) * step]]
    return "\n".join(lines)


def _agent_md(rng: random.Random, today: dt.date) -> str:
    lines = ["# Agent 行为规范"]
    for heading, rules in V.AGENT_SECTIONS:
        ages = sorted((rng.randint(3, 300) for _ in rules), reverse=True)
        lines += [
            "",
            heading,
            *(f"- [{day(today, age)}] {rule}" for age, rule in zip(ages, rules, strict=True)),
        ]
    return "\n".join(lines)
