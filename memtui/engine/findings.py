"""The finding codes no layout owns (SPEC §5, plus a few of memtui's own), every code
declared (all_codes), and collecting findings with their declared levels."""

from __future__ import annotations

from memtui.engine.model import ERROR, WARNING, Finding
from memtui.i18n import N_, msg

# The codes no one layout owns: code -> (default level, what it means). Each layout
# declares its own (Layout.codes); a finding's level comes from its layout's table,
# then this one. Codes are a contract: never rename.
SHARED: dict[str, tuple[str, str]] = {
    "json-invalid": (ERROR, N_("a JSON file that does not parse or has the wrong shape")),
    "entry-injection": (
        ERROR,
        N_(
            "text the agent would take as an instruction planted in its memory: to ignore its "
            "rules, hide from the user or send data out, hidden HTML, invisible characters"
        ),
    ),
    "secret": (ERROR, N_("an API key, token, private key or password in memory, by its format")),
    "cut-correction": (
        WARNING,
        N_(
            "an entry past the cut restates or corrects one before it, so the agent acts on "
            "the stale one"
        ),
    ),
    "path-escape": (ERROR, N_("a reference or link that leads outside the root")),
    "fence-unclosed": (WARNING, N_("a ``` or ~~~ code fence that is never closed")),
    "unreadable": (ERROR, N_("not UTF-8, binary, or over the size limit")),
    "config-invalid": (WARNING, N_("memtui.toml could not be used as written")),
    "txn-interrupted": (ERROR, N_("a change was interrupted; memtui's next change settles it")),
    "recovery-conflict": (
        WARNING,
        N_("an interrupted change could not reach a file the agent wrote since; both kept"),
    ),
}


# What memory must never hold: `check` (and its pre-commit hook) fails on these whatever
# their level (a layout's own scan may report one as a warning: Hermes blocks it).
FAILING: frozenset[str] = frozenset({"secret", "entry-injection"})

# What to do about a code, beyond what it means: SARIF's rule help (`check --format
# sarif`), for the codes whose fix is not evident from their meaning.
HELP: dict[str, str] = {
    "secret": (
        "Agent memory is sent to the model provider at the start of every session, so a key "
        "in it leaks on every run. Found by provider format (detect-secrets' plugins and "
        "memtui's own, offline); the value is never printed, only its kind and line. Redact "
        "it in the file, revoke it where it was issued, and keep secrets in the agent's "
        "environment instead of its memory."
    ),
    "entry-injection": (
        "Text the agent will read as its own notes that tells it to ignore its rules, to hide "
        "something from the user or to send data out (a command or an image URL carrying a "
        "variable or a file), or that hides text from a person but not from the model "
        "(invisible or bidirectional characters, HTML hidden by style, instructions in a "
        "comment). It steers every later session. Remove it unless you wrote it; approving a "
        "queued write that holds one is refused unless allowed (accept --allow-flagged, or "
        "the app's confirm), and the audit log records that."
    ),
}


def all_codes() -> dict[str, tuple[str, str]]:
    """Every declared code: the shared ones, then each registered layout's in detection
    order (a code two layouts declare keeps the first one's meaning): for `check`'s
    docs and SARIF rules and for the conformance suite. Imports every layout."""
    from memtui.engine.layouts import registry

    out = dict(SHARED)
    for lay in registry().values():
        for code, declared in lay.codes.items():
            out.setdefault(code, declared)
    return out


def __getattr__(name: str) -> dict[str, tuple[str, str]]:
    # CODES, as the faces knew it (every code in one table): now all_codes()
    if name == "CODES":
        return all_codes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def unparsed(exc: Exception) -> str:
    """Why a JSON, TOML or YAML text does not parse, in words: Python's own messages
    for these two speak to a programmer (`sys.set_int_max_str_digits()`)."""
    if isinstance(exc, RecursionError):
        return msg("it is nested too deeply to read")
    if "integer string conversion" in str(exc):
        return msg("it holds a number of 4,300 digits or more")
    return str(exc)


class Findings:
    """Collects findings for one store; `add` takes the level from the code's declaration
    (the running parse's layout's codes, then the shared ones) unless given."""

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self._layout: str | None = None
        self._codes: dict[str, tuple[str, str]] = SHARED

    @property
    def layout(self) -> str | None:
        """The layout whose parse is running, if one is: its findings are its own."""
        return self._layout

    @layout.setter
    def layout(self, name: str | None) -> None:
        from memtui.engine.layouts import layout

        self._layout = name
        self._codes = SHARED if name is None else {**SHARED, **layout(name).codes}

    def add(
        self,
        code: str,
        file: str | None,
        line: int | None,
        message: str,
        level: str | None = None,
    ) -> None:
        declared = self._codes.get(code)
        if declared is None:  # a layout's slip: shown, never a crash of `check`
            message = (
                msg(
                    "{message} (code {code!r} is not declared by the {layout} layout: a bug "
                    "to report)",
                    message=message,
                    code=code,
                    layout=self._layout,
                )
                if self._layout
                else msg(
                    "{message} (code {code!r} is not declared by memtui: a bug to report)",
                    message=message,
                    code=code,
                )
            )
            level = level or ERROR
        else:
            level = level or declared[0]
        self.items.append(Finding(code, level, file, line, message, self._layout))
