"""jaccard's own compiled loop (numba): per pair, the sizes of both word sets and of their
intersection, from the two texts' characters, with a small hash table per pair.

word_table numbers every distinct word of a whole chunk (what token_f1, wer and rouge_l need);
jaccard alone needs none of that: a chunk-wide table of a noisy million-row file holds hundreds
of thousands of words, and every lookup in it misses the cache. Here each pair's words go into
a table of a few hundred slots that stays in the first-level cache, and is cleared slot by slot
after the pair. Words are told apart by their characters (the hash only finds the slot), so the
counts are exact; `jaccard_from_chars` turns them into the scores Python's sets give, bit for bit.

Used by metrics.jaccard when the chunk's word table is not built anyway (by a word metric of
the same run) and numba's import is paid (fast.loading).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from matchlens.core.metrics.fast import ahead
from matchlens.core.metrics.fast.word_table import code_points, space_table

_CACHE = True  # compiled code cached on disk, as word_kernel's
_FNV_OFFSET = np.uint64(14695981039346656037)
FNV_PRIME = np.uint64(1099511628211)
_EMPTY = -1


@ahead.njit(cache=_CACHE, nogil=True)
def _add_words(chars, start, end, space, side, prime, slots, word_at, word_len, word_hash,
               flags, used, n_used):
    """The whitespace words of chars[start:end] into the pair's table, marked with `side`
    (1: expected, 2: actual). Returns the new count of used slots (-1: the table is full)."""
    n_space = space.shape[0]
    mask = slots.shape[0] - 1
    p = start
    while p < end:
        c = chars[p]
        if c < n_space and space[c]:
            p += 1
            continue
        w0 = p
        h = _FNV_OFFSET
        while p < end:
            c = chars[p]
            if c < n_space and space[c]:
                break
            h = (h ^ np.uint64(c)) * prime
            p += 1
        size = p - w0
        i = np.int64(h & np.uint64(mask))
        while True:
            w = slots[i]
            if w == _EMPTY:
                if 2 * (n_used + 1) > slots.shape[0]:
                    return -1  # over half full: the caller retries with a bigger table
                slots[i] = n_used
                word_at[n_used], word_len[n_used], word_hash[n_used] = w0, size, h
                flags[n_used] = side
                used[n_used] = i
                n_used += 1
                break
            if word_hash[w] == h and word_len[w] == size:
                s = word_at[w]
                j = 0
                while j < size and chars[s + j] == chars[w0 + j]:
                    j += 1
                if j == size:
                    flags[w] |= side
                    break
            i = (i + 1) & mask
    return n_used


@ahead.njit(cache=_CACHE, nogil=True)
def distinct_pair_counts(chars, text_ends, n, space, prime, skip_equal):
    """Per pair i (text i against text n + i; text t is chars[text_ends[t-1]:text_ends[t]]):
    (distinct words of text i, distinct words of text n + i, distinct words in both), words
    split on whitespace as str.split() does (`space[c]`: str.isspace() of code point c below
    len(space); none above is). `prime`: FNV-1a's (FNV_PRIME); the tests pass 0, which gives
    every word the same hash, to check that words are told apart by their characters. With
`skip_equal`, a pair of equal texts is not split: (0, 0, 0), whose jaccard is 1 too."""
    out = np.empty((3, n), dtype=np.int64)
    capacity = 256
    slots = np.full(capacity, _EMPTY, dtype=np.int64)
    word_at = np.empty(capacity // 2, dtype=np.int64)
    word_len = np.empty(capacity // 2, dtype=np.int64)
    word_hash = np.empty(capacity // 2, dtype=np.uint64)
    flags = np.empty(capacity // 2, dtype=np.int8)
    used = np.empty(capacity // 2, dtype=np.int64)
    for i in range(n):
        e0 = text_ends[i - 1] if i > 0 else 0
        a0 = text_ends[n + i - 1]
        if skip_equal and text_ends[i] - e0 == text_ends[n + i] - a0:
            j = 0
            size = text_ends[i] - e0
            while j < size and chars[e0 + j] == chars[a0 + j]:
                j += 1
            if j == size:
                out[0, i], out[1, i], out[2, i] = 0, 0, 0
                continue
        while True:
            k = _add_words(chars, e0, text_ends[i], space, 1, prime, slots, word_at, word_len,
                           word_hash, flags, used, 0)
            if k >= 0:
                k = _add_words(chars, a0, text_ends[n + i], space, 2, prime, slots, word_at,
                               word_len, word_hash, flags, used, k)
            if k >= 0:
                break
            capacity *= 4  # a long text: a bigger table, and the pair again
            slots = np.full(capacity, _EMPTY, dtype=np.int64)
            word_at = np.empty(capacity // 2, dtype=np.int64)
            word_len = np.empty(capacity // 2, dtype=np.int64)
            word_hash = np.empty(capacity // 2, dtype=np.uint64)
            flags = np.empty(capacity // 2, dtype=np.int8)
            used = np.empty(capacity // 2, dtype=np.int64)
        left = right = both = 0
        for w in range(k):
            f = flags[w]
            left += f & 1
            right += f >> 1
            both += f == 3
            slots[used[w]] = _EMPTY
        out[0, i], out[1, i], out[2, i] = left, right, both
    return out


def pair_counts(expected: Sequence[str], actual: Sequence[str], prime=FNV_PRIME,
                skip_equal: bool = False) -> np.ndarray:
    """(3, n) int64: per pair, |E|, |A| and |E & A| of the two texts' whitespace word sets
    ((0, 0, 0) for equal texts with `skip_equal`)."""
    _, chars, text_ends = code_points([*expected, *actual])
    if not len(expected):
        return np.zeros((3, 0), dtype=np.int64)
    return distinct_pair_counts(chars, text_ends, len(expected), space_table(), prime,
                                skip_equal)


def jaccard_from_chars(expected: Sequence[str], actual: Sequence[str]) -> np.ndarray:
    """Per pair, len(E & A) / len(E | A) of the word sets (1.0 where neither has a word): exact
    integer counts and one division each, so equal to Python's sets to the bit. Equal texts
    score 1 without being split."""
    left, right, both = pair_counts(expected, actual, skip_equal=True)
    union = left + right - both
    scores = np.ones(len(expected), dtype=np.float64)
    some = union > 0
    scores[some] = both[some] / union[some]
    return scores
