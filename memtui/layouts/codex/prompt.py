"""What Codex gives the model at session start from its memories folder: the read-path
prompt with `memory_summary.md` in it, trimmed and cut head and tail to a token
budget. Restated from openai/codex (rust-v0.160.0):

- codex-rs/ext/memories/src/prompts.rs `build_memory_tool_developer_instructions`:
  the file read whole as UTF-8 (`read_to_string`: not UTF-8, nothing is given),
  `.trim()`, `truncate_text(.., TruncationPolicy::Tokens(2_500))`; empty after that,
  nothing is given; else `read_path.md` rendered with `base_path` (the memories
  folder) and `memory_summary`, added to the developer instructions;
- codex-rs/utils/string/src/truncate.rs `truncate_middle_with_token_budget`: about 4
  bytes a token (APPROX_BYTES_PER_TOKEN); past the budget's bytes the first half of
  them and the last half are kept on character boundaries, joined by the marker
  `…N tokens truncated…`, N the bytes left out over 4, rounded up;
- codex-rs/ext/memories/templates/memories/read_path.md: the prompt, kept byte for
  byte beside this module (read_path.md, SHA-256 2bc7736029884b71…, the file at
  rust-v0.160.0; Apache-2.0, © OpenAI).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

BYTES_PER_TOKEN = 4  # truncate.rs APPROX_BYTES_PER_TOKEN
# Rust's str::trim(): the Unicode White_Space code points (Python's strip() also takes
# U+001C..U+001F, which Rust keeps).
RUST_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
RUST_SPACE += "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
BEGINS = "========= MEMORY_SUMMARY BEGINS ========="
SLOT = re.compile(r"\{\{\s*(base_path|memory_summary)\s*\}\}")


@dataclass(frozen=True, slots=True)
class Injected:
    """memory_summary.md as Codex injects it."""

    prompt: str  # the whole read-path prompt the model is given ("": nothing is given)
    summary: str  # the summary as it stands in the prompt (trimmed, maybe cut)
    head_stop: int | None  # offset in the file's text where the kept head ends (None: uncut)
    tail_start: int | None  # and where the kept tail starts
    bytes: int  # the trimmed summary's size in UTF-8
    agent_lines: tuple[int, int]  # lines of the prompt before the summary's, and after it


def approx_tokens(n_bytes: int) -> int:
    """truncate.rs approx_tokens_from_byte_count: bytes over 4, rounded up."""
    return -(-n_bytes // BYTES_PER_TOKEN)


def inject(text: str, base_path: str, tokens: int) -> Injected:
    """What Codex makes of the file's text (its BOM included, as read_to_string keeps it)."""
    lead = len(text) - len(text.lstrip(RUST_SPACE))
    trimmed = text.strip(RUST_SPACE)
    size = len(trimmed.encode("utf-8", "surrogatepass"))
    head, tail = cut_points(trimmed, tokens)
    if head is None or tail is None:
        summary, at = trimmed, (None, None)
    else:
        removed = approx_tokens(size - tokens * BYTES_PER_TOKEN)
        summary = f"{trimmed[:head]}…{removed} tokens truncated…{trimmed[tail:]}"
        at = (lead + head, lead + tail)
    prompt = render(base_path, summary) if summary else ""
    return Injected(prompt, summary, at[0], at[1], size, around(base_path) if summary else (0, 0))


def cut_points(s: str, tokens: int) -> tuple[int | None, int | None]:
    """(end of the kept head, start of the kept tail) in characters of `s`, or (None,
    None) when it fits: truncate.rs split_budget and split_string, over UTF-8 bytes."""
    budget = tokens * BYTES_PER_TOKEN
    data = s.encode("utf-8", "surrogatepass")  # its characters counted in C, not in a loop
    size = len(data)
    if not s or (tokens > 0 and size <= budget):
        return None, None
    left = budget // 2
    tail_target = size - (budget - left)
    if tokens > 0 and s.isascii():  # a byte a character: nothing to count
        return left, tail_target
    head = _chars_before(data, max(0, left), back=True)  # those that end by `left`
    tail = _chars_before(data, min(tail_target, size), back=False)  # the first at or past
    return head, max(tail, head)


def _chars_before(data: bytes, at: int, back: bool) -> int:
    """How many characters of UTF-8 `data` start before byte `at`, moved to a character's
    start first (`back`: the one `at` falls inside, else the next)."""
    while 0 < at < len(data) and data[at] & 0xC0 == 0x80:  # inside a character
        at += -1 if back else 1
    return len(data[:at].decode("utf-8", "surrogatepass"))


def render(base_path: str, summary: str) -> str:
    """read_path.md with its two slots filled (codex-rs/utils/template: each
    `{{ name }}` replaced by the value, which is not read again for slots)."""
    values = {"base_path": base_path, "memory_summary": summary}
    return SLOT.sub(lambda m: values[m.group(1)], template())


def around(base_path: str) -> tuple[int, int]:
    """How many lines of the rendered prompt come before the summary's first line, and
    after its last: Codex's own words (ContextFile.agent_lines)."""
    before, _, after = render(base_path, "\x00").partition("\x00")
    return before.count("\n"), after.count("\n")


@cache
def template() -> str:
    return Path(__file__).with_name("read_path.md").read_text(encoding="utf-8")
