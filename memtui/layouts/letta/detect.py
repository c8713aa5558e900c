"""How a Letta Code memory repository (MemFS, SPEC §3b "More agents") is recognised,
without its parser: listing and searching a store import only this.

Letta Code keeps an agent's memory as a git repository of Markdown files with front
matter: `~/.letta/agents/<agent-id>/memory` (letta-ai/letta-code
`src/agent/memory-filesystem.ts` getMemoryFilesystemRoot), with the local backend
`~/.letta/lc-local-backend/memfs/<agent-id>/memory` (`$LETTA_LOCAL_BACKEND_DIR`:
`src/backend/local/paths.ts`), or the folder `$LETTA_MEMORY_DIR` / `$MEMORY_DIR` names
(resolveScopedMemoryDir). Its `system/` holds the blocks compiled into every prompt.
A store is a folder with git's `.git` at its root and a `system/` holding a `.md` file
that begins with front matter (`---`): the pre-commit hook letta-code installs wants it
on every one (memory-git-hooks.ts). The first bytes of up to three files are read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from memtui.engine.layouts.base import Detection
from memtui.engine.paths import LAYOUT_DIRS, subfolders

if TYPE_CHECKING:
    from memtui.engine.layouts.listing import Listing

SYSTEM_DIR = "system"
# Letta Code flags the prompt for /doctor from this estimate of system/'s tokens
# (STARTUP_SYSTEM_PROMPT_WARNING_THRESHOLD_TOKENS, src/cli/helpers/system-prompt-warning.ts).
DOCTOR_TOKENS = 30_000
THRESHOLDS: dict[str, int | float] = {"letta_prompt_tokens": DOCTOR_TOKENS}
LOOKS = 3  # system/ files whose first bytes are read before saying no


def has_repo(root: str) -> bool:
    """git's `.git` (a folder, or a worktree's file) at the root itself: the memory is
    its own repository, as Letta Code keeps it. Without one (a copy of the folder, kept
    inside some other repository) the files are read as they are, and nothing is
    committed."""
    return os.path.lexists(os.path.join(root, ".git"))


def repo_at(root: str) -> bool:
    """A memory folder: its system/ holds a .md file with front matter; without a `.git`
    of its own, front matter as Letta's hook wants it (a `description:`, and no key but
    description, read_only, limit: no site generator's page)."""
    folder = os.path.join(root, SYSTEM_DIR)
    if not os.path.isdir(folder):  # the usual answer, and cheap: every open asks
        return False
    strict = not has_repo(root)
    try:
        with os.scandir(folder) as found:
            names = sorted(e.name for e in found if e.name.endswith(".md") and e.name[0] != ".")
    except OSError:
        return False
    looks = (_fronted(os.path.join(folder, n), strict) for n in names[:LOOKS])
    return any(looks) or _deeper(folder, strict)


HEAD_BYTES = 2048  # enough for the front matter Letta writes (a description line or two)
LETTA_KEYS = (b"description", b"read_only", b"limit")


def _fronted(path: str, strict: bool) -> bool:
    """The file begins with `---` (a BOM aside), and when `strict` its front matter is
    Letta's; never opened unless a regular file."""
    try:
        if not os.path.isfile(path) or os.path.islink(path):
            return False
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES).removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n")
    except OSError:
        return False
    if not head.startswith(b"---\n"):
        return False
    if not strict:
        return True
    front, closed, _ = head[4:].partition(b"\n---")
    keys = [
        ln.split(b":", 1)[0].strip() for ln in front.split(b"\n") if ln and ln[:1] not in b" \t-"
    ]
    return bool(closed) and b"description" in keys and all(k in LETTA_KEYS for k in keys)


def _deeper(folder: str, strict: bool) -> bool:
    """A system/ whose blocks all sit in subfolders (`system/human/prefs.md`): one level
    down is looked at too."""
    try:
        with os.scandir(folder) as found:
            subs = sorted(
                e.path for e in found if e.is_dir(follow_symlinks=False) and e.name[0] != "."
            )
    except OSError:
        return False
    for sub in subs[:LOOKS]:
        try:
            names = sorted(n for n in os.listdir(sub) if n.endswith(".md") and n[0] != ".")
        except OSError:
            continue
        if any(_fronted(os.path.join(sub, n), strict) for n in names[:LOOKS]):
            return True
    return False


class LettaDetection(Detection):
    name = "letta"
    looks_for = "a git repository whose system/ holds .md files with front matter (letta)"
    title = "a Letta Code memory repository (MemFS)"
    full = "memtui.layouts.letta.layout:Letta"
    order = 90
    thresholds = THRESHOLDS
    looked_in = "~/.letta/agents/*/memory, $LETTA_MEMORY_DIR, $MEMORY_DIR"

    def detect(self, top: Listing) -> bool:
        return repo_at(top.root)

    def folders(self, top: Listing) -> list[tuple[str, bool]]:
        """Every folder of the repository but git's own and hidden ones, walked whole:
        the agent lists every committed file (its external memory) by path."""
        shared = dict(LAYOUT_DIRS)
        out = []
        for name in _folders(top.root):
            if name not in shared:
                out.append((name, True))
            elif not shared[name]:
                out += [(f"{name}/{sub}", True) for sub in _folders(os.path.join(top.root, name))]
        return out

    def usual_places(self, home: str, env: Mapping[str, str]) -> list[str]:
        found = [*subfolders(os.path.join(home, ".letta", "agents"))]
        local = env.get("LETTA_LOCAL_BACKEND_DIR") or os.path.join(
            home, ".letta", "lc-local-backend"
        )
        found += subfolders(os.path.join(local, "memfs"))
        found = [os.path.join(p, "memory") for p in found]
        found += [env[k] for k in ("LETTA_MEMORY_DIR", "MEMORY_DIR") if env.get(k, "").strip()]
        return list(dict.fromkeys(found))


def _folders(path: str) -> list[str]:
    """The folder's subfolders by name, hidden ones and links to folders aside."""
    return [
        os.path.basename(p) for p in subfolders(path) if os.path.isdir(p) and not os.path.islink(p)
    ]
