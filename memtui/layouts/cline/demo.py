"""The demo's Cline Memory Bank (`cline/`, beside the seed layouts; open it with
`memtui <demo>/cline`): a small web project's six core files, one more file in a
subfolder, and the rules file that holds the Memory Bank instructions
(`.clinerules/memory-bank.md`, as the docs suggest). It shows one finding: the
progress was updated five days after activeContext.md, whose focus is now stale
(bank-stale, by the dates the files carry).
"""

from __future__ import annotations

import datetime as dt
import os
import random

from memtui.demo.common import Sink

FOLDER = "cline"
BANK = f"{FOLDER}/memory-bank"


def build_cline(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    active_on, progress_on = today - dt.timedelta(days=6), today - dt.timedelta(days=1)
    issues = list(ISSUES)
    rng.shuffle(issues)
    files = {
        "projectbrief.md": BRIEF,
        "productContext.md": PRODUCT,
        "systemPatterns.md": PATTERNS,
        "techContext.md": TECH,
        "activeContext.md": _active(active_on),
        "progress.md": _progress(progress_on, today, issues),
        "features/reminders.md": REMINDERS,
    }
    for name, text in files.items():
        sink.write(f"{BANK}/{name}", text)
    sink.write(f"{FOLDER}/.clinerules/memory-bank.md", RULES)
    # The times say what the dates in the texts say (findings read the texts first).
    noon = dt.time(12)
    for name, day in (("activeContext.md", active_on), ("progress.md", progress_on)):
        stamp = dt.datetime.combine(day, noon).timestamp()
        os.utime(sink.root / BANK / name, (stamp, stamp))
    return {"cline_files": len(files)}


BRIEF = """\
# Project Brief: Sprout

Sprout is a small web app that reminds people when to water their houseplants.

## Goals
- Add a plant in under a minute: name, photo, how often it wants water
- One list of what needs water today, sorted by how overdue it is
- Reminders by email or browser notification, never more than one a day

## Out of scope
- Plant identification from photos
- Native mobile apps (the web app installs as a PWA)
"""

PRODUCT = """\
# Product Context

## Why it exists
Houseplant owners forget watering more often than they overwater. Calendar reminders
do not adapt when a plant is watered early or late.

## How it should work
- The schedule moves with the last watering, not with a fixed calendar
- Marking a plant as watered is one tap from the today list
- Households share plants: whoever waters marks it, everyone sees it

## User experience goals
- Works on a phone held in one hand
- No account needed to try it; sign up to sync
"""

PATTERNS = """\
# System Patterns

## Architecture
- Next.js app router; server actions for every write
- SQLite through Drizzle ORM; one database file per deployment
- A cron route computes due plants every hour and queues reminders

## Key decisions
- Schedules are stored as an interval in days plus the last watering time; "due" is
  computed, never stored
- Reminders are idempotent: one row per plant and day, unique index

## Component relationships
- `TodayList` reads `duePlants()`; `PlantCard` calls the `markWatered` action
"""

TECH = """\
# Tech Context

## Stack
- TypeScript 5, Next.js 15, React 19
- SQLite 3 with Drizzle ORM, better-sqlite3 driver
- Tailwind CSS; Playwright for end-to-end tests

## Setup
- `pnpm install`, then `pnpm db:migrate` and `pnpm dev`
- `.env.local` holds `RESEND_API_KEY` for email reminders (never committed)

## Constraints
- Runs on one small VPS: no background workers besides the hourly cron
"""

REMINDERS = """\
# Feature: reminders

## Channels
- Email through Resend
- Web Push for installed PWAs (VAPID keys in the environment)

## Rules
- At most one reminder a day per household, listing every plant due
- Quiet hours 21:00-08:00 in the household's time zone
"""

RULES = """\
# Memory Bank

My memory resets between tasks, so I keep this project's Memory Bank in memory-bank/.
At the start of every task I read every file in it, the core files first:
projectbrief.md, productContext.md, systemPatterns.md, techContext.md,
activeContext.md, progress.md. After significant changes, and whenever asked to
"update memory bank", I review every file and bring activeContext.md and progress.md
up to date.
"""

ISSUES = (
    "Push subscriptions expire silently on iOS after a few weeks",
    "The today list flickers when two people mark the same plant",
    "Photos larger than 8 MB fail to upload without a message",
)


def _active(day: dt.date) -> str:
    return f"""\
# Active Context

Last updated: {day.isoformat()}

## Current focus
- Household sharing: invite links and a shared today list

## Recent changes
- Moved "due" to a computed value (see systemPatterns.md)
- Added quiet hours to reminders

## Next steps
- Invite links that expire after 7 days
- Show who watered a plant last
"""


def _progress(day: dt.date, today: dt.date, issues: list[str]) -> str:
    launch = today + dt.timedelta(days=21)
    known = "\n".join(f"- {issue}" for issue in issues)
    return f"""\
# Progress

Last updated: {day.isoformat()}

## What works
- Adding plants with photos and watering intervals
- The today list, sorted by how overdue each plant is
- Email reminders with quiet hours
- Household sharing: invite links, shared today list (done; activeContext.md still
  lists it as the current focus)

## What's left
- Web Push reminders
- Import from a spreadsheet

## Known issues
{known}

## Milestones
- Public beta planned for {launch.isoformat()}
"""
