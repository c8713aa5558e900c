"""A string a person reads in the faces (memtui/cli, memtui/ui) is marked for the
catalogue: a text literal where the faces show text must be wrapped (`_()`, `N_()`,
`ngettext()`, `msg()`; then `.format(...)` for its values), never shown bare.

The rule (also /work/prompts26/i18n-rule.txt), checked on the syntax tree: a literal
(a str or an f-string, also inside `a if c else b` and `a + b`) holding a word of two
or more Latin letters (outside its {placeholders}; "memtui" and an option such as
`--choose` are names, no words) is flagged where it is
- the text of `print`, `line`, `warn`, `say`, `notify`, `Label`, `Static`, `Button`,
  `TabPane`, `CallError`, `Refused`, `add_column` (first argument), `add_columns`
  (every argument), `SystemCommand` (first two), `Binding` (third: the description);
- a keyword argument help=, description=, epilog=, title=, sub_title=, subtitle=,
  placeholder=, tooltip=, prompt=, message=, or any `…label=`;
- assigned to title, sub_title, border_title, border_subtitle, tooltip, TITLE, SUB_TITLE.
What is not literal there (a variable, a call such as `_("…")`) is not flagged: the
catalogue tests see what `_()` marks. tests/data/i18n_unmarked.txt lists the literals
still allowed bare (`path: text`, f-string values as {}): shrink it, never grow it for
a new text."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.helpers import REPO

FACES = ("memtui/cli", "memtui/ui")
ALLOWED = REPO / "tests" / "data" / "i18n_unmarked.txt"

TEXT_OF = {  # call name -> the positions of its arguments that are text ("*": all)
    **dict.fromkeys(("print", "line", "warn", "say", "notify"), (0,)),
    **dict.fromkeys(("Label", "Static", "Button", "TabPane", "CallError", "Refused"), (0,)),
    "add_column": (0,),
    "add_columns": "*",
    "SystemCommand": (0, 1),
    "Binding": (2,),
}
TEXT_KEYWORDS = {
    "help",
    "description",
    "epilog",
    "title",
    "sub_title",
    "subtitle",
    "placeholder",
    "tooltip",
    "prompt",
    "message",
}
TEXT_ATTRIBUTES = {
    "title",
    "sub_title",
    "border_title",
    "border_subtitle",
    "tooltip",
    "TITLE",
    "SUB_TITLE",
}
WORD = re.compile(r"[A-Za-z]{2,}")
NO_WORD = re.compile(r"\{[^{}]*\}|memtui|--[\w-]+")  # placeholders, the name, an option


def _literals(node: ast.AST) -> Iterator[ast.Constant | ast.JoinedStr]:
    """The literals a value is made of (not those inside a call: `_("…")` is marked)."""
    if isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    ):
        yield node
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _literals(node.left)
        yield from _literals(node.right)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _literals(value)


def _text(node: ast.Constant | ast.JoinedStr) -> str:
    if isinstance(node, ast.Constant):
        return str(node.value)
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _shown(tree: ast.AST) -> Iterator[ast.expr]:
    """Every value the rule says a person reads."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            where = TEXT_OF.get(_name(node.func), ())
            for i, arg in enumerate(node.args):
                if where == "*" or i in where:
                    yield arg
            for kw in node.keywords:
                if kw.arg and (kw.arg in TEXT_KEYWORDS or kw.arg.endswith("label")):
                    yield kw.value
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and any(_name(t) in TEXT_ATTRIBUTES for t in targets):
                yield node.value


def unmarked(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of each bare literal a person reads in the file."""
    for value in _shown(ast.parse(path.read_text("utf-8"))):
        for literal in _literals(value):
            text = _text(literal)
            if WORD.search(NO_WORD.sub("", text)):
                yield literal.lineno, text


def found() -> dict[str, list[int]]:
    """`path: text` -> its lines, for every face file."""
    out: dict[str, list[int]] = {}
    for face in FACES:
        for path in sorted((REPO / face).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            for lineno, text in unmarked(path):
                out.setdefault(f"{rel}: {_one_line(text)}", []).append(lineno)
    return out


def _one_line(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def allowed() -> set[str]:
    lines = ALLOWED.read_text("utf-8").splitlines()
    return {line for line in lines if line.strip() and not line.startswith("#")}


def test_every_text_a_person_reads_in_the_faces_is_marked():
    new = {f"{key}  (line {', '.join(map(str, lines))})" for key, lines in found().items()}
    new = {said for said in new if said.rsplit("  (line", 1)[0] not in allowed()}
    assert not new, "wrap in _() (memtui.i18n), then `.format()` its values:\n" + "\n".join(
        sorted(new)
    )


def test_the_command_line_has_no_bare_text_left():
    assert not [key for key in allowed() if key.startswith("memtui/cli/")]


def test_the_rule_flags_a_bare_text_and_passes_a_marked_one(tmp_path):
    face = tmp_path / "face.py"
    face.write_text(
        "line('nothing to change')\n"
        "line(_('nothing to change'))\n"
        "p.add_argument('--x', help=f'the {n} rows' if n else 'none')\n"
        "p.add_argument('--y', help=_('rows: {n}').format(n=n))\n"
        "line(f'{a}\\t{b}')\n"
        "Binding('q', 'quit', 'Quit', tooltip=N_('Leave'))\n"
        "self.border_title = 'Pending'\n"
        "Button(yes_label='Archive')\n",
        "utf-8",
    )
    assert sorted(unmarked(face)) == [
        (1, "nothing to change"),
        (3, "none"),
        (3, "the {} rows"),
        (6, "Quit"),
        (7, "Pending"),
        (8, "Archive"),
    ]


MARKERS = {"_", "N_", "ngettext", "msg"}


def marked_in_fstrings(path: Path) -> Iterator[int]:
    """Lines where a marked literal sits inside an f-string: Babel's extraction does not
    look inside f-strings (Python 3.11 reads one as a single token), so it is never in
    the catalogue."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and _name(inner.func) in MARKERS
                    and any(isinstance(a, ast.Constant) for a in inner.args)
                ):
                    yield inner.lineno


def test_no_marked_text_hides_inside_an_f_string(tmp_path):
    hidden = [
        f"{path.relative_to(REPO)}:{lineno}"
        for path in sorted((REPO / "memtui").rglob("*.py"))
        for lineno in marked_in_fstrings(path)
    ]
    assert not hidden, "take the _() out of the f-string:\n" + "\n".join(hidden)
    face = tmp_path / "face.py"
    face.write_text("line(f\"[{_('read-only')}]\")\nline('[' + _('read-only') + ']')\n", "utf-8")
    assert list(marked_in_fstrings(face)) == [1]
