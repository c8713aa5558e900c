"""Changes to a Letta Code memory repository: editing a file, archiving a block out of
`system/` (to `archive/system/…`, where the agent sees only its path) and restoring it.
Each is one memtui transaction (lock, conflict check, snapshot, atomic replace,
read-back, audit), then one git commit of exactly the files it changed (commit_change,
which the detection's after_change calls for every change, an undo's too), through the
repository's own hooks, so that the agent loads it from its next session: an edit
reaches a Letta agent only once committed (src/backend/local/system-prompt-compilation.ts
reads HEAD).

Before anything is written: git must be there and idle (no `.git/index.lock`, no rebase
or merge under way), a `read_only: true` file is left alone, and a `system/` or
`reference/` file must keep the front matter the pre-commit hook wants
(memory-git-hooks.ts): each refusal says why, and nothing is written. If the commit is
refused all the same (a hook of the user's), the change stays in the working tree,
uncommitted, and the receipt says so plainly (`git: NOT committed …`).

memtui's own files in the repository (`.memory.lock`, `.history/`, its temp files) are
listed in `.git/info/exclude`, git's local ignore list, before the first write: else
`git status` shows them and Letta Code's memory tools refuse to write ("Memory repo has
uncommitted changes", memory-git.ts assertMemoryRepoCleanForWrite).
"""

from __future__ import annotations

import os
from typing import Any

from memtui.engine.identity import check_shown, split_expect
from memtui.engine.ops.common import Refused, thresholds
from memtui.engine.ops.lines import check_root, load
from memtui.engine.write.transaction import Receipt, Transaction
from memtui.i18n import msg
from memtui.layouts.letta import git
from memtui.layouts.letta.parse import KIND, is_memory
from memtui.layouts.letta.place import has_repo
from memtui.layouts.letta.rules import ARCHIVE, HOOKED, SYSTEM, fm_value, hook_problems

# git's local ignore list: memtui's lock, history and temp files (engine.write).
EXCLUDE = ("/.memory.lock", "/.history/", ".*.memtui-*.tmp")
EXCLUDE_NOTE = "# memtui's own files (its lock, history, temp files): not memory"


def path_of(name: str) -> str:
    """The file an id's name is, checked: a memory `.md` path inside the repository."""
    norm = os.path.normpath(name) if name else ""
    if norm != name or name.startswith("/") or "\x00" in name or not is_memory(name):
        raise Refused(
            msg(
                "{KIND}:{name} is not a memory file of the repository (a .md path)",
                KIND=KIND,
                name=name,
            )
        )
    return name


# --- before a write: git there and idle, the file not read-only -----------------------


def ready(root: str) -> None:
    """Refused unless a commit can follow the write: nothing is written otherwise. A
    folder that is no repository of its own is written without a commit."""
    if not has_repo(root):
        return
    try:
        folder = git.git_dir(root)
    except git.GitError as exc:
        raise Refused(msg("{exc}; nothing was written", exc=exc)) from None
    if folder is None:
        raise Refused(
            msg(
                "{root} is not a git repository (git rev-parse failed); nothing was written",
                root=root,
            )
        )
    why = git.busy(folder)
    if why is not None:
        raise Refused(
            msg("{why}: memtui cannot commit now, so it writes nothing; try again later", why=why)
        )


def committed_text(root: str, rel: str) -> str | None:
    if not has_repo(root):
        return None
    try:
        return git.blobs(root, [rel]).get(rel, b"").decode("utf-8", "replace") or None
    except git.GitError:
        return None


def read_only(root: str, rel: str) -> str | None:
    """Why `rel` is never changed: HEAD's front matter says `read_only: true` (the server
    keeps it; the pre-commit hook refuses any change to it)."""
    if not HOOKED.match(rel) or not os.path.lexists(os.path.join(root, ".git")):
        return None
    head = committed_text(root, rel)
    if head is not None and fm_value(head, "read_only") == "true":
        return (
            f"{rel} is read_only in its front matter: Letta keeps it, and the pre-commit "
            "hook refuses any change to it"
        )
    return None


def _refuse_read_only(root: str, entry_id: str, rel: str) -> None:
    why = read_only(root, rel)
    if why is not None:
        raise Refused(msg("{entry_id}: {why}; nothing was written", entry_id=entry_id, why=why))


def exclude(root: str) -> None:
    """memtui's own files in git's local ignore list (.git/info/exclude), once."""
    if not has_repo(root):
        return
    path = git.git_path(root, "info/exclude")  # a worktree's is its main repository's
    if path is None:
        return
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    have = set(old.splitlines())
    missing = [p for p in EXCLUDE if p not in have]
    if not missing:
        return
    sep = "" if not old or old.endswith("\n") else "\n"
    new = old + sep + "\n".join([EXCLUDE_NOTE, *missing]) + "\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temp = f"{path}.memtui.tmp"
    with open(temp, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(new)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)


# --- after the write: the commit -------------------------------------------------------


def commit_change(root: str, receipt: Receipt) -> None:
    """Commit what the transaction changed (LettaDetection.after_change: an edit, an
    archive, an undo, a rollback alike), its receipt told what git did: committed (the
    new HEAD), or why not, in plain words."""
    paths = list(dict.fromkeys(p for c in receipt.changes for p in (c.source, c.path) if p))
    if not paths:
        return
    if not has_repo(root):
        receipt.details["git"] = (
            "NOT committed: this folder is no git repository of its own (Letta Code keeps "
            "one per agent): the agent loads the change once it is committed there"
        )
        return
    moved = [f"{c.source} (to {c.path})" for c in receipt.changes if c.source]
    written = [c.path for c in receipt.changes if not c.source]
    try:
        sha = git.commit(root, paths, f"memtui: {receipt.op} {', '.join(moved + written)}")
    except git.GitError as exc:
        receipt.details["git"] = (
            f"NOT committed: {exc}. The change is written to the working tree and stays "
            "there, uncommitted: the agent does not load it until it is committed"
        )
        return
    receipt.details["git"] = f"committed {sha[:12]}: the agent loads it from its next session"


def _dry(receipt: Receipt, paths: list[str]) -> Receipt:
    """A dry run's receipt, saying what would be committed."""
    if receipt.dry_run:
        receipt.details["git"] = f"would commit {', '.join(paths)}"
    return receipt


# --- edit ------------------------------------------------------------------------------


def edit(
    root: str,
    name: str,
    new_text: str,
    *,
    expect: str | None = None,
    seen_text: str | None = None,
    insist: bool = False,
    dry_run: bool = False,
) -> Receipt:
    """The whole file's text replaced (front matter included), then committed."""
    from memtui.engine.ops.replace import replace_entry, whole

    name, fp = split_expect(name, expect)
    rel = path_of(name)
    entry_id = f"{KIND}:{rel}"
    ready(root)
    _refuse_read_only(root, entry_id, rel)
    head = committed_text(root, rel)

    def target(_root: str, _shown: str | None, _seen: bool) -> Any:
        return rel, whole, None

    def hooked(change: Any) -> None:
        if not HOOKED.match(rel):
            return
        said = hook_problems(change.after, head)
        if said:
            raise Refused(
                msg(
                    "{entry_id}: Letta Code's pre-commit hook would refuse this "
                    "text: {join} (a memory file begins with front matter holding "
                    "a non-empty `description:`); nothing was written",
                    entry_id=entry_id,
                    join="; ".join(said),
                )
            )

    if not dry_run:
        exclude(root)
    receipt = replace_entry(
        root,
        KIND,
        new_text,
        target,
        entry_id=entry_id,
        seen_text=seen_text,
        expect=fp,
        insist=insist,
        dry_run=dry_run,
        check=hooked,
    )
    return _dry(receipt, [rel])


# --- archive and restore --------------------------------------------------------------


def archive(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """A block moved out of `system/` to `archive/system/…`: out of the prompt (the
    agent sees its path among its external files), byte for byte, then committed."""
    name, fp = split_expect(name, expect)
    rel = path_of(name)
    entry_id = f"{KIND}:{rel}"
    if rel.startswith(ARCHIVE):
        raise Refused(
            msg(
                "{entry_id} is archived already (restore it: memtui restore {entry_id})",
                entry_id=entry_id,
            )
        )
    if not rel.startswith(SYSTEM):
        raise Refused(
            msg(
                "{entry_id} is not in system/: the agent sees only its path, "
                "and reads it on demand; only a block of system/ (what the "
                "prompt holds) is archived",
                entry_id=entry_id,
            )
        )
    return _move(root, "archive", entry_id, rel, ARCHIVE + rel, fp, dry_run)


def restore(root: str, name: str, *, expect: str | None = None, dry_run: bool = False) -> Receipt:
    """An archived block back in `system/`, where it was, then committed."""
    name, fp = split_expect(name, expect)
    rel = path_of(name).removeprefix(ARCHIVE)
    entry_id = f"{KIND}:{rel}"
    if not rel.startswith(SYSTEM):
        raise Refused(
            msg("{entry_id}: only a block of system/ is archived, and restored", entry_id=entry_id)
        )
    return _move(root, "restore", entry_id, ARCHIVE + rel, rel, fp, dry_run)


def _move(
    root: str, verb: str, entry_id: str, src: str, dst: str, fp: str | None, dry_run: bool
) -> Receipt:
    check_root(root)
    ready(root)
    _refuse_read_only(root, entry_id, src)
    limits = thresholds(root)
    if not dry_run:
        exclude(root)
    with Transaction(root, verb, details={"entry": entry_id}, dry_run=dry_run) as tx:
        tf = load(tx, src, limits, must_exist=False)
        if tf is None:
            v = {"entry_id": entry_id, "src": src}
            raise Refused(
                msg("{entry_id} is not archived ({src} does not exist); nothing was changed", **v)
                if verb == "restore"
                else msg("{entry_id} is not there ({src} does not exist); nothing was changed", **v)
            )
        check_shown(entry_id, tf.text, fp, src)
        if tx.read(dst) is not None:
            raise Refused(
                msg(
                    "{dst} exists already: {entry_id} is left where it is",
                    dst=dst,
                    entry_id=entry_id,
                )
            )
        tx.move(src, dst)
        parent = os.path.dirname(src)
        while parent.startswith(ARCHIVE):  # archive/system/ goes when a restore empties it
            tx.prune(parent)
            parent = os.path.dirname(parent)
        if src.startswith(ARCHIVE):
            tx.prune(ARCHIVE.rstrip("/"))
        tx.details.update({"file": src, "to": dst})
        receipt = tx.commit()
    return _dry(receipt, [src, dst])
