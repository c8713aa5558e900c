"""The demo's Claude Code memory folder (`claude/`, beside the seed layouts; open it
with `memtui <demo>/claude`, or from the app's "Open the demo's Claude folder").

Its index is one line past Claude's 200-line cut, and it holds one of each claude
finding: a missing pointer, a duplicate, content in the index, a link out of the
folder, a long line, an orphan, a bad type, no description, and more memory files
than recall reads (202: the two oldest are never recalled).
"""

from __future__ import annotations

import datetime as dt
import os
import random

from memtui.demo.common import Sink

FOLDER = "claude"
TYPES = ("user", "feedback", "project", "reference")
SUBJECTS = (
    ("testing", "integration tests hit a real database, not mocks"),
    ("deploy", "deploys go out from the release branch on Tuesdays"),
    ("style", "prefers small functions and plain names"),
    ("oncall", "the on-call board lives in the ops dashboard"),
    ("freeze", "merge freeze before each mobile release"),
    ("review", "wants the diff shown before any commit"),
    ("python", "the project pins Python 3.12"),
    ("docs", "keeps the README the one source of setup steps"),
)
POINTED = 197  # + 4 special lines = 201 index lines: line 201 is past the cut


def build_claude(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    names = []
    for i in range(POINTED):
        subject, hook = SUBJECTS[i % len(SUBJECTS)]
        kind = TYPES[i % len(TYPES)]
        names.append((f"{kind}_{subject}_{i:03d}.md", kind, subject, hook))
    lines = []
    for n, (file, kind, subject, hook) in enumerate(names):
        description = "" if n == 5 else f"{subject} — {hook}"  # memory-description
        shown_type = "mood" if n == 6 else kind  # memory-type
        sink.write(f"{FOLDER}/{file}", _memory(subject.title(), description, shown_type, hook))
        lines.append(f"- [{subject.title()} {n}]({file}) — {hook}")
    lines.insert(10, "Remember: the user likes tea")  # index-content
    lines.insert(20, "- [Old notes](old_notes.md) — gone since the cleanup")  # pointer-missing
    lines.insert(30, f"- [Testing again]({names[0][0]}) — the same memory twice")  # duplicate
    lines.insert(40, "- [Secrets](../../secrets.md) — outside the folder")  # path-escape
    lines[50] += " — " + "and a very long tail " * 6  # index-line-long
    sink.write(f"{FOLDER}/MEMORY.md", "\n".join(lines))
    sink.write(f"{FOLDER}/scratch.md", _memory("Scratch", "loose notes", "project", "x"))  # orphan
    team = [f"team/project_shared_{i}.md" for i in range(4)]
    for rel in team:
        sink.write(f"{FOLDER}/{rel}", _memory("Shared", "a team memory", "project", "shared"))
    sink.write(
        f"{FOLDER}/team/MEMORY.md",
        "\n".join(f"- [Shared]({os.path.basename(r)}) — a team memory" for r in team),
    )
    # Recall takes the newest 200 by modification time: the first two are the oldest.
    base = dt.datetime.combine(today, dt.time(12)).timestamp()
    every = [f"{FOLDER}/{f}" for f, *_ in names] + [f"{FOLDER}/scratch.md"]
    every += [f"{FOLDER}/{r}" for r in team]
    for age, rel in enumerate(reversed(every)):
        stamp = base - age * 3600
        os.utime(sink.root / rel, (stamp, stamp))
    return {"memories": len(every)}


def _memory(name: str, description: str, type_: str, hook: str) -> str:
    why = f"\n**Why:** {hook}.\n**How to apply:** keep it in mind.\n"
    body = why if type_ in ("feedback", "project") else f"\n{hook}.\n"
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n{body}"
