"""The memory part of a Letta Code agent's system prompt, as
letta-ai/letta-code `src/backend/local/system-prompt-compilation.ts` builds it
(renderMemfsProjection, renderSystemTree, renderExternalProjection), from the committed
HEAD's `.md` files: the reminder line; `system/persona.md`'s body in `<self>`; every
other `system/**/*.md` body as a nested tag tree (`<human>`, `<project>` …, each with
its `<projection>` path and `<description>`) in `<memory>`; every other file but
`skills/` by path only, as the `<external_projection>` tree. The agent's code then puts
its `<memory_metadata>` (agent and conversation ids, a time, a message count) after it:
that is no file's, and not shown.

Each line is told to the file it comes from, so that `context` can give every file its
own piece: the pieces, joined by "\\n" in order, are exactly the agent's text.
"""

from __future__ import annotations

from dataclasses import dataclass

from memtui.layouts.letta.rules import (
    PERSONA,
    SKILLS,
    SYSTEM,
    description,
    js_trim,
    js_trim_end,
    locale_key,
    parse_frontmatter,
)

REMINDER = "Reminder: <projection> contains the local path of the memory file projection."
MEMORY_DIR = "$MEMORY_DIR"  # in <projection> lines
TREE_DIR = "${MEMORY_DIR}/"  # the external tree's first line (MEMORY_DIR_PLACEHOLDER)


@dataclass(frozen=True, slots=True)
class Block:
    rel: str  # its path in HEAD
    value: str  # the body the prompt gets (front matter stripped)
    description: str

    @property
    def label(self) -> str:
        return self.rel.removesuffix(".md")


def block(rel: str, raw: str) -> Block:
    front, body = parse_frontmatter(raw)
    return Block(rel, body, description(front))


@dataclass(frozen=True, slots=True)
class Piece:
    rel: str  # the file these lines are told to
    text: str  # its lines, joined by "\n"
    part: str  # "self", "memory" or "external"


# A line is (owner, text); an owner None is a wrapper line: an opening one goes with
# the file after it, a closing one with the file before it.
Line = tuple[str | None, str, bool]  # (owner, text, opens)


def projection(blocks: list[Block]) -> list[Piece]:
    """The pieces of renderMemfsProjection's text, in order; none when HEAD holds no
    .md file."""
    files = sorted(blocks, key=lambda b: locale_key(b.label))
    if not files:
        return []
    lines: list[Line] = [(None, REMINDER, True)]
    persona = next((b for b in files if b.label == PERSONA.removesuffix(".md")), None)
    if persona is not None:
        lines += [(None, "", True), (None, "<self>", True)]
        lines.append((persona.rel, f"<projection>{MEMORY_DIR}/{PERSONA}</projection>", False))
        lines += [(persona.rel, js_trim_end(persona.value), False), (None, "</self>", False)]
    system = [b for b in files if b.label.startswith(SYSTEM) and b is not persona]
    external = [b for b in files if not b.label.startswith((SYSTEM, SKILLS))]
    if system or external:
        lines += [(None, "", True), (None, "<memory>", True)]
        lines += _system_tree(system)
        if external:
            lines += _external_tree(external)
        lines.append((None, "</memory>", False))
    return _pieces(lines, {b.rel: part_of(b.rel) for b in files})


def part_of(rel: str) -> str:
    if rel == PERSONA:
        return "self"
    return "memory" if rel.startswith(SYSTEM) else "external"


class _Node(dict):  # name -> _Node; the leaf's block, if a file ends here
    leaf: Block | None = None


def _system_tree(files: list[Block]) -> list[Line]:
    """renderSystemTree: a tag per path part, two spaces of indent a level; a file's
    tag holds its projection, its description (when it has one) and its value (trimmed
    at the end; only its first line indented), then its children's tags."""
    tree = _Node()
    for b in files:
        node = tree
        for part in [p for p in b.label.removeprefix(SYSTEM).split("/") if p]:
            node = node.setdefault(part, _Node())
        node.leaf = b
    out: list[Line] = []

    def render(node: _Node, indent: int, path: list[str]) -> None:
        pad = "  " * indent
        for key in sorted(node, key=locale_key):
            child, parts = node[key], [*path, key]
            leaf = child.leaf
            out.append((leaf.rel if leaf else None, f"{pad}<{key}>", True))
            if leaf is not None:
                where = f"{MEMORY_DIR}/{SYSTEM}{'/'.join(parts)}.md"
                out.append((leaf.rel, f"{pad}  <projection>{where}</projection>", False))
                if js_trim(leaf.description):
                    out.append(
                        (
                            leaf.rel,
                            f"{pad}  <description>{js_trim(leaf.description)}</description>",
                            False,
                        )
                    )
                value = js_trim_end(leaf.value)
                if value:
                    out.append((leaf.rel, f"{pad}  {value}", False))
            render(child, indent + 1, parts)
            out.append((None, f"{pad}</{key}>", False))

    render(tree, 0, [])
    return out


def _external_tree(files: list[Block]) -> list[Line]:
    """renderExternalProjection: `${MEMORY_DIR}/` and a box-drawn tree, folders before
    files, each level in locale order."""
    tree = _Node()
    for b in files:
        parts = [p for p in b.rel.split("/") if p]
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, _Node())
        if parts:
            node.setdefault(parts[-1], _Node()).leaf = b
    out: list[Line] = [(None, "<external_projection>", True), (None, TREE_DIR, True)]

    def render(node: _Node, prefix: str) -> None:
        # A name is a folder when something was put below it (a file of that name as
        # well: the later insert wins in the agent's Map, so a folder).
        names = sorted(node, key=lambda n: (not _is_dir(node[n]), locale_key(n)))
        for i, name in enumerate(names):
            child, last = node[name], i == len(names) - 1
            is_dir = _is_dir(child)
            owner = _first_file(child)
            out.append(
                (owner, f"{prefix}{'└── ' if last else '├── '}{name}{'/' if is_dir else ''}", True)
            )
            if is_dir:
                render(child, prefix + ("    " if last else "│   "))

    render(tree, "")
    out.append((None, "</external_projection>", False))
    return out


def _is_dir(node: _Node) -> bool:
    return bool(node) or node.leaf is None


def _first_file(node: _Node) -> str | None:
    if not _is_dir(node):
        return node.leaf.rel if node.leaf else None
    for name in sorted(node, key=lambda n: (not _is_dir(node[n]), locale_key(n))):
        found = _first_file(node[name])
        if found:
            return found
    return None


def _pieces(lines: list[Line], parts: dict[str, str]) -> list[Piece]:
    """Consecutive lines of one file, each a piece; a wrapper line joins the file after
    it (an opening one) or before it (a closing one)."""
    owners: list[str | None] = [owner for owner, _, _ in lines]
    for i, (owner, _, opens) in enumerate(lines):
        if owner is None and opens:
            owners[i] = next((o for o in (x for x, _, _ in lines[i + 1 :]) if o), None)
    last = None
    for i, owner in enumerate(owners):
        if owner is None:
            owners[i] = last
        last = owners[i]
    first = next((o for o in owners if o), None)
    pieces: list[tuple[str, list[str]]] = []
    for owner, (_, text, _) in zip(owners, lines, strict=True):
        who = owner or first or ""
        if pieces and pieces[-1][0] == who:
            pieces[-1][1].append(text)
        else:
            pieces.append((who, [text]))
    return [Piece(rel, "\n".join(texts), parts.get(rel, "memory")) for rel, texts in pieces]


def whole(pieces: list[Piece]) -> str:
    """The agent's text: the pieces joined."""
    return "\n".join(p.text for p in pieces)
