"""The demo's Letta Code memory repository (`letta/`; open it with `memtui <demo>/letta`):
a real git repository, made with the `git` binary, whose commits carry fixed dates and
the agent's identity (letta-code commits as `<agent-id>@letta.com`), so the same demo
comes out every time. It holds the agent's persona, a human block, a project block and
a reference file outside `system/`, over three commits; then the agent edited the human
block and did not commit it, which memtui shows (letta-uncommitted: the agent still
loads the committed version). Without git on the machine the files are written alone,
and a note beside them says so.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import subprocess

from memtui.demo.common import Sink

FOLDER = "letta"
AGENT = "agent-5f0c2e9a-7d41-4b8e-a0c3-2d9e61f4b7aa"
NO_GIT = f"{FOLDER}/NO-GIT.txt"


def build_letta(sink: Sink, rng: random.Random, size: int, today: dt.date) -> dict[str, int]:
    root = sink.root / FOLDER
    tools = list(TOOLS)
    rng.shuffle(tools)
    steps = [
        (
            9,
            "init: persona, human, deploy notes",
            {
                "system/persona.md": PERSONA,
                "system/human.md": HUMAN,
                "reference/deploy-notes.md": DEPLOY,
            },
        ),
        (5, "memory: add the project block", {"system/project.md": _project(tools[:2])}),
        (2, "memory: project tooling learned this week", {"system/project.md": _project(tools)}),
    ]
    git = shutil.which("git")
    written: set[str] = set()
    for days, message, files in steps:
        for rel, text in files.items():
            if rel in written:  # a later version: the sink writes a file once
                _rewrite(sink, root / rel, text)
            else:
                sink.write(f"{FOLDER}/{rel}", text)
                written.add(rel)
        if git is not None:
            when = dt.datetime.combine(today - dt.timedelta(days=days), dt.time(10, 30))
            _git(git, root, when, message, first=days == steps[0][0])
    # The agent edited its human block since, and has not committed it.
    _rewrite(sink, root / "system/human.md", HUMAN + HUMAN_LATER)
    if git is None:
        sink.write(
            NO_GIT,
            "git was not found when this demo was written: this folder is not "
            "a git repository, so memtui cannot read it as a Letta one.\n",
        )
    return {"letta_files": len(written), "letta_commits": 0 if git is None else len(steps)}


def _rewrite(sink: Sink, path: os.PathLike[str], text: str) -> None:
    """A file the sink wrote, written again (a later commit's version): its count of
    bytes kept true."""
    old = os.path.getsize(path)
    with open(path, "wb") as f:
        f.write(text.encode("utf-8"))
    sink.bytes += len(text.encode("utf-8")) - old


def _git(exe: str, root: os.PathLike[str], when: dt.datetime, message: str, first: bool) -> None:
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S+0000")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_GLOBAL": os.devnull,  # the user's settings (signing, hooks) stay out
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Letta Agent",
        "GIT_AUTHOR_EMAIL": f"{AGENT}@letta.com",
        "GIT_COMMITTER_NAME": "Letta Agent",
        "GIT_COMMITTER_EMAIL": f"{AGENT}@letta.com",
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_DATE": stamp,
    }
    calls = [["init", "-q", "-b", "main", "--template="]] if first else []
    # read-tree: the index again, from HEAD alone, without the files' times and inodes
    # it records on add, so that the same demo is the same bytes (git status still
    # compares the contents)
    calls += [["add", "-A"], ["commit", "-q", "-m", message], ["read-tree", "HEAD"]]
    for args in calls:
        subprocess.run([exe, *args], cwd=root, env=env, check=True, capture_output=True, timeout=30)


PERSONA = """\
---
description: Who I am and how I work with Dana; I keep it current as I learn.
---
I am Wren, a coding agent who works with Dana on the Fieldnotes app.

I keep answers short and concrete, say plainly when I am unsure, and check a result
before I call it done. I ask for the one missing input rather than guess.
"""

HUMAN = """\
---
description: What I know about Dana: role, preferences, how they like to work.
---
Dana is a backend engineer in Lisbon (UTC+0/+1).

- Prefers small pull requests, one concern each
- Reviews in the morning; do not ping after 19:00 local time
- Likes tests named by what they check
"""

HUMAN_LATER = """\
- Switched the team to trunk-based development this week
"""

DEPLOY = """\
---
description: How Fieldnotes is deployed; read before touching CI.
---
# Deploying Fieldnotes

- main deploys to staging on every merge
- production is a tagged release (`v*`), promoted by hand
- database migrations run before the new version starts
"""

TOOLS = (
    "`make check` runs the linters and the unit tests",
    "the integration tests need `docker compose up db` first",
    "`scripts/seed.py` fills a local database with sample notes",
)


def _project(tools: list[str]) -> str:
    listed = "\n".join(f"- {t}" for t in tools)
    return f"""\
---
description: The Fieldnotes project: what it is, how to build and test it.
---
Fieldnotes is a note-taking web app: a Go API over PostgreSQL and a small React front end.
Details of deploys live in [[reference/deploy-notes.md]].

Tooling:
{listed}
"""
