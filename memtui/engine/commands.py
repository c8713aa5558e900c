"""A layout's commands as data: what the faces offer for it (`memtui add <name>`,
`memtui maintain`, the app's palette and its add dialog), the questions each asks and
what it runs. A layout declares them (`Detection.commands`); the CLI makes the
questions arguments, the app asks them in turn; neither knows a layout.

Declaring a command imports nothing of its write path: `run`, `check`, `options` and
`shape` are "module:function" strings, imported when the command is run or asked (a
function itself will do where importing it costs nothing)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from importlib import import_module
from string import Formatter
from typing import TYPE_CHECKING, Any

from memtui.i18n import Msg

if TYPE_CHECKING:
    from memtui.engine.store import Store

# The names the faces keep for themselves: an answer is never called one of these.
RESERVED = frozenset(("verb", "kind", "command", "store", "store_path", "json", "dry_run"))
RESERVED |= {"handler", "apply", "root"}
KINDS = ("text", "int", "file")
# A function, named "module:function" so that declaring it imports nothing (or itself).
Spec = str | Callable[..., Any]


@dataclass(frozen=True)
class Ask:
    """One question of a command: an argument of the CLI, a question of the app."""

    name: str  # the answer's name: the run's keyword and the CLI's dest
    help: str  # the CLI's help for it
    prompt: str = ""  # the app's question ({name}: an earlier answer); "": not asked there
    flag: str = ""  # the CLI's option (`--evidence`); "": a positional
    metavar: str | None = None  # the CLI's name for its value
    choices: tuple[str, ...] = ()  # the only answers there are (the app offers them)
    picks: tuple[tuple[str, Any], ...] = ()  # the app's choice as (label, value) instead
    optional: bool = False  # may be left out: no option given, an empty answer
    kind: str = "text"  # text, int, or file (the CLI reads the file named, -: stdin)
    placeholder: str = ""  # the app's hint in an empty answer
    options: Spec = ""  # "module:function"(store) -> the answers the store suggests
    other: str = ""  # with options: the question for an answer not among them
    check: Spec = ""  # "module:function"(value, answers): raises MemtuiError if refused
    shape: Spec = ""  # "module:function"(answers) -> fields to change, or None: not asked

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name in RESERVED:
            raise ValueError(f"{self.name!r} cannot name an answer")
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind {self.kind!r} is not one of {KINDS}")


@dataclass(frozen=True)
class Command:
    """One thing a layout offers to do: its questions, then one engine call."""

    id: str  # unique among the layouts: the app's action names it
    run: Spec  # "module:function"(root, dry_run=..., **answers) -> Receipt | None
    verb: str = ""  # the CLI verb it belongs to (add, maintain); "": the app's only
    name: str = ""  # its name after the verb (`memtui add fact`)
    help: str = ""  # the CLI's help
    title: str = ""  # the palette's title; "": not in the app
    about: str = ""  # the palette's line under the title
    label: str = ""  # what the app calls the change ({name}: an answer)
    writes: bool = True  # False: the app runs it as a dry run, a report offered read-only
    then: str = ""  # the command a report's apply runs (its id)
    confirm: str = ""  # the app's question before it writes
    asks: tuple[Ask, ...] = ()

    def said(self, answers: dict[str, Any]) -> str:
        """The app's label for the change, with the answers given (one not given: ""):
        a Msg, so a face shows it in the reader's language (tr)."""
        template = self.label or self.title or self.id
        fields = {f for _, f, _, _ in Formatter().parse(template) if f}
        return Msg(template, **{f: answers.get(f, "") for f in fields})


def resolve(spec: Spec) -> Callable[..., Any]:
    """The function a "module:function" string names, imported now (or the function)."""
    if callable(spec):
        return spec
    module, _, name = spec.partition(":")
    found: Callable[..., Any] = getattr(import_module(module), name)
    return found


def declared(layouts: Iterable[str] | None = None) -> Iterator[tuple[str, Command]]:
    """(layout, command) of every registered layout, in detection order; with `layouts`,
    of those only (the store's). Imports each layout's detection and command data."""
    from memtui.engine.layouts import detectors

    wanted = None if layouts is None else set(layouts)
    for name, detection in detectors().items():
        if wanted is None or name in wanted:
            for command in detection.commands():
                yield name, command


def of_verb(verb: str, layouts: Iterable[str] | None = None) -> list[tuple[str, Command]]:
    """(layout, command) of the commands that belong to the CLI verb `verb`."""
    return [(layout, c) for layout, c in declared(layouts) if c.verb == verb]


def find(command_id: str, layouts: Iterable[str] | None = None) -> Command | None:
    return next((c for _, c in declared(layouts) if c.id == command_id), None)


def asked(ask: Ask, answers: dict[str, Any]) -> Ask | None:
    """The question as the answers so far make it (its `shape`), or None: not asked."""
    if not ask.shape:
        return ask
    changes = resolve(ask.shape)(answers)
    return None if changes is None else replace(ask, **changes)


def suggested(ask: Ask, store: Store) -> list[str]:
    """The answers the store suggests for it (its `options`), or its `choices`."""
    return list(resolve(ask.options)(store)) if ask.options else list(ask.choices)


def refusal(ask: Ask, value: Any, answers: dict[str, Any]) -> str | None:
    """Why the layout refuses this answer (its `check`, the engine's words), or None:
    asked before the change, so a face never restates the rule."""
    from memtui.engine.errors import MemtuiError

    if not ask.check:
        return None
    try:
        resolve(ask.check)(value, answers)
    except MemtuiError as exc:
        return str(exc)
    return None


def run(command: Command, root: str, answers: dict[str, Any], **options: Any) -> Any:
    """The command's one engine call (options: dry_run)."""
    return resolve(command.run)(root, **options, **answers)
