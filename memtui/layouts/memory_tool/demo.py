"""The demo's memory tool store (`memory-tool/`, open it with `memtui <demo>/memory-tool`):
the SDK's base folder holding `memories/`, as an application running
BetaLocalFilesystemMemoryTool(base_path="memory-tool") leaves it after a few sessions of
a coding assistant. Files the model made with `create` end without a final newline (the
tool writes file_text as given); one `insert` left one. It shows one finding: a note
three levels down, which the listing the model views first leaves out (memtool-deep).
"""

from __future__ import annotations

import datetime as dt
import random

from memtui.demo.common import Sink

FOLDER = "memory-tool"
MEMORIES = f"{FOLDER}/memories"


def build_memory_tool(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    steps = list(STEPS)
    rng.shuffle(steps)
    files = {
        "user_preferences.md": PREFERENCES,
        "project_context.md": _context(today),
        "tasks/checkout-refactor.md": _task(today, steps),
        "debugging/flaky_tests.xml": FLAKY,
        "tasks/done/2026/payment-retries.md": DONE,  # below the listing's two levels
    }
    for name, text in files.items():
        sink.write(f"{MEMORIES}/{name}", text)
    return {"memory_tool_files": len(files)}


PREFERENCES = """\
# User preferences
- Prefers small pull requests, one concern each
- Wants tests named by behaviour, not by method
- Uses pnpm, never npm
- Reviews in the morning (Europe/Berlin): open PRs before 09:00"""

FLAKY = """\
<memory>
  <pattern>Checkout e2e test times out on CI only</pattern>
  <cause>The payment sandbox answers slowly in the first minute after deploy</cause>
  <fix>Wait for /health of the sandbox before the suite starts</fix>
</memory>"""

DONE = """\
# Payment retries (done)
- Retries with exponential backoff, at most 3
- Idempotency key per order, kept 24 hours"""

STEPS = (
    "Move cart totals into a pure function",
    "Replace the discount switch with a table",
    "Delete the legacy coupon endpoint",
)


def _context(today: dt.date) -> str:
    return f"""\
# Project context
Shop frontend: Next.js 15, TypeScript, Stripe for payments.
Main branch is protected; CI must pass before merge.
Last session: {today.isoformat()}
"""


def _task(today: dt.date, steps: list[str]) -> str:
    todo = "\n".join(f"- [ ] {step}" for step in steps)
    return f"""\
# Checkout refactor
Started {(today - dt.timedelta(days=3)).isoformat()}.

{todo}
"""
