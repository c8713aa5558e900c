"""codex's cut of memory_summary.md (layouts/codex/prompt.cut_points): the head keeps the
characters that end within half the byte budget, the tail starts at the first character
that starts at or past the rest of it (codex-rs truncate.rs split_string, over UTF-8)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memtui.layouts.codex.prompt import BYTES_PER_TOKEN, cut_points

# ASCII, 2-, 3- and 4-byte characters and a lone surrogate (kept as codex reads it)
CHARS = st.sampled_from(["a", " ", "\n", "é", "周", "😀", "\ud800"])


def walked(s: str, tokens: int) -> tuple[int | None, int | None]:
    """The cut character by character, as split_string walks it."""
    budget = tokens * BYTES_PER_TOKEN
    sizes = [len(ch.encode("utf-8", "surrogatepass")) for ch in s]
    if not s or (tokens > 0 and sum(sizes) <= budget):
        return None, None
    left, tail_target = budget // 2, sum(sizes) - (budget - budget // 2)
    head, tail, at = 0, len(s), 0
    for i, n in enumerate(sizes):
        if at + n <= left:
            head = i + 1
        elif at >= tail_target:
            tail = i
            break
        at += n
    return head, max(tail, head)


@given(st.lists(CHARS, max_size=60).map("".join), st.integers(-1, 20))
def test_the_cut_is_the_one_a_walk_over_the_characters_finds(s: str, tokens: int) -> None:
    assert cut_points(s, tokens) == walked(s, tokens)
