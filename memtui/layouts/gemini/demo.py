"""The demo's Gemini home (`gemini/`, beside the seed layouts; open it with
`memtui <demo>/gemini`), as `~/.gemini` looks after a few months: the global GEMINI.md
with the Added Memories that save_memory wrote and one `@./coding-style.md` import, the
project registry, and one project's private memory (`tmp/sprout/memory/MEMORY.md`, with
a note beside it that the model opens on demand). It shows one finding: the private
memory mentions `@maria-k`, which Gemini CLI reads as an import of a file that does not
exist (import-missing): the model gets an "Import failed" comment in its place.
"""

from __future__ import annotations

import datetime as dt
import json
import random

from memtui.demo.common import Sink

FOLDER = "gemini"
PROJECT = "/home/dev/sprout"
SLUG = "sprout"  # projectRegistry.ts slugify(basename)


def build_gemini(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    memories = list(MEMORIES)
    rng.shuffle(memories)
    files = {
        "GEMINI.md": GLOBAL
        + "\n## Gemini Added Memories\n"
        + "".join(f"- {m}\n" for m in memories),
        "coding-style.md": STYLE,
        f"tmp/{SLUG}/memory/MEMORY.md": _private(today),
        f"tmp/{SLUG}/memory/deploy-notes.md": DEPLOY,
    }
    for rel, text in files.items():
        sink.write(f"{FOLDER}/{rel}", text)
    sink.write(f"{FOLDER}/settings.json", json.dumps(SETTINGS, indent=2))
    sink.write(f"{FOLDER}/projects.json", json.dumps({"projects": {PROJECT: SLUG}}, indent=2))
    sink.write(f"{FOLDER}/tmp/{SLUG}/.project_root", PROJECT)
    return {"gemini_files": len(files), "gemini_memories": len(memories)}


SETTINGS = {"ui": {"theme": "GitHub"}, "context": {"fileName": "GEMINI.md"}}

GLOBAL = """\
# My preferences

- Answer in English, briefly; show the command before explaining it.
- I work mostly in TypeScript and Python on Linux.

## Coding Style

@./coding-style.md

## Git

- Small commits; the message says why, not what.
- Never push or force-push without asking me first.
"""

STYLE = """\
- TypeScript: strict mode, no `any`; prefer `type` over `interface` for unions.
- Python: type hints everywhere, `ruff format`, pytest for tests.
- Tests sit next to the code they test and are named after the behaviour.
"""

MEMORIES = (
    "My preferred package manager is pnpm.",
    "I prefer pytest over unittest for Python tests.",
    "The staging server is staging.sprout.example; deploy with `make deploy-staging`.",
)

DEPLOY = """\
# Deploy notes (sprout)

- Staging deploys from `main` on every merge; production is tagged by hand.
- The database migration runs before the new container starts; a failed migration
  keeps the old container serving.
"""


def _private(today: dt.date) -> str:
    return f"""\
# Sprout: private notes

- Last reviewed {today.isoformat()}.
- Watering reminders run hourly from the cron route; do not add a second scheduler.
- Code reviews go to @maria-k before merging anything under `src/reminders/`.
- Deploy details: see deploy-notes.md in this folder.
"""
