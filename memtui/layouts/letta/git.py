"""The `git` binary, as the letta layout uses it: every read of the memory repository's
history goes through it (never a hand-written parser of .git), each call with a timeout.

Reads change nothing: `--no-optional-locks` keeps `git status` from refreshing the
index (SPEC §0: reading never changes a file), and paths come unquoted
(`core.quotepath=off`, `-z` where a name may hold anything). The one exception is
`agent_paths`, which runs the very command letta-code runs (quoted names and all: see
there). Writing is `commit`, after memtui's transaction has written the files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

from memtui.engine.errors import MemtuiError
from memtui.i18n import msg

READ_SECONDS = 10  # a read of a small repository; a hung git must not hang memtui
COMMIT_SECONDS = 60  # a commit runs the repository's hooks
# What git's environment may carry that would point it at another repository (memtui
# run from inside a hook, say).
REPO_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX")


class GitError(MemtuiError):
    """git is missing, timed out, or refused: the message says which, for a person."""


@dataclass(frozen=True, slots=True)
class Done:
    code: int
    out: bytes
    err: str


def available() -> bool:
    return shutil.which("git") is not None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in REPO_ENV}
    env["GIT_TERMINAL_PROMPT"] = "0"  # never wait for a password
    env["GIT_OPTIONAL_LOCKS"] = "0"
    return env


def run(
    root: str,
    *args: str,
    stdin: bytes | None = None,
    timeout: float = READ_SECONDS,
    plain: bool = False,
) -> Done:
    """git `args` in `root`; `plain`: without memtui's `-c core.quotepath=off` (the
    agent's own command line)."""
    exe = shutil.which("git")
    if exe is None:
        raise GitError(
            msg(
                "git is not installed (or not on PATH): the Letta memory "
                "repository's committed state cannot be read, and nothing can "
                "be committed"
            )
        )
    # A store may be anyone's folder: its own config runs no command of memtui's reads
    # (an fsmonitor hook), and git keeps refusing a repository another user owns.
    extra = ["-c", "core.fsmonitor=false", "--no-pager"]
    extra += [] if plain else ["-c", "core.quotepath=off"]
    try:
        got = subprocess.run(
            [exe, "--no-optional-locks", *extra, *args],
            cwd=root,
            input=stdin,
            capture_output=True,
            timeout=timeout,
            env=_env(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise GitError(
            msg(
                "git {args} took longer than {timeout:g} s in {root}",
                args=args[0],
                timeout=timeout,
                root=root,
            )
        ) from None
    except OSError as exc:
        raise GitError(
            msg("git could not be run in {root}: {value}", root=root, value=exc.strerror or exc)
        ) from None
    return Done(got.returncode, got.stdout, got.stderr.decode("utf-8", "replace").strip())


def head(root: str) -> str | None:
    """The committed HEAD's id, or None (no commit yet): letta-code's
    getCommittedMemfsRevision (`git rev-parse --verify HEAD`)."""
    got = run(root, "rev-parse", "--verify", "-q", "HEAD")
    sha = got.out.decode("ascii", "replace").strip()
    return sha if got.code == 0 and sha else None


def agent_paths(root: str) -> list[str]:
    """The paths letta-code's prompt compilation reads, as it reads them
    (collectCommittedMemoryFiles): `git ls-tree -r --name-only HEAD` with the user's own
    git config, each line trimmed, kept when it ends in `.md`. A name git quotes
    (`"system/caf\\303\\251.md"`, by default any name with a byte past ASCII) ends in
    `.md"`, so the agent never loads that file: memtui says so (letta-name-unloaded)."""
    got = run(root, "ls-tree", "-r", "--name-only", "HEAD", plain=True)
    if got.code != 0:
        return []
    lines = got.out.decode("utf-8", "replace").split("\n")
    paths = (p.strip().replace("\\", "/") for p in lines)
    return [p for p in paths if p and p.endswith(".md")]


def tracked(root: str) -> list[str]:
    """Every path in HEAD, unquoted."""
    got = run(root, "ls-tree", "-r", "-z", "--name-only", "HEAD")
    if got.code != 0:
        return []
    return [p for p in got.out.decode("utf-8", "surrogateescape").split("\0") if p]


def blobs(root: str, paths: list[str]) -> dict[str, bytes]:
    """HEAD's bytes of each path (`git cat-file --batch`, one process for all); a path
    HEAD does not hold is left out."""
    if not paths:
        return {}
    ask = "".join(f"HEAD:{p}\n" for p in paths).encode("utf-8", "surrogateescape")
    got = run(root, "cat-file", "--batch", stdin=ask)
    out, at, found = got.out, 0, {}
    for path in paths:
        eol = out.find(b"\n", at)
        if eol < 0:
            break
        header = out[at:eol].split(b" ")
        at = eol + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # "<name> missing", or a tree
        size = int(header[2])
        found[path] = out[at : at + size]
        at += size + 1
    return found


def changed(root: str) -> dict[str, str]:
    """Path -> its `git status --porcelain` code (" M", "??", "D ", ...), for every path
    whose working copy or index differs from HEAD (untracked files included)."""
    got = run(root, "status", "--porcelain=v1", "-z", "--untracked-files=all")
    if got.code != 0:
        raise GitError(
            msg("git status failed in {root}: {value}", root=root, value=got.err or got.code)
        )
    out: dict[str, str] = {}
    items = got.out.decode("utf-8", "surrogateescape").split("\0")
    skip = False
    for item in items:
        if skip:  # a rename's source follows its target
            skip = False
            continue
        if len(item) < 4:
            continue
        code, path = item[:2], item[3:]
        out[path] = code
        skip = "R" in code or "C" in code
    return out


@dataclass(frozen=True, slots=True)
class Commit:
    sha: str
    when: str  # ISO 8601, the author's date
    author: str
    subject: str

    def to_json(self) -> dict[str, str]:
        return {
            "commit": self.sha,
            "date": self.when,
            "author": self.author,
            "subject": self.subject,
        }


def log(root: str, rel: str | None = None, most: int = 20) -> list[Commit]:
    """The newest `most` commits (touching `rel`, following renames), newest first."""
    args = ["log", f"-n{most}", "-z", "--format=%H%x1f%aI%x1f%an%x1f%s"]
    if rel is not None:
        args += ["--follow", "--", rel]
    got = run(root, *args)
    if got.code != 0:
        return []
    found = []
    for record in got.out.decode("utf-8", "replace").split("\0"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) == 4:
            found.append(Commit(*parts))
    return found


def git_dir(root: str) -> str | None:
    got = run(root, "rev-parse", "--absolute-git-dir")
    path = got.out.decode("utf-8", "surrogateescape").strip()
    return path if got.code == 0 and path else None


def git_path(root: str, name: str) -> str | None:
    """Where git keeps `name` (`info/exclude`) for this repository, absolute."""
    got = run(root, "rev-parse", "--git-path", name)
    path = got.out.decode("utf-8", "surrogateescape").strip()
    return os.path.join(root, path) if got.code == 0 and path else None


# What git leaves in its folder while an operation is under way: a commit now would
# land in the middle of it.
BUSY = (
    (
        "index.lock",
        msg(
            "git holds .git/index.lock (another git is running, or one "
            "crashed and left it; remove it only if no git is running)"
        ),
    ),
    ("rebase-merge", msg("a rebase is under way")),
    ("rebase-apply", msg("a rebase is under way")),
    ("MERGE_HEAD", msg("a merge is under way")),
    ("CHERRY_PICK_HEAD", msg("a cherry-pick is under way")),
    ("REVERT_HEAD", msg("a revert is under way")),
)


def busy(folder: str) -> str | None:
    """Why nothing may be committed in the repository whose git folder is `folder` now,
    or None."""
    for name, why in BUSY:
        if os.path.lexists(os.path.join(folder, name)):
            return why
    return None


def identity(root: str) -> tuple[str, str]:
    """Who memtui commits as: the user's own git identity (global or system config;
    the repository's local one is the agent's, `<agentId>@letta.com`, which letta-code
    sets in memory-git.ts), else memtui's."""
    name = _config(root, "--global", "user.name") or _config(root, "--system", "user.name")
    mail = _config(root, "--global", "user.email") or _config(root, "--system", "user.email")
    return name or "memtui", mail or "memtui@localhost"


def _config(root: str, scope: str, key: str) -> str:
    got = run(root, "config", scope, "--get", key)
    return got.out.decode("utf-8", "replace").strip() if got.code == 0 else ""


def commit(root: str, paths: list[str], message: str) -> str:
    """Commit exactly `paths` as they are in the working tree (other staged changes stay
    staged, uncommitted), through the repository's hooks; the new HEAD's id. A refusal
    (a hook's, git's) unstages them again, as letta-code does, and raises GitError with
    git's words: the working tree keeps every change, uncommitted."""
    name, mail = identity(root)
    who = ("-c", f"user.name={name}", "-c", f"user.email={mail}")
    unsigned = ("-c", "commit.gpgsign=false")  # as letta-code commits (memory-git-signing.ts)
    added = run(root, "add", "-A", "--", *paths, timeout=COMMIT_SECONDS)
    if added.code != 0:
        raise GitError(msg("git add refused: {err}", err=added.err))
    done = run(
        root,
        *who,
        *unsigned,
        "commit",
        "-q",
        "-m",
        message,
        "--only",
        "--",
        *paths,
        timeout=COMMIT_SECONDS,
    )
    if done.code != 0:
        run(root, "reset", "-q", "HEAD", "--", *paths, timeout=COMMIT_SECONDS)
        out = done.out.decode("utf-8", "replace").strip()  # a hook speaks on either
        said = "\n".join(part for part in (out, done.err) if part)
        raise GitError(said or msg("git commit exited with status {code}", code=done.code))
    return head(root) or ""
