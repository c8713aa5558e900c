"""The hermes layout's findings (SPEC §3b, §5), each at the line it is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memtui.engine.model import ERROR, INFO, WARNING
from memtui.i18n import Msg, msg
from memtui.layouts.hermes import rules
from memtui.layouts.hermes.data import ARCHIVE, BOM_CHAR, HermesData, MemoryFile

if TYPE_CHECKING:
    from memtui.engine.reader import StoreReader

# A refused replay's kind -> the finding it is reported as.
_QUEUE_CODES = {
    "stale": "pending-stale",
    "ambiguous": "pending-stale",
    "over-limit": "pending-over-limit",
    "threat": "entry-injection",
    "bad": "pending-bad-record",
}


def check(reader: StoreReader, data: HermesData) -> None:
    for mf in data.files:
        _memory_file(reader, mf, data.loading.loaded(mf.target))
    for item in data.queue:
        if item.error is not None:
            reader.findings.add(
                "pending-bad-record",
                item.rel,
                None,
                msg(
                    "{file} is {error}: Hermes cannot replay it; reject it",
                    file=item.rel,
                    error=item.error,
                ),
            )
        elif item.kind in _QUEUE_CODES and item.record is not None:
            reader.findings.add(
                _QUEUE_CODES[item.kind],
                item.rel,
                None,
                msg(
                    "staged {action} on {file}: approving it would be refused, {problem}",
                    action=item.record.action,
                    file=rules.FILES[item.record.target],
                    problem=item.problem,
                ),
                WARNING if item.kind == "threat" else None,  # Hermes refuses it: no error
            )
    for item in data.skills:
        if item.error is not None:
            said = msg("{file} is {error}", file=item.rel, error=item.error)
            reader.findings.add("json-invalid", item.rel, None, said)
    for line, why in data.archive_errors:
        said = msg("{file} line {line} is {error}", file=ARCHIVE, line=line, error=why)
        reader.findings.add("json-invalid", ARCHIVE, line, said)


def _memory_file(reader: StoreReader, mf: MemoryFile, loaded: bool) -> None:
    add = reader.findings.add
    name = mf.rel.rsplit("/", 1)[-1]
    text = mf.tf.text
    chars, limit = mf.chars, mf.limit
    share = chars / limit if limit > 0 else 1.0
    if chars > limit or share >= rules.WARN_SHARE:
        over = chars > limit
        add(
            "char-limit",
            mf.rel,
            None,
            _full(name, mf, over, loaded),
            level=(ERROR if over else None) if loaded else INFO,
        )
    if mf.drift:
        at = rules.drift_offset(text, limit)
        add(
            "memory-drift",
            mf.rel,
            rules.line_at(text, at) if at is not None else None,
            msg(
                "{file}: Hermes refuses to replace or remove entries here: {why}",
                file=name,
                why=mf.drift,
            ),
        )
    first: dict[str, int] = {}
    for n, piece in enumerate(mf.pieces, 1):
        line = rules.line_at(text, piece.start)
        if piece.text in first:
            add(
                "entry-duplicate",
                mf.rel,
                line,
                msg(
                    "{file} entry {n} repeats entry {first}: Hermes drops the copy on its "
                    "next write",
                    file=name,
                    n=n,
                    first=first[piece.text],
                ),
            )
        else:
            first[piece.text] = n
        found = rules.threats(BOM_CHAR + piece.text if n == 1 and mf.tf.bom else piece.text)
        if found:
            add(
                "entry-injection",
                mf.rel,
                line,
                msg(
                    "{file} entry {n} reads like a prompt injection ({found}): Hermes "
                    "replaces it with a [BLOCKED] note in the prompt; archive or edit it",
                    file=name,
                    n=n,
                    found=", ".join(found),
                ),
                WARNING,  # blocked from the prompt: not the engine's error of one that is not
            )


def _full(name: str, mf: MemoryFile, over: bool, loaded: bool) -> Msg:
    # one whole sentence a case: over the limit or near it, loaded or not
    v = {"file": name, "chars": mf.chars, "limit": mf.limit}
    v |= {"share": rules.share(mf.chars, mf.limit), "unloaded": rules.not_loaded(mf.target)}
    if over and loaded:
        return msg(
            "{file} holds {chars:,} of its {limit:,} characters ({share}%): Hermes refuses "
            "every add and replace that does not shrink it",
            **v,
        )
    if over:
        return msg(
            "{file} holds {chars:,} of its {limit:,} characters ({share}%): Hermes refuses "
            "every add and replace that does not shrink it; it is {unloaded}",
            **v,
        )
    if loaded:
        return msg(
            "{file} holds {chars:,} of its {limit:,} characters ({share}%); Hermes refuses "
            "an add past {limit:,}",
            **v,
        )
    return msg(
        "{file} holds {chars:,} of its {limit:,} characters ({share}%); Hermes refuses an "
        "add past {limit:,}; it is {unloaded}",
        **v,
    )
