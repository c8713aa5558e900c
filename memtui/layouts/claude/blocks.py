"""Which `<!-- … -->` comments of MEMORY.md are top-level html tokens of marked's
`Lexer({gfm: false})`, the ones Claude Code's stripHtmlCommentsFromTokens takes off
(src/utils/claudemd.ts). A line walk over the block rules that decide it: a comment
line starts a block at the top level, but not inside a fenced code block, an indented
code block, another html block (a `<div>` runs to the next blank line), a list item
it is indented into, or a paragraph it continues (only an unindented `<!--` interrupts
a paragraph). Checked against marked 15 on generated indexes (tests/test_claude_load)."""

from __future__ import annotations

import re

COMMENT_START = re.compile(r" {0,3}<!--")
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
QUOTE = re.compile(r" {0,3}>")
ITEM = re.compile(r"( {0,3})([*+-]|\d{1,9}[.)])( {1,4}(?! )| *$)")
TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|"
    "details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|"
    "h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|"
    "noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|"
    "thead|title|tr|track|ul"
)
HTML_BLOCK = re.compile(rf" {{0,3}}</?(?:{TAGS})(?:[ \t]|/?>|$)", re.IGNORECASE)
RAW_BLOCK = re.compile(r" {0,3}<(script|pre|style|textarea)(?:[ \t>]|$)", re.IGNORECASE)


def comment_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each top-level comment token: from its line's start to the end
    of the line holding `-->` (or of the text), with the newlines after it."""
    blocks: list[tuple[int, int]] = []
    state, fence, indent, pos, n = "", "", 0, 0, len(text)
    while pos < n:
        end = text.find("\n", pos)
        end = n if end < 0 else end + 1
        line = text[pos:end].rstrip("\n")
        lead = len(line) - len(line.lstrip(" "))
        blank = not line.strip()
        if fence:
            opened = FENCE.match(line)
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
        elif state == "html" or state.startswith("raw:"):
            closed = state.startswith("raw:") and f"</{state[4:]}" in line.lower()
            if closed or (state == "html" and blank):
                state = ""
        elif blank:
            state = "list-gap" if state in ("list", "list-gap") else ""
        elif state in ("list", "list-gap") and lead >= indent:
            state = "list"  # inside the item, whatever it holds
        elif state == "code" and lead >= 4:
            pass
        elif (
            COMMENT_START.match(line)
            and not (state == "para" and lead)
            and not (state == "list" and lead > min(3, indent - 1))
        ):
            stop = _comment_end(text, pos + line.index("<!--"))
            stop = text.find("\n", stop)
            stop = n if stop < 0 else stop
            while stop < n and text[stop] == "\n":
                stop += 1
            blocks.append((pos, stop))
            state, pos = "", stop
            continue
        elif (opened := FENCE.match(line)) is not None:
            fence, state = opened.group(1), ""
        elif state == "list" and not _ends_item(line):
            pass  # a lazy continuation line of the item's paragraph
        elif (raw := RAW_BLOCK.match(line)) is not None:
            state = "" if f"</{raw.group(1).lower()}" in line.lower() else f"raw:{raw.group(1)}"
        elif HTML_BLOCK.match(line):
            state = "html"
        elif lead >= 4 and state != "para":
            state = "code"
        elif (item := ITEM.match(line)) is not None:
            marker = len(item.group(1)) + len(item.group(2))
            spaces = len(item.group(3))
            state, indent = "list", marker + (1 if spaces > 4 or not spaces else spaces)
        elif HEADING.match(line) or RULE.match(line):
            state = ""
        elif QUOTE.match(line):
            state = "para"  # a quote continues lazily like a paragraph
        else:
            state = "para"
        pos = end
    return blocks


HTML_BEGIN = re.compile(r" {0,3}<(?:[a-z].*>|!--)", re.IGNORECASE)


def _ends_item(line: str) -> bool:
    """What marked's list tokenizer stops an item at: a new bullet, a heading, a fence,
    a rule or an html start (at the item's own indentation or less)."""
    return any(p.match(line) for p in (ITEM, HEADING, FENCE, RULE, HTML_BEGIN))


def _comment_end(text: str, at: int) -> int:
    """Where marked's comment ends: `<!-->` and `<!--->` at once, else after `-->`, else
    at the end of the text."""
    if text.startswith(("<!-->", "<!--->"), at):
        return text.index(">", at + 4) + 1
    close = text.find("-->", at + 4)
    return len(text) if close < 0 else close + 3
