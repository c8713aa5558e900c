"""What an edit must leave in place (SPEC §3): a candidate keeps the front matter that
makes it one, a sop keeps its front matter. Events and sections keep their heading
(edit.py checks those). A line typed above the front matter would turn it into body
text: the file would still save and read back, but no longer be what it was.
"""

from __future__ import annotations

from memtui.engine import frontmatter
from memtui.engine.ops.common import Refused
from memtui.i18n import msg
from memtui.layouts.dsh.store import PENDING, SOPS, candidate_problem, parse_front


def check_structure(rel: str, old: str, new: str) -> None:
    """Refused if `new`, the whole new text of file `rel`, breaks its structure."""
    folder, _, name = rel.partition("/")
    if "/" in name or not name.endswith(".md"):
        return
    if folder == PENDING:
        problem = candidate_problem(new)
        if problem:
            raise Refused(
                msg(
                    "{rel}: the new text {problem}; a candidate begins with its "
                    "front matter (a `---` line, its keys with entry_type and "
                    "target, a `---` line); nothing was written",
                    rel=rel,
                    problem=problem,
                )
            )
    elif folder == SOPS:
        problem = _sop_problem(old, new)
        if problem:
            raise Refused(
                msg("{rel}: the new text {problem}; nothing was written", rel=rel, problem=problem)
            )


def _sop_problem(old: str, new: str) -> str | None:
    """A sop's front matter, if it has one, must stay first and parse."""
    _meta, _body, problem = parse_front(new)
    if problem is None or problem.startswith("has broken"):
        return problem
    try:
        had = frontmatter.split(old).yaml_text is not None
    except frontmatter.FrontMatterError:
        had = False
    if had:  # it had front matter; now it has none (a line above the `---`?)
        return f"{problem}: the sop's front matter must stay at the top"
    return None
