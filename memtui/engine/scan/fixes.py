"""The quick fixes for what memory must never hold, whichever layout found it
(named in engine.fixes.ENGINE_FIXES): a `secret` is redacted in place (its value replaced
by a placeholder naming its kind; `memtui undo` puts it back from .history/, which is
why `memtui purge` exists); an `entry-injection` has its entry archived through its
layout's own archive, so `memtui restore` brings it back (scan/planted.py)."""

from __future__ import annotations

from typing import Any

from memtui.engine.fix_batch import Batch
from memtui.engine.fixes import Fix, read_checked, where
from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused
from memtui.engine.scan.redact import (
    Secret,
    kinds_said,
    masked_bytes,
    on_line,
    placeholder,
    redact,
)
from memtui.i18n import N_, msg

SECRET = "secret"


def _kinds(found: list[Secret]) -> str:
    return kinds_said(s.kind for s in found)


REDACT, PURGE = "redact", "purge"
NO_UNDO = N_(
    "This cannot be undone: the value is taken out of every snapshot in .history/ too, "
    "so no undo or rollback brings it back."
)


def redact_secret(root: str, store: Any, finding: Finding, choose: tuple[str, ...]) -> Fix:
    """Every secret on the finding's line (a private key: its whole block) replaced by
    its placeholder; the other secret findings of those lines are covered. Chosen
    `purge`: out of every snapshot of the file too (ops.purge), which cannot be undone."""
    rel = finding.file or ""
    tf = store.texts.get(rel)
    found = on_line(tf.text, finding.line) if tf is not None else []
    if tf is None or not found:
        raise Refused(
            msg(
                "no secret at {where} any more; nothing was changed: check again",
                where=where(finding),
            )
        )
    if any(c not in (REDACT, PURGE) for c in choose):
        raise Refused(
            msg(
                "a secret is fixed by {redact} or {purge}, not {chosen}",
                redact=REDACT,
                purge=PURGE,
                chosen=", ".join(choose),
            )
        )

    def step(batch: Batch) -> str:
        now = read_checked(batch, store, rel)
        # bottom-up (fixes.apply): the lines above this one are as the check read them
        here = on_line(now.text, finding.line)
        if [s.kind for s in here] != [s.kind for s in found]:
            raise Refused(
                msg("the secret at {where} moved; nothing was changed", where=where(finding))
            )
        batch.write(rel, now.encode(redact(now.text, here)))
        return msg("redact the {kinds} at {where}", kinds=_kinds(here), where=where(finding))

    lines = range(min(s.first for s in found), max(s.last for s in found) + 1)
    covers = tuple(
        f
        for f in store.findings
        if f.code == SECRET and f.file == rel and f.line in lines and f != finding
    )
    # the title's values: which secrets, where, and what stands for them after
    said = {
        "kinds": _kinds(found),
        "where": where(finding),
        "shown": ", ".join(dict.fromkeys(placeholder(s.kind) for s in found)),
    }
    details = {"file": rel, "line": finding.line, "kinds": [s.kind for s in found]}
    offer: dict[str, Any] = {
        "choices": (REDACT, PURGE),
        "ask": msg(
            "{redact} (undo can bring it back) or {purge} (out of .history/ too; no undo)",
            redact=REDACT,
            purge=PURGE,
        ),
        "covers": covers,
        "shows": masked_bytes,
    }
    if PURGE in choose:
        from memtui.engine.ops.purge import purge_values

        values = [(tf.text[s.start : s.stop], s.kind) for s in found]
        digest = tf.digest()

        def runs(dry_run: bool) -> Any:
            done = purge_values(root, rel, values, expect=digest, dry_run=dry_run)
            return done.receipt

        title = msg(
            "replace the {kinds} at {where} by {shown} and purge it from every snapshot of "
            "the file in .history/",
            **said,
        )
        return Fix(
            finding, title, root, "purge", step, details, runs=runs, irreversible=NO_UNDO, **offer
        )
    title = msg(
        "replace the {kinds} at {where} by {shown} (undo puts it back; `memtui purge` takes "
        "it out of .history too)",
        **said,
    )
    return Fix(finding, title, root, "fix-secret", step, details, **offer)
