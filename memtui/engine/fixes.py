"""Quick fixes for findings: a registry keyed by finding code.

A fix is planned from one finding of a store snapshot and runs as one engine
change through the one Transaction, first as a dry run (the diff to show), then
for real: the same code both times, so what applies is what was shown. It is
refused, with nothing written, if the finding's file changed since the check, and
for any reason the verb it stands for would be (a pointer added to a blocked index
is refused as `add topic` is). Every fix of one code runs in one transaction
(`apply`): one operation, one undo.

A layout declares its fixes (Layout.fixes(): finding code -> planner), asked of the
layout whose parse found the finding; `register(layout, code, planner)` adds one by hand.
The engine's own fixes, for codes every layout gives (redact a `secret`, archive a
planted `entry-injection`, move a `cut-correction`), are named in ENGINE_FIXES and asked
after the layout's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from memtui.engine.model import Finding
from memtui.engine.ops.common import Refused
from memtui.engine.words import clauses
from memtui.engine.write.transaction import Receipt
from memtui.i18n import msg

if TYPE_CHECKING:
    from memtui.engine.fix_batch import Batch

Step = Callable[["Batch"], str]  # makes the fix's change in the batch; says what it did


@dataclass(frozen=True)
class Fix:
    finding: Finding
    title: str  # what it does, in words: "add a pointer to x.md in the index"
    root: str = field(repr=False)
    op: str  # the operation's name in the log: "fix-topic-orphan"
    step: Step = field(repr=False)
    details: Mapping[str, Any] = field(default_factory=dict)  # for the audit log
    choices: tuple[str, ...] = ()  # what the user picks among (--choose), if anything
    needs_choice: bool = False  # the fix does nothing until something is chosen
    ask: str = ""  # what to choose, in words: "the items under '爱好' to archive"
    covers: tuple[Finding, ...] = ()  # other findings it fixes too (every content line)
    # A fix that is a verb of its own (the layout's archive): run as that verb, in its own
    # transaction, instead of a step in the batch; None: `step` runs in the batch.
    runs: Callable[[bool], Receipt] | None = field(default=None, repr=False)
    # What the receipt (a dry run's diff) shows of a file's bytes: a secret masked. None: them.
    shows: Callable[[bytes | None], bytes | None] | None = field(default=None, repr=False)
    # Why undo cannot take it back, said in the confirm each face asks first ("": it can).
    irreversible: str = ""

    def run(self, dry_run: bool) -> Receipt:
        return apply([self], dry_run)


# (root, the store snapshot, the finding, what the user chose) -> the fix
Planner = Callable[[str, Any, Finding, tuple[str, ...]], Fix]

# (layout, code) -> planner, registered by hand. A layout declares its own fixes
# (Layout.fixes()); codes are shared between layouts (one layout's pointer-missing
# is about another index file than another's), so a fix is its layout's only.
_PLANNERS: dict[tuple[str, str], Planner] = {}
ANY = "*"  # an engine fix's layout, as `_every` lists it: whichever layout found it


def register(layout: str, code: str, planner: Planner) -> None:
    """A hook beside Layout.fixes(): `planner` fixes that layout's findings of `code`."""
    _PLANNERS[(layout, code)] = planner


# The engine's own fixes, for the codes of its rules over every layout: code ->
# "module:planner". Named, not imported: they are built on this module, and are
# imported only when a finding of theirs is fixed.
ENGINE_FIXES: dict[str, str] = {
    "secret": "memtui.engine.scan.fixes:redact_secret",
    "entry-injection": "memtui.engine.scan.planted:remove_planted",
    "cut-correction": "memtui.engine.cut_correction_fix:plan",
}


def _engine_fix(code: str) -> Planner | None:
    if code not in ENGINE_FIXES:
        return None
    from importlib import import_module

    module, _, name = ENGINE_FIXES[code].partition(":")
    return getattr(import_module(module), name)


def _planner(finding: Finding) -> Planner | None:
    """The fix's planner for `finding`: asked of the layout whose parse found it, then
    of the fixes for its code in any layout."""
    name = finding.layout or ""
    got = _PLANNERS.get((name, finding.code))
    if got is None and name:
        from memtui.engine.layouts import layout

        try:
            got = layout(name).fixes().get(finding.code)
        except KeyError:  # a layout that is not registered (any more)
            return None
    if got is None:
        got = _engine_fix(finding.code)
    return got


def _every() -> list[tuple[str, str]]:
    """(layout, code) of every fix there is (imports every layout)."""
    from memtui.engine.layouts import registry

    pairs = set(_PLANNERS) | {(ANY, code) for code in ENGINE_FIXES}
    for name, lay in registry().items():
        pairs.update((name, code) for code in lay.fixes())
    return sorted(pairs)


def codes() -> list[str]:
    """Every finding code that has a fix."""
    return sorted({code for _, code in _every()})


def fixable(finding: Finding) -> bool:
    return _planner(finding) is not None


def plan(store: Any, finding: Finding, choose: tuple[str, ...] = ()) -> Fix:
    """The fix for one finding of `store` (Refused if its code has none)."""
    planner = _planner(finding)
    if planner is None:
        raise Refused(
            msg(
                "no quick fix for {code} ({where}); fixes exist for: {codes}",
                code=finding.code,
                where=where(finding),
                codes=", ".join(f"{code} ({layout})" for layout, code in _every()),
            )
        )
    return planner(store.root, store, finding, tuple(choose))


def plan_all(store: Any, findings: list[Finding], choose: tuple[str, ...] = ()) -> list[Fix]:
    """The fixes for `findings` (every finding of a code), in their order, leaving out
    one an earlier fix covers. A choice asked of each (which items, which new name) is
    made finding by finding: refused here unless every fix offers the same choices."""
    fixes: list[Fix] = []
    for finding in findings:
        if not any(finding in fix.covers for fix in fixes):
            fixes.append(plan(store, finding))
    if len(fixes) == 1 or not (choose or any(fix.needs_choice for fix in fixes)):
        return [plan(store, fix.finding, choose) for fix in fixes] if choose else fixes
    first = fixes[0]
    if not first.choices or any(fix.choices != first.choices for fix in fixes):
        raise Refused(
            msg(
                "the {count:,} {code} findings each ask for {value}: name one "
                "by its number or FILE:LINE (`memtui fix` lists them); nothing "
                "was changed",
                count=len(fixes),
                code=first.finding.code,
                value=first.ask or "their own choice",
            )
        )
    return [plan(store, fix.finding, choose) for fix in fixes]


def apply(fixes: list[Fix], dry_run: bool) -> Receipt:
    """Every fix in one transaction (one operation, one undo). One fix refused: nothing
    is written, with its reason. Of several, the others apply and each refused one is
    named in the receipt's `refused`; all refused: nothing is written."""
    from memtui.engine.fix_batch import Batch
    from memtui.engine.write.transaction import Transaction

    first = fixes[0]
    if any(fix.runs is not None for fix in fixes):
        return _run_verbs(fixes, dry_run)
    details = dict(first.details)
    if len(fixes) > 1:
        details = {"code": first.finding.code, "findings": [where(f.finding) for f in fixes]}
    with Transaction(first.root, first.op, details=details, dry_run=dry_run) as tx:
        batch = Batch(tx)
        said: dict[int, str] = {}
        refused: list[dict[str, str]] = []
        # bottom-up, so a line a fix removes moves no line a later fix names
        order = sorted(enumerate(fixes), key=lambda nf: nf[1].finding.line or 0, reverse=True)
        for n, fix in order:
            try:
                said[n] = batch.attempt(fix.step)
            except Refused as exc:
                if len(fixes) == 1:
                    raise
                refused.append({"id": _named(fix.finding), "reason": str(exc)})
        if not said:
            raise Refused(_refused(refused))
        batch.flush()
        tx.details["summary"] = clauses([said[n] for n in sorted(said)])
        if refused:
            tx.details["refused"] = refused
        return _shown(tx.commit(), first.shows)


def _shown(receipt: Receipt, shows: Callable[[bytes | None], bytes | None] | None) -> Receipt:
    if shows is None:
        return receipt
    changes = tuple(replace(c, old=shows(c.old), new=shows(c.new)) for c in receipt.changes)
    return replace(receipt, changes=changes)


def _run_verbs(fixes: list[Fix], dry_run: bool) -> Receipt:
    """Fixes of which some are verbs of their own: the others first, in one batch as
    `apply` runs them, then each verb in its own transaction, bottom-up, all one
    operation (one undo), told as one receipt. As `apply`: one refused, or all, raise;
    of several, each refused one is named in `refused`."""
    from memtui.engine.write.operation import operation

    receipts: list[Receipt] = []
    refused: list[dict[str, Any]] = []
    steps = [fix for fix in fixes if fix.runs is None]
    verbs = sorted(
        (fix for fix in fixes if fix.runs is not None),
        key=lambda f: f.finding.line or 0,
        reverse=True,
    )
    with operation():
        if steps:
            try:
                receipts.append(apply(steps, dry_run))
            except Refused as exc:  # (a verb is among fixes: never the only one)
                refused += [{"id": _named(f.finding), "reason": str(exc)} for f in steps]
        for fix in verbs:
            try:
                receipts.append(fix.runs(dry_run))  # type: ignore[misc]
            except Refused as exc:
                if len(fixes) == 1:
                    raise
                refused.append({"id": _named(fix.finding), "reason": str(exc)})
    if not receipts:
        raise Refused(_refused(refused))
    if len(receipts) == 1 and not refused:
        return _shown(receipts[0], fixes[0].shows)
    first = receipts[0]
    details: dict[str, Any] = {
        "code": fixes[0].finding.code,
        "findings": [where(f.finding) for f in fixes],
    }
    refused += [r for got in receipts for r in got.details.get("refused", ())]
    if refused:
        details["refused"] = refused
    changes = tuple(c for r in receipts for c in r.changes)
    notes = tuple(n for r in receipts for n in r.notes)
    merged = Receipt(first.txid, fixes[0].op, changes, dry_run, details, notes)
    return _shown(merged, fixes[0].shows)


def where(f: Finding) -> str:
    if f.file is None:
        return msg("the store")
    return f.file if f.line is None else f"{f.file}:{f.line}"


def _named(f: Finding) -> str:
    """A refused fix as listed: `secret at notes.md:3`."""
    return msg("{code} at {where}", code=f.code, where=where(f))


def _refused(refused: list[dict[str, Any]]) -> str:
    """Every fix refused: each with its reason, in one refusal."""
    return clauses([msg("{id}: {reason}", id=r["id"], reason=r["reason"]) for r in refused])


_AT_LINE = re.compile(r"(.+):(\d+)")


def find_findings(store: Any, ref: str) -> list[Finding]:
    """The findings `ref` names: a CODE names every one of that code that has a fix (all
    fixed at once, as `ruff --fix`); anything else names one (find_finding)."""
    hits = [f for f in store.findings if f.code == ref]
    if hits:
        return [f for f in hits if fixable(f)] or hits[:1]
    return [find_finding(store, ref)]


def find_finding(store: Any, ref: str) -> Finding:
    """The finding `ref` names: N (the Nth that `memtui check` lists, from 1), FILE:LINE,
    FILE (a finding without a line) or a CODE (its first finding). Refused if none, or
    if FILE:LINE / FILE names more than one fixable finding."""
    found: list[Finding] = list(store.findings)
    if ref.isdigit():
        n = int(ref)
        if not 1 <= n <= len(found):
            raise Refused(
                msg(
                    "there is no finding {n}: `memtui check` lists {count:,}", n=n, count=len(found)
                )
            )
        return found[n - 1]
    match = _AT_LINE.fullmatch(ref)
    if match:
        hits = [f for f in found if f.file == match.group(1) and f.line == int(match.group(2))]
    else:
        hits = [f for f in found if f.code == ref] or [f for f in found if f.file == ref]
        if hits and hits[0].code == ref:
            return hits[0]  # a code: its first finding
    if not hits:
        raise Refused(msg("no finding {ref!r} (see `memtui check`); nothing was changed", ref=ref))
    if len(hits) > 1:
        fixes = [f for f in hits if fixable(f)]
        if len(fixes) == 1:
            return fixes[0]
        listed = ", ".join(f"{f.code}" for f in hits)
        raise Refused(
            msg(
                "{ref} has {count:,} findings ({listed}): name one by its number",
                ref=ref,
                count=len(hits),
                listed=listed,
            )
        )
    return hits[0]


def read_checked(batch: Batch, store: Any, rel: str) -> Any:
    """The finding's file as a TextFile (as the fixes before left it), under the lock,
    if it is as the check read it."""
    unchanged(batch, store, rel)
    return batch.text(rel)


def unchanged(batch: Batch, store: Any, rel: str) -> bytes:
    """The file's bytes under the lock, Refused if they are not what the check read
    (the agent wrote it since: the finding may not hold any more)."""
    from memtui.engine.write.files import sha256

    data = batch.as_read(rel)
    seen = store.texts.get(rel)
    if data is None or seen is None or sha256(data) != seen.digest():
        raise Refused(
            msg(
                "{rel} changed since it was checked (the agent wrote to it?); "
                "nothing was changed: check again",
                rel=rel,
            )
        )
    return data
