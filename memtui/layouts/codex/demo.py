"""The demo's Codex memories folder (`codex/`, beside the seed layouts; open it with
`memtui <demo>/codex`): what two weeks of Codex sessions on a small invoicing service
leave in `~/.codex/memories`, in the shapes Codex's own code writes (openai/codex
codex-rs/memories/write/src/storage.rs for raw_memories.md and rollout_summaries/,
templates/memories/consolidation.md for MEMORY.md, memory_summary.md and skills/). It
shows two findings: the summary has grown past the 2,500 tokens Codex injects
(summary-truncated), and MEMORY.md still names a rollout summary Codex pruned
(rollout-missing).
"""

from __future__ import annotations

import datetime as dt
import random

from memtui.demo.common import Sink

FOLDER = "codex"
CWD = "/home/dev/src/ledger"
# (thread id, slug, task, what was learned); UUIDv7 ids, their time in their head.
THREADS = (
    ("019ab2d4-3c81-7f20-9a4e-5be1c0d2a7f1", "pin_decimal_rounding", "rounding in invoice totals",
     "totals are rounded once, at the end, with ROUND_HALF_EVEN; never per line"),
    ("019ab6f0-12de-7a43-8c5b-0e4f6d19b2c3", "flaky_pdf_export_test", "a flaky PDF export test",
     "the export test fails when the font cache is cold; warm it in the fixture"),
    ("019abb11-9e07-7d66-b1f2-7c3a5e80d4b9", "migrate_to_uv", "moving the project to uv",
     "`uv sync --frozen` in CI; the lock file is uv.lock, not requirements.txt"),
)  # fmt: skip
PRUNED = "2026-11-02T08-15-40-Qx7e-old_celery_retry_tuning.md"  # named, not there


def build_codex(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    days = [today - dt.timedelta(days=d) for d in (9, 5, 2)]
    names = [_rollout_name(n, t, d) for n, (t, d) in enumerate(zip(THREADS, days, strict=True))]
    for (thread, _slug, task, learned), day, name in zip(THREADS, days, names, strict=True):
        sink.write(f"{FOLDER}/rollout_summaries/{name}", _rollout(thread, day, task, learned))
    sink.write(f"{FOLDER}/raw_memories.md", _raw(days, names))
    sink.write(f"{FOLDER}/MEMORY.md", _handbook(days, names))
    topics = list(TOPICS) * max(1, size)
    rng.shuffle(topics)
    sink.write(f"{FOLDER}/memory_summary.md", _summary(days, topics))
    sink.write(f"{FOLDER}/skills/release-checklist/SKILL.md", SKILL)
    sink.write(f"{FOLDER}/extensions/ad_hoc/instructions.md", AD_HOC)
    stamp = f"{days[-1].isoformat()}T16-42-05"
    sink.write(f"{FOLDER}/extensions/ad_hoc/notes/{stamp}-prefer-pytest-xdist.md", NOTE)
    return {"codex_rollouts": len(THREADS)}


def _rollout_name(n: int, thread: tuple[str, ...], day: dt.date) -> str:
    """storage.rs rollout_summary_file_stem: the thread's time, a 4-character hash, the slug."""
    return f"{day.isoformat()}T10-{14 + 7 * n:02d}-0{n}-{thread[0][-4:]}-{thread[1]}.md"


def _rollout(thread: str, day: dt.date, task: str, learned: str) -> str:
    return (
        f"thread_id: {thread}\nupdated_at: {day.isoformat()}T11:20:00+00:00\n"
        f"rollout_path: /home/dev/.codex/sessions/{day:%Y/%m/%d}/rollout-{thread}.jsonl\n"
        f"cwd: {CWD}\ngit_branch: main\n\n"
        f"# {task.capitalize()}\n\nOutcome: done, verified by the test suite.\n\n"
        f"## Reusable knowledge\n\n- {learned}\n"
    )


def _raw(days: list[dt.date], names: list[str]) -> str:
    out = "# Raw Memories\n\nMerged stage-1 raw memories (stable ascending thread-id order):\n\n"
    for (thread, _slug, task, learned), day, name in zip(THREADS, days, names, strict=True):
        out += (
            f"## Thread `{thread}`\nupdated_at: {day.isoformat()}T11:20:00+00:00\ncwd: {CWD}\n"
            f"rollout_path: /home/dev/.codex/sessions/{day:%Y/%m/%d}/rollout-{thread}.jsonl\n"
            f"rollout_summary_file: {name}\n\n"
            f"task: {task}\n\nReusable knowledge:\n- {learned}\n\n"
        )
    return out.rstrip("\n") + "\n"  # Codex's own ends "\n\n"; the demo's files end in one


def _handbook(days: list[dt.date], names: list[str]) -> str:
    blocks = []
    for n, ((thread, _slug, task, learned), day, name) in enumerate(
        zip(THREADS, days, names, strict=True)
    ):
        extra = f"- rollout_summaries/{PRUNED} (cwd={CWD}, superseded)\n" if n == 0 else ""
        blocks.append(
            f"# Task Group: ledger — {task}\n\n"
            f"scope: {task} in the ledger service\n"
            f"applies_to: cwd={CWD}; reuse_rule=safe on main\n\n"
            f"## Task 1: {task}, done\n\n### rollout_summary_files\n\n"
            f"- rollout_summaries/{name} (cwd={CWD}, updated_at={day.isoformat()}, "
            f"thread_id={thread})\n{extra}\n"
            f"### keywords\n\n- {task.split()[0]}, ledger\n\n"
            f"## Reusable knowledge\n\n- {learned} [Task 1]\n"
        )
    return "\n".join(reversed(blocks))


def _summary(days: list[dt.date], topics: list[str]) -> str:
    recent = "\n".join(
        f"- {task}: {slug.replace('_', ', ')}\n  - desc: see MEMORY.md, updated {day.isoformat()}"
        for (_t, slug, task, _l), day in zip(THREADS, days, strict=True)
    )
    older = "\n".join(topics)
    return (
        "v1\n\n## User Profile\n\nMaintains the ledger invoicing service alone; wants short "
        "answers and the command that was run.\n\n## User preferences\n\n"
        '- when a test is flaky, the user asked: "find why, don\'t retry it"\n'
        "- run the whole test suite before saying a change is done\n\n"
        "## General Tips\n\n- the project uses uv; never pip install into the venv\n\n"
        f"## What's in Memory\n\n### {CWD}\n\n#### {days[-1].isoformat()}\n\n{recent}\n\n"
        f"### Older Memory Topics\n\n#### {CWD}\n\n{older}\n"
    )


TOPICS = tuple(
    f"- {topic}: {keys}\n  - desc: {desc}; search MEMORY.md for the keywords first, then "
    "the rollout summary it names for the exact commands and error text seen at the time\n"
    f"  - learnings: {topic} changed twice this quarter; check the newest task in MEMORY.md "
    "before trusting an older note, and verify against the code on main (the tests under "
    f"tests/{topic.replace(' ', '_')} say what still holds)"
    for topic, keys, desc in (
        ("tax rates", "VAT, tax_rate, reverse charge", "how EU VAT and reverse charge apply"),
        ("currency", "Decimal, quantize, ISO 4217", "amounts are Decimal, quantized per currency"),
        ("invoice numbers", "sequence, gapless, INV-", "gapless numbering per fiscal year"),
        ("pdf layout", "weasyprint, font cache", "the PDF template and its font quirks"),
        ("email sending", "smtp, retries, bounce", "how invoices are mailed and retried"),
        ("database", "postgres, alembic, migration", "migrations run with alembic upgrade"),
        ("ci", "github actions, uv sync", "the CI workflow and its cache keys"),
        ("auth", "api keys, scopes", "API keys are scoped per customer account"),
        ("reports", "monthly, csv export", "the monthly CSV report and its columns"),
        ("credit notes", "refund, negative total", "credit notes reference their invoice"),
        ("time zones", "UTC, due dates", "due dates are dates, stored without a zone"),
        ("logging", "structlog, request id", "every request logs its id"),
        ("backups", "pg_dump, restore drill", "the nightly dump and how to restore it"),
        ("deploys", "fly.io, release", "deploys go through the release checklist skill"),
        ("customers", "merge, duplicate", "merging duplicate customer records"),
        ("webhooks", "stripe, signature", "Stripe webhooks are verified before use"),
        ("rate limits", "429, backoff", "the API answers 429 past 100 requests a minute"),
        ("fixtures", "factory_boy, faker", "test data comes from factories"),
        ("typing", "mypy strict", "the package type-checks with mypy --strict"),
        ("docs", "mkdocs, api reference", "the docs site and how it is built"),
        ("discounts", "coupon, percent off", "discounts apply before tax, never after"),
        ("payment terms", "net 30, late fee", "terms come from the customer record"),
        ("exports", "datev, xlsx", "the accountant's export formats"),
        ("search", "trigram, pg_trgm", "invoice search uses a trigram index"),
        ("feature flags", "unleash, rollout", "new screens ship behind a flag"),
        ("admin", "django admin, staff", "what staff may change by hand"),
    )
)

SKILL = """\
---
name: release-checklist
description: Cut a release of the ledger service; use when the user says "release" or "ship it".
---

# Release checklist

1. `uv run pytest -q` passes on main.
2. Bump the version in pyproject.toml; tag `vX.Y.Z`.
3. `fly deploy`; check /health answers 200.
"""

AD_HOC = """\
# Ad-hoc notes

## Instructions
* This extension contains ad-hoc notes the user asked Codex to write.
* Every note is consolidated into the memories.
"""

NOTE = """\
Remember: run the tests with `pytest -n auto` (pytest-xdist); a serial run takes 9 minutes.
"""
