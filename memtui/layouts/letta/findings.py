"""The letta layout's findings (SPEC §3b, §5), each at the file it is about; every rule
from letta-code's source (rules.py names the files)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import WARNING
from memtui.i18n import N_, Msg, msg
from memtui.layouts.letta import rules

if TYPE_CHECKING:
    from collections.abc import Callable

    from memtui.engine.reader import StoreReader
    from memtui.layouts.letta.parse import LettaData, MemFile

    Add = Callable[..., None]  # check's add(code, file, message, level="")

STATES = {
    "M": N_("modified"),
    "A": N_("added"),
    "D": N_("deleted"),
    "R": N_("renamed"),
    "T": N_("type changed"),
    "?": N_("not tracked"),
    "U": N_("in a merge conflict"),
}


NO_REPO = msg(
    "this folder is no git repository of its own (Letta Code keeps each agent's memory "
    "as one): what `context` shows is what the agent would compile from these files once "
    "they are its committed memory; memtui writes here without committing"
)


def limit(values: object, key: str) -> int | float:
    got = getattr(values, key, None)
    return rules.THRESHOLDS[key] if got is None else got


def check(reader: StoreReader, data: LettaData) -> None:
    def add(code: str, file: str | None, message: str, level: str = "") -> None:
        reader.findings.add(code, file, None, message, level or rules.CODES[code][0])

    if not data.repo:
        add("letta-no-repo", None, NO_REPO)
    if data.git_error:
        add(
            "letta-git",
            None,
            msg("{error}; what the agent loads is unknown", error=data.git_error),
        )
    for rel, code in sorted(data.changed.items()):
        add("letta-uncommitted", rel, uncommitted(rel, code))
    for f in data.files:
        if f.tf is not None and rules.HOOKED.match(f.rel):
            _front(add, f, data)
        if f.tf is not None and f.part in ("self", "memory") and f.limit is not None:
            length = len(f.body.encode("utf-16-le")) // 2  # JavaScript's string length
            if length > f.limit:
                add(
                    "letta-limit",
                    f.rel,
                    msg(
                        "{file}: its body is {length:,} characters, over the `limit: {limit:,}` "
                        "its front matter gives; Letta Code keeps `limit` as a legacy key and "
                        "no longer enforces it (memory-git-hooks.ts): the prompt gets it whole",
                        file=f.rel,
                        length=length,
                        limit=f.limit,
                    ),
                )
    for rel in data.unloaded:
        add(
            "letta-name-unloaded",
            rel,
            msg(
                "{file} is committed, but git quotes its name in `git ls-tree` (a character "
                "past ASCII, a quote, a backslash or a control character), so Letta Code's "
                "prompt compilation never reads it; rename it with plain ASCII characters",
                file=rel,
            ),
        )
    _size(reader, data, add)


def uncommitted(rel: str, code: str) -> Msg:
    state = next((STATES[c] for c in code if c in STATES), N_("changed"))
    return msg(
        "{file} is {state} in the working tree, not committed: the agent loads the committed "
        "HEAD until it is, and Letta Code's memory tools refuse to write while the "
        "repository has uncommitted changes (commit it, or discard it)",
        file=rel,
        state=msg(state),
    )


def _front(add: Add, f: MemFile, data: LettaData) -> None:
    """A change waiting to be committed: what the pre-commit hook says of it (it refuses
    the commit: an error). A file as committed (HEAD's bytes): what stops the agent's
    own memory tool from editing it (no front matter, no description), which the hook
    would refuse too (a warning); a key the hook does not know is not said, as the
    tool drops it on its first edit."""
    assert f.tf is not None
    head = data.committed.get(f.rel)
    if f.rel in data.changed or head is None:
        text = ("\ufeff" if f.tf.bom else "") + f.tf.text
        said, level, hook = rules.hook_problems(text, head), "", True
    else:
        said, level, hook = rules.tool_problems(head), WARNING, False
    described = [s for s in said if s in rules.DESCRIPTION_SAID]
    other = [s for s in said if s not in rules.DESCRIPTION_SAID]
    if other:
        add("letta-frontmatter", f.rel, _refused(f.rel, other, hook), level)
    if described:
        add("letta-description", f.rel, _refused(f.rel, described, hook))


def _refused(rel: str, said: list[str], hook: bool) -> Msg:
    # what Letta Code's hook or tool says is its own (English) text: a value
    if hook:
        return msg(
            "{file}: {said}: the pre-commit hook refuses to commit it",
            file=rel,
            said="; ".join(said),
        )
    return msg(
        "{file}: {said}: Letta Code's memory tool refuses to edit it, and the pre-commit "
        "hook to commit it",
        file=rel,
        said="; ".join(said),
    )


def _size(reader: StoreReader, data: LettaData, add: Add) -> None:
    """estimateSystemPromptSize: every non-hidden system/**/*.md of the working tree,
    whole (front matter too), at ceil(bytes / 4) a file."""
    mine = [f for f in data.files if f.tf is not None and f.rel.startswith(rules.SYSTEM)]
    total = sum(rules.tokens(f.tf.size) for f in mine if f.tf)
    at = limit(reader.thresholds, "letta_prompt_tokens")
    if not mine or total < at:
        return
    most = max(mine, key=lambda f: f.tf.size if f.tf else 0)
    add(
        "letta-prompt-size",
        most.rel,
        msg(
            "system/ is about {tokens:,} tokens (4 bytes a token), past the {at:,} at which "
            "Letta Code flags the system prompt for /doctor; its largest block is {file}: "
            "move detail to external memory (outside system/) and link it",
            tokens=total,
            at=at,
            file=most.rel,
        ),
    )
