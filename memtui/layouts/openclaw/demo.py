"""The demo's OpenClaw agent workspace (`openclaw/`, beside the seed layouts and
`claude/`; open it with `memtui <demo>/openclaw`).

SOUL.md is near OpenClaw's 20,000-character cut and MEMORY.md past it (Chinese,
English and emoji, so the cut is counted in UTF-16 units), its end a section dreaming
promoted (with its Source:, trigger and importance annotations); BOOTSTRAP.md is a
leftover, TOOLS.md and HEARTBEAT.md files OpenClaw injects no more; DREAMS.md is the
dream diary and memory/.dreams/ dreaming's own state; the daily notes include today's
and yesterday's, a misnamed one and one dated in the future; the Memory Audit queue
holds an add, an edit, a delete, a move, one whose source changed since it was staged
(a conflict if applied), and one applied and one rejected earlier, each record as
memory-audit.ts writes it.
"""

from __future__ import annotations

import datetime as dt
import random

from memtui.demo.common import Sink
from memtui.layouts.openclaw import audit

FOLDER = "openclaw"
WORKSPACE = "/home/demo/.openclaw/workspace"  # where OpenClaw ran: records name it
AGENT = "main"


def build_openclaw(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    files = {
        "AGENTS.md": _agents(),
        "SOUL.md": _long("# SOUL.md\n\n", "Persona", 16_800, rng),  # 84%: bootstrap-size warning
        "USER.md": "# USER.md\n\n## Who\n- 名字：小林 (Lin)\n- Timezone: Asia/Shanghai\n\n"
        "## Preferences\n- 喜欢绿茶\n- Short answers, no emoji in code reviews\n",
        "IDENTITY.md": "# IDENTITY.md\n\n- Name: Clawd\n- Emoji: 🦞\n",
        "TOOLS.md": "# TOOLS.md\n\n## Shell\n- Use `rg`, not grep -r\n",
        "HEARTBEAT.md": "# HEARTBEAT.md\n\n- Check the inbox\n",
        "BOOTSTRAP.md": "# BOOTSTRAP.md\n\nHello. Who am I? Fill in IDENTITY.md, then delete me.\n",
        "MEMORY.md": _long("# MEMORY.md\n\n", "Fact", 24_000, rng) + _promoted(today),
        "DREAMS.md": _DREAMS,
    }
    for name, text in files.items():
        sink.write(f"{FOLDER}/{name}", text)
    days = [today - dt.timedelta(days=n) for n in range(6)]
    for n, day in enumerate(days):
        slug = "-standup" if n == 1 else ""
        notes = [f"# {day.isoformat()}", "", f"- {_NOTES[n % len(_NOTES)]}"]
        sink.write(f"{FOLDER}/memory/{day.isoformat()}{slug}.md", "\n".join(notes))
    future = today + dt.timedelta(days=3)
    sink.write(f"{FOLDER}/memory/{future.isoformat()}.md", "- planned: dentist (written ahead)")
    sink.write(f"{FOLDER}/memory/notes-march.md", "- misnamed: not a dated note")
    sink.write(f"{FOLDER}/memory/context-digest.md", "- OpenClaw's own digest (not a daily note)")
    corpus = f"{FOLDER}/memory/.dreams/session-corpus/{days[1].isoformat()}.txt"
    sink.write(corpus, "user: remind me the standup moved to 10:00\n")
    records = _queue(files, today)
    sink.write(f"{FOLDER}/{audit.QUEUE}", "".join(records).rstrip("\n"))
    return {"openclaw_files": len(files) + len(days) + 5, "openclaw_suggestions": len(records)}


def _promoted(today: dt.date) -> str:
    """A section as dreaming's consolidation appends it (dreaming-consolidation.ts)."""
    day = (today - dt.timedelta(days=1)).isoformat()
    source = f"memory/{day}-standup.md#L3-L3"  # the note of that day, as written below
    return (
        f"\n## Consolidated Memory ({day})\n\n"
        "<!-- openclaw-memory-promotion:memory:demo-0001 -->\n"
        f"- 会议改到周四下午三点 Source: {source} <!-- trigger: meeting, 会议 --> "
        "<!-- importance: 7 -->\n"
    )


_DREAMS = """# Dream Diary

<!-- openclaw:dreaming:diary:start -->
---

*November 28, 2026 at 3:00 AM GMT+8*

The notes kept circling back to tea and a meeting that moved.

<!-- openclaw:dreaming:diary:end -->
"""


_NOTES = (
    "Lin asked for the weekly report on Friday",
    "会议改到周四下午三点",
    "deployed the bot to the new VPS 🚀",
    "read about sqlite-vec",
    "Lin prefers green tea to coffee",
    "set up the backup cron",
)


def _agents() -> str:
    return (
        "# AGENTS.md\n\n## Every session\n- Read SOUL.md and USER.md\n"
        "- Read memory/ for today and yesterday\n\n## Memory\n"
        "- Write daily notes to memory/YYYY-MM-DD.md\n- Never store secrets\n"
    )


def _long(head: str, word: str, chars: int, rng: random.Random) -> str:
    """Sections of mixed Chinese, English and emoji up to about `chars` UTF-16 units."""
    out = [head]
    total = len(head)
    n = 0
    while total < chars:
        if n % 10 == 0:
            line = f"\n## {word} group {n // 10 + 1}\n"
        else:
            line = f"- {word} {n}: {rng.choice(_BITS)} {rng.choice(_BITS)}\n"
        out.append(line)
        total += len(line.encode("utf-16-le")) // 2
        n += 1
    return "".join(out)


_BITS = (
    "喜欢安静的早晨",
    "uses fish shell",
    "🦞 lobster emoji is the mascot",
    "住在上海",
    "prefers dark mode",
    "weekly review on Sundays",
    "不吃香菜",
    "☕ two cups a day",
)


def _stamp(day: dt.date, hour: int) -> str:
    return f"{day.isoformat()}T{hour:02d}:10:00.000Z"


def _surface(kind: str, path: str) -> dict[str, str]:
    sid = audit.hash_text("\0".join([WORKSPACE, kind, path, AGENT]))  # memory-audit.ts surfaceId
    return {
        "surfaceId": sid,
        "kind": kind,
        "path": path,
        "workspaceDir": WORKSPACE,
        "agentId": AGENT,
    }


def _queue(files: dict[str, str], today: dt.date) -> list[str]:
    memory = _surface("agent-memory", "MEMORY.md")
    user = _surface("user-profile", "USER.md")
    lines = audit.split_lines(files["MEMORY.md"])
    made = _stamp(today - dt.timedelta(days=1), 6)

    def source(surface: dict[str, str], start: int, end: int, *, stale: bool = False) -> dict:
        text_lines = audit.split_lines(files[surface["path"]]) if surface is user else lines
        digest = "0" * 16 if stale else audit.range_hash(text_lines, start, end)
        return {**surface, "startLine": start, "endLine": end, "hash": digest}

    staged = [
        ("add", "- 喜欢绿茶 (green tea, no sugar)", None, memory, "found in yesterday's note"),
        # Line numbers as staged: a removal shifts the lines after it, so the later
        # ranges come first (applied in this order, none turns into a conflict).
        ("move", lines[11].strip(), source(memory, 12, 12), user, "a user fact: USER.md"),
        ("delete", "", source(memory, 10, 10), memory, "duplicate of USER.md"),
        ("edit", "- Fact 2: lives in Hangzhou now", source(memory, 6, 6), memory, "moved city"),
        ("edit", "- Fact 4: stale", source(memory, 8, 8, stale=True), memory, "source changed"),
        ("add", "- Standup moved to 10:00", None, user, "from memory/ standup note"),
        ("add", "- Uses a standing desk", None, user, "low confidence"),
    ]
    records = []
    for action, text, src, target, why in staged:
        key = (
            f"{src['surfaceId']}:{src['startLine']}-{src['endLine']}:{src['hash']}"
            if src
            else (audit.hash_text(text))
        )
        rid = "ma_" + audit.hash_text(
            "\0".join([action, key, target["surfaceId"], target["path"], text])
        )
        rec = {"id": rid, "status": "pending", "action": action, "text": text, "rationale": why,
               "confidence": 0.8}  # fmt: skip
        if src:
            rec["source"] = src
        rec.update(
            {"target": target, "reviewerAgentId": AGENT, "createdAt": made, "updatedAt": made}
        )
        records.append(rec)
    out = [audit.js_stringify(r) + "\n" for r in records]
    later = _stamp(today, 7)
    done = {**records[5], "status": "applied", "updatedAt": later, "appliedAt": later}
    gone = {**records[6], "status": "rejected", "updatedAt": later, "rejectedAt": later}
    return [*out, audit.js_stringify(done) + "\n", audit.js_stringify(gone) + "\n"]
