"""Every pair of texts at least `threshold` alike, without comparing every pair.

Alikeness is rapidfuzz's `fuzz.ratio` (the normalized Indel similarity,
1 - d / (len(a) + len(b)) where d counts inserted and deleted characters). A
prefix filter on q-grams finds the candidates exactly, not by chance:

- a pair with ratio >= t has d <= (1 - t) * (la + lb), so |la - lb| <= that too;
- two strings within edit distance d share at least max(la, lb) - q + 1 - q*d
  q-grams, counted with multiplicity (the q-gram lemma; Levenshtein <= Indel);
- over every partner a string can have, that is at least
  la * (1 - 2q(1 - t)) - q + 1 grams, its `need`;
- two sets sharing >= n elements meet within the first |S| - n + 1 elements of
  each, under any one global order (rarest grams first keeps the lists short).

Strings too short for the bound (need < 1) are compared with every string of a
compatible length. Candidates are then scored by rapidfuzz with the cutoff. A string
no other string is near in length (the first bound) is skipped before its q-grams
are made: one 10 MB line among short ones costs nothing but its length.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence

from rapidfuzz.distance import Indel

Q = 2


def similar_pairs(texts: Sequence[str], threshold: float) -> list[tuple[int, int, float]]:
    """Every (i, j, ratio) with i < j and ratio >= threshold (0..1), in (i, j) order.
    Empty texts pair with nothing."""
    slack = 1.0 - threshold
    lengths = [len(text) for text in texts]
    paired = _may_pair(lengths, slack)
    grams = [_grams(text) if paired[i] else [] for i, text in enumerate(texts)]
    rarity = Counter(g for own in grams for g in own)
    index: dict[tuple[str, int], list[int]] = defaultdict(list)
    found: list[tuple[int, int, float]] = []

    def score(i: int, j: int) -> None:
        la, lb = lengths[i], lengths[j]
        if abs(la - lb) <= slack * (la + lb) + 1e-9:
            ratio = Indel.normalized_similarity(texts[i], texts[j], score_cutoff=threshold)
            if ratio >= threshold:
                found.append((min(i, j), max(i, j), ratio))

    short = []
    for i, own in enumerate(grams):
        if not paired[i]:
            continue
        need = int(lengths[i] * (1 - 2 * Q * slack) - Q + 1 + 1e-9)
        if need < 1:
            short.append(i)
            continue
        own.sort(key=lambda g: (rarity[g], g))
        seen: set[int] = set()
        for g in own[: len(own) - need + 1]:
            bucket = index[g]
            seen.update(bucket)
            bucket.append(i)
        for j in seen:
            score(j, i)
    done: set[int] = set()
    for i in short:  # too short for the bound: against every string of a fitting length
        done.add(i)
        for j in range(len(lengths)):
            if paired[j] and j not in done:
                score(i, j)
    return sorted(found)


def _may_pair(lengths: list[int], slack: float) -> list[bool]:
    """Whether some other non-empty string has a length the first bound allows
    (|la - lb| <= slack * (la + lb)); bounds widened a little: score() decides."""
    sizes = sorted(size for size in lengths if size)
    out = []
    for la in lengths:
        if not la:
            out.append(False)
            continue
        low = la * (1 - slack) / (1 + slack) - 1e-6
        high = la * (1 + slack) / (1 - slack) + 1e-6 if slack < 1 else float("inf")
        out.append(bisect_right(sizes, high) - bisect_left(sizes, low) > 1)  # itself is one
    return out


def _grams(text: str) -> list[tuple[str, int]]:
    """The q-grams of `text` as a set: the k-th copy of a gram is (gram, k)."""
    seen: Counter[str] = Counter()
    out = []
    for start in range(len(text) - Q + 1):
        gram = text[start : start + Q]
        out.append((gram, seen[gram]))
        seen[gram] += 1
    return out
