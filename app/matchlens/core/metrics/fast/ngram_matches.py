"""Clipped n-gram matches of many (hypothesis, reference) pairs, compiled: the statistics BLEU
and chrF are made of, for a million pairs in seconds instead of minutes.

For every pair and every order n <= N this counts sum over n-grams g of min(count in the
hypothesis, count in the reference): sacrebleu's `correct` (BLEU, word n-grams) and `n_match`
(chrF, character n-grams). Everything else in their statistics follows from the two lengths,
and the float formula over them is sacrebleu's (sacrebleu_formulas), so a score is
sacrebleu's to the bit whenever these counts are right; the tests check that they are.

How, per pair (ngram_kernel): n-grams wholly inside the common prefix, the common suffix, or
a block of equal symbols aligned between them (found greedily after each difference: a near
miss, a typo, is a few short gaps) match one for one and are counted from the lengths, since
min(a + c, b + c) = c + min(a, b). Every other window of N symbols becomes a key: its symbols
renumbered 1..D-1 within the pair (0 past the end), each in ceil(log2 D) bits, first symbol
highest, then the lowest order at which it leaves its block, then its side. Sorted (bucketed
by first symbol), windows sharing their first n symbols lie next to each other for every n at
once, so one scan adds min(hypothesis count, reference count) per run and order. With at
most 64 distinct symbols (chrF's characters) the 1-grams are counted directly and windows
whose first two symbols begin no window of the other side are left out: none of their
n-grams can match. A pair with more distinct symbols in its windows than N of them can encode
in an int64 (511 characters for chrF, 16383 words for BLEU) is marked UNKNOWN and scored by
sacrebleu itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

UNKNOWN = -1  # a pair the kernel did not count (too many distinct symbols)


def pack_texts(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The code points of all texts end to end, and each text's start and end in them."""
    _, symbols, starts, ends = pack(texts)
    return symbols, starts, ends


def pack(texts: Sequence[str]) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    """The texts joined, their code points (uint8 when all are ASCII: a copy of the string's
    own bytes, else uint32), and each text's start and end in them.

    'surrogatepass': a lone surrogate a decoder let through is one more code point, as it is
    one character to Python (and so to sacrebleu)."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    ends = np.cumsum(lengths)
    joined = "".join(texts)
    if joined.isascii():  # a flag of the string: no scan
        symbols = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    else:
        symbols = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return joined, symbols, ends - lengths, ends


@cache
def whitespace_table() -> np.ndarray:
    """space[c]: is code point c whitespace to str.split()? (str.isspace, the same test);
    every such code point is below U+3001, which the tests check over all of Unicode."""
    return np.array([chr(c).isspace() for c in range(_LAST_SPACE + 1)], dtype=np.bool_)


_LAST_SPACE = 0x3000


def count_matches(symbols: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  hyp: np.ndarray, ref: np.ndarray, order: int, alphabet: int) -> np.ndarray:
    """matches[i, n - 1] for pair i and n = 1..order; UNKNOWN in row i when not counted.

    `symbols` holds every text's symbols (ints in [0, alphabet)); text t is
    symbols[starts[t]:ends[t]]; pair i is hypothesis text hyp[i] against reference text
    ref[i] (a text shared by many rows, or by both sides of a row, is packed once).
    """
    from matchlens.core.metrics.fast.ngram_kernel import count

    out = np.zeros((len(hyp), order), dtype=np.int64)
    if len(hyp):
        count(symbols, starts[hyp], ends[hyp], starts[ref],
              ends[ref], order, np.zeros(max(alphabet, 1), dtype=np.int64), out)
    return out
