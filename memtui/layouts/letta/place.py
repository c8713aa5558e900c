"""Where a Letta Code memory repository is, told from a folder with a listing and the
first bytes of up to three files, and the few numbers memtui.toml may change: what the
detection (detect.py) and the parser and operations share, importing nothing of them.

A store is a folder whose `system/` holds a `.md` file that begins with front matter
(`---`): the pre-commit hook letta-code installs wants it on every one
(src/agent/memory-git-hooks.ts). Without git's `.git` at its root (a copy of the folder,
kept inside some other repository) that front matter must be Letta's own.
"""

from __future__ import annotations

import os

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
