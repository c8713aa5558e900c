"""The quick fixes for what memory must never hold, whichever layout found it
(engine.fixes.register(ANY, ...)): a `secret` is redacted in place (its value replaced
by a placeholder naming its kind; `memtui undo` puts it back from .history/, which is
why `memtui purge` exists); an `entry-injection` has its entry archived through its
layout's own archive, so `memtui restore` brings it back (scan/planted.py)."""

from __future__ import annotations

from typing import Any

from memtui.engine.fix_batch import Batch
from memtui.engine.fixes import ANY, Fix, read_checked, register, where
from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused
from memtui.engine.scan.planted import INJECTION, remove_planted
from memtui.engine.scan.redact import Secret, masked_bytes, on_line, placeholder, redact

SECRET = "secret"


def _kinds(found: list[Secret]) -> str:
    return " and ".join(dict.fromkeys(s.kind for s in found))


REDACT, PURGE = "redact", "purge"
NO_UNDO = (
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
    if not found:
        raise Refused(f"no secret at {where(finding)} any more; nothing was changed: check again")
    if any(c not in (REDACT, PURGE) for c in choose):
        raise Refused(f"a secret is fixed by {REDACT} or {PURGE}, not {', '.join(choose)}")

    def step(batch: Batch) -> str:
        now = read_checked(batch, store, rel)
        # bottom-up (fixes.apply): the lines above this one are as the check read them
        here = on_line(now.text, finding.line)
        if [s.kind for s in here] != [s.kind for s in found]:
            raise Refused(f"the secret at {where(finding)} moved; nothing was changed")
        batch.write(rel, now.encode(redact(now.text, here)))
        return f"redact the {_kinds(here)} at {where(finding)}"

    lines = range(min(s.first for s in found), max(s.last for s in found) + 1)
    covers = tuple(
        f
        for f in store.findings
        if f.code == SECRET and f.file == rel and f.line in lines and f != finding
    )
    shown = ", ".join(dict.fromkeys(placeholder(s.kind) for s in found))
    details = {"file": rel, "line": finding.line, "kinds": [s.kind for s in found]}
    offer: dict[str, Any] = {
        "choices": (REDACT, PURGE),
        "ask": f"{REDACT} (undo can bring it back) or {PURGE} (out of .history/ too; no undo)",
        "covers": covers,
        "shows": masked_bytes,
    }
    if PURGE in choose:
        from memtui.engine.ops.purge import purge_values

        values = [(tf.text[s.start : s.stop], s.kind) for s in found]  # type: ignore[union-attr]
        digest = tf.digest()  # type: ignore[union-attr]

        def runs(dry_run: bool) -> Any:
            done = purge_values(root, rel, values, expect=digest, dry_run=dry_run)
            return done.receipt

        title = f"replace the {_kinds(found)} at {where(finding)} by {shown} and purge it from "
        title += "every snapshot of the file in .history/"
        return Fix(
            finding, title, root, "purge", step, details, runs=runs, irreversible=NO_UNDO, **offer
        )
    title = (
        f"replace the {_kinds(found)} at {where(finding)} by {shown} "
        "(undo puts it back; `memtui purge` takes it out of .history too)"
    )
    return Fix(finding, title, root, "fix-secret", step, details, **offer)


register(ANY, SECRET, redact_secret)
register(ANY, INJECTION, remove_planted)
