"""A NEW front-matter file's text, written by python-frontmatter (a real YAML dumper:
`yes`, `null`, `123` or `a: b` as a value come back as the same string).

Only for a file that does not exist yet: an existing file is edited with the exact
splitter (engine/frontmatter.py), which keeps every byte it does not change.
"""

from __future__ import annotations

_ONE_LINE = 2**31 - 1  # PyYAML folds a long value at 80 columns unless told a width


def new_front_matter_text(meta: dict[str, str], body: str, eol: str = "\n") -> str:
    """`---`, the keys in the order given (one line each), `---`, a blank line, then the
    body as given (its trailing line breaks made one `eol`)."""
    import frontmatter  # here: PyYAML's import is paid only by a verb that writes one

    head = frontmatter.dumps(frontmatter.Post("", **meta), sort_keys=False, width=_ONE_LINE)
    return head.replace("\n", eol) + eol + eol + body.rstrip("\r\n") + eol
