"""n-gram statistics of a text that changes a little at a time (a keystroke in the compare tab).

chrF and BLEU count, per order n, the hypothesis n-grams and how many of them the reference has
(clipped: min(hypothesis count, reference count)). sacrebleu rebuilds those counts from the
whole text on every call: at 100k characters chrF's 600k character n-grams cost ~0.15 s, most
of a keystroke's budget. A keystroke changes one small window, so `NgramTally` keeps the
previous sequence's counts and clipped matches and updates only the n-grams that overlap the
changed window (the rest are the same n-grams, shifted). The totals are exact — the same sums
sacrebleu computes (checked against sacrebleu by Hypothesis in the tests).

A sequence is a string (character n-grams, keys are substrings) or a list of tokens (word
n-grams, keys are tuples), as sacrebleu keys them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# Below this length a change is recounted whole: the bookkeeping would cost more than it saves.
MIN_INCREMENTAL = 500


def common_affixes(old: Sequence[Any], new: Sequence[Any]) -> tuple[int, int]:
    """(prefix, suffix) lengths shared by two sequences, not overlapping in either.

    Binary search over slice comparisons: C-speed compares, O(n log n) work at worst, instead of
    a Python loop over every element."""
    limit = min(len(old), len(new))
    lo, hi = 0, limit
    while lo < hi:  # longest k with old[:k] == new[:k]
        mid = (lo + hi + 1) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, limit - prefix
    n_old, n_new = len(old), len(new)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[n_old - mid:] == new[n_new - mid:]:
            lo = mid
        else:
            hi = mid - 1
    return prefix, lo


class NgramTally:
    """Per-order n-gram counts of the current sequence and their clipped matches against
    fixed reference counts (`refs[n - 1]` maps an n-gram to its reference count)."""

    def __init__(self, orders: int, refs: Sequence[Mapping[Any, int]], tokens: bool) -> None:
        self.orders = orders
        self.refs = refs
        self.tokens = tokens  # keys are tuples of tokens, not substrings
        self.sequence: Sequence[Any] = [] if tokens else ""
        self.counts: list[Counter] = [Counter() for _ in range(orders)]
        self.matches = [0] * orders

    def totals(self) -> list[int]:
        """How many n-grams of each order the sequence has."""
        return [max(0, len(self.sequence) - n + 1) for n in range(1, self.orders + 1)]

    def _key(self, seq: Sequence[Any], i: int, n: int) -> Any:
        return tuple(seq[i:i + n]) if self.tokens else seq[i:i + n]

    def update(self, sequence: Sequence[Any]) -> None:
        old = self.sequence
        if len(sequence) < MIN_INCREMENTAL or len(old) < MIN_INCREMENTAL:
            self._recount(sequence)
            return
        prefix, suffix = common_affixes(old, sequence)
        for n in range(1, self.orders + 1):
            counts, ref = self.counts[n - 1], self.refs[n - 1]
            match = self.matches[n - 1]
            # n-grams entirely inside the shared prefix or suffix are unchanged; the others
            # start in [prefix - n + 1, len - suffix) and are removed / added.
            start = max(0, prefix - n + 1)
            for seq, sign in ((old, -1), (sequence, 1)):
                stop = min(len(seq) - n + 1, len(seq) - suffix)
                for i in range(start, stop):
                    key = self._key(seq, i, n)
                    before = counts[key]
                    after = before + sign
                    if after:
                        counts[key] = after
                    else:
                        del counts[key]
                    have = ref.get(key, 0)
                    if have:
                        match += min(after, have) - min(before, have)
            self.matches[n - 1] = match
        self.sequence = sequence

    def _recount(self, sequence: Sequence[Any]) -> None:
        self.sequence = sequence
        for n in range(1, self.orders + 1):
            counts = Counter(self._key(sequence, i, n) for i in range(len(sequence) - n + 1))
            ref = self.refs[n - 1]
            self.counts[n - 1] = counts
            self.matches[n - 1] = sum(min(c, ref[k]) for k, c in counts.items() if k in ref)


# Where a long text is cut into blocks for tokenizing: a space before a capital letter, a digit
# or an opening bracket/quote. Content-defined, so a keystroke moves no cut but its own block's,
# and the tokenizer's per-line cache answers for every other block.
_CUT = re.compile(r" (?=[A-Z0-9\"'(\[{<])")
_BLOCK = 1_000  # cuts closer together than this many characters are skipped


def blocks(text: str) -> list[str]:
    """`text` cut at content-defined spaces into pieces of about _BLOCK characters or more (the
    space starts the next piece, so "".join(blocks) == text)."""
    if len(text) <= 2 * _BLOCK:
        return [text]
    out, start = [], 0
    for match in _CUT.finditer(text, _BLOCK):
        cut = match.start()
        if cut - start >= _BLOCK:
            out.append(text[start:cut])
            start = cut
    out.append(text[start:])
    return out


def tokens_13a(tokenizer: Callable[[str], str], text: str) -> list[str]:
    """sacrebleu's 13a tokens of `text` (already right-stripped), block by block.

    13a only ever pads characters with spaces, looking at one neighbour, and wraps each line in
    spaces; a cut at a space leaves every neighbour the same, so the tokens of the blocks are
    the tokens of the whole (checked by Hypothesis against the whole-text tokenizer)."""
    out: list[str] = []
    for block in blocks(text):
        out.extend(tokenizer(block).split())
    return out
