"""An id names what the user saw (SPEC §6): an entry's fingerprint, given with an
action (`expect`, `--expect`, or `ID@FINGERPRINT`), makes it act on that entry or on
nothing. Ids whose meaning depends on their neighbours (an event's number) are their
layout's (Layout.find)."""

from __future__ import annotations

import hashlib
import re

from memtui.engine.ops.common import Refused
from memtui.engine.textfile import BOM
from memtui.engine.write.transaction import Conflict
from memtui.i18n import msg

DIGITS = 12
_FP = re.compile(r"[0-9a-f]{12}")
_SUFFIX = re.compile(r"@([0-9a-fA-F]{12})\Z")


def fingerprint(text: str) -> str:
    """The entry as shown, in 12 hex digits: sha256 of its text up to its last
    non-blank character. The blank lines that part it from the next entry are not
    shown, and the agent's append after the last entry adds one."""
    data = text.rstrip().encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:DIGITS]


def fingerprint_bytes(raw: bytes) -> str:
    """fingerprint() of a whole file's bytes, as its text is shown (BOM removed)."""
    return fingerprint(_shown_text(raw))


def _shown_text(raw: bytes) -> str:
    body = raw[len(BOM) :] if raw.startswith(BOM) else raw
    return body.decode("utf-8", "surrogateescape")


def checked(expect: str | None) -> str | None:
    """A fingerprint as given (any case), or Refused if it is not one."""
    if expect is None:
        return None
    value = expect.strip().lower() if isinstance(expect, str) else ""
    if not _FP.fullmatch(value):
        raise Refused(
            msg(
                "{expect!r} is not a fingerprint (12 hex digits, as `memtui "
                "list --json` and `memtui show --json` print it)",
                expect=expect,
            )
        )
    return value


def split_expect(ref: str, expect: str | None = None) -> tuple[str, str | None]:
    """`ID@FINGERPRINT` -> (ID, fingerprint); `expect`, if given too, must agree."""
    want = checked(expect)
    match = _SUFFIX.search(ref)
    if match is None:
        return ref, want
    inline = match.group(1).lower()
    if want is not None and want != inline:
        raise Refused(
            msg(
                "{ref!r} carries fingerprint {inline}, but {want} was expected",
                ref=ref,
                inline=inline,
                want=want,
            )
        )
    return ref[: match.start()], inline


def check_shown(entry_id: str, text: str | None, expect: str | None, where: str) -> None:
    """Conflict unless the entry's text now (None: it is gone) is what was shown."""
    if expect is None:
        return
    if text is None:
        raise Conflict(
            msg(
                "{entry_id} is no longer in {where} (removed or renamed since "
                "it was shown, by the agent?); nothing was changed — reload "
                "and try again",
                entry_id=entry_id,
                where=where,
            )
        )
    if fingerprint(text) != expect:
        raise Conflict(
            msg(
                "{entry_id} changed since it was shown (the agent wrote to "
                "{where}?); nothing was changed — reload and try again",
                entry_id=entry_id,
                where=where,
            )
        )


def check_shown_bytes(entry_id: str, raw: bytes | None, expect: str | None, where: str) -> None:
    """check_shown() for an entry that is a whole file, from its bytes."""
    if expect is not None:
        check_shown(entry_id, None if raw is None else _shown_text(raw), expect, where)
