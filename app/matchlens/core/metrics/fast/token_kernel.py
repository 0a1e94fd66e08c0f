"""The compiled loops of batch BLEU's and chrF's text preparation (numba): words and their ids
for BLEU, whitespace removed for chrF, over the code points of many texts at once. Imported
only when a batch scores BLEU or chrF, like ngram_kernel.

Texts arrive as one array of code points (uint8 when every text is ASCII, else uint32) and
each text's start and end in it. "Whitespace" is a table of what Python's str.split() splits
on (built from str.isspace by the caller), so the words are split()'s words.
"""

from __future__ import annotations

import numpy as np

from matchlens.core.metrics.fast import ahead

_CACHE = True  # see ngram_kernel
SPACE, SYMBOL, FLAGGED = 1, 2, 4  # what a code point is to words(): bits of `kinds`
_SEED = np.uint64(0x9E3779B97F4A7C15)  # FNV-1a over code points, from a non-zero start
_PRIME = np.uint64(0x100000001B3)
_HIGH = np.uint64(0xFFFFFFFF00000000)  # a slot: the high half of a hash | word id + 1
_LOW = np.uint64(0xFFFFFFFF)


@ahead.njit(cache=_CACHE, nogil=True, inline="always")
def _is_space(c, space):
    return c < space.shape[0] and space[c]


@ahead.njit(cache=_CACHE, nogil=True)
def flag_texts(cps, starts, ends, marks):
    """For each text: does it hold a code point c with marks[c] (c < len(marks))?"""
    out = np.zeros(starts.shape[0], dtype=np.bool_)
    for t in range(starts.shape[0]):
        for p in range(starts[t], ends[t]):
            c = cps[p]
            if c < marks.shape[0] and marks[c]:
                out[t] = True
                break
    return out


@ahead.njit(cache=_CACHE, nogil=True)
def strip_spaces(cps, starts, ends, space):
    """Every text without its whitespace (chrF's ''.join(text.split())): the symbols end to
    end and each text's new start and end."""
    out = np.empty_like(cps)
    new_starts = np.empty_like(starts)
    new_ends = np.empty_like(ends)
    keep = np.ones(max(256, space.shape[0]), dtype=np.int64)  # 1 for a code point kept
    keep[:space.shape[0]] -= space
    k = 0
    for t in range(starts.shape[0]):
        new_starts[t] = k
        for p in range(starts[t], ends[t]):
            c = cps[p]
            out[k] = c  # written always, kept by moving on: no branch to mispredict
            k += keep[c] if c < keep.shape[0] else 1
        new_ends[t] = k
    return out[:k], new_starts, new_ends


@ahead.njit(cache=_CACHE, nogil=True, inline="always")
def _mix(h):
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h


@ahead.njit(cache=_CACHE, nogil=True)
def _rehashed(word_hash, n_words, size):
    """The slots (a power of two) of words 0..n_words-1: per slot the high half of a word's
    hash and its id + 1 (0: empty) in one uint64, so that a probe reads 8 bytes."""
    slots = np.zeros(size, dtype=np.uint64)
    for w in range(n_words):
        at = np.int64(_mix(word_hash[w]) & np.uint64(size - 1))
        while slots[at] != 0:
            at = (at + 1) & (size - 1)
        slots[at] = (word_hash[w] & _HIGH) | np.uint64(w + 1)
    return slots


@ahead.njit(cache=_CACHE, nogil=True, inline="always")
def _intern(cps, a, b, h, slots, word_start, word_len, n_words):
    """The id of the word cps[a:b] (hash h), a new one (= n_words) if it is new; the caller
    grows the tables. Equal ids for equal code points only: candidates are compared."""
    size = slots.shape[0]
    at = np.int64(_mix(h) & np.uint64(size - 1))
    high = h & _HIGH
    while True:
        entry = slots[at]
        if entry == 0:
            slots[at] = high | np.uint64(n_words + 1)
            return n_words
        if entry & _HIGH == high:
            w = np.int64(entry & _LOW) - 1
            if word_len[w] == b - a:
                s = word_start[w]
                same = True
                for j in range(b - a):
                    if cps[s + j] != cps[a + j]:
                        same = False
                        break
                if same:
                    return w
        at = (at + 1) & (size - 1)


@ahead.njit(cache=_CACHE, nogil=True)
def words(cps, starts, ends, kinds):
    """Each text's words as ids. kinds[c] (0 for c >= len(kinds)) tells what code point c is:
    SPACE ends a word, SYMBOL is a word of its own (13a's first rule: spaces around it),
    FLAGGED marks the words holding it. Returns the ids end to end, each text's first word
    (offsets, one more than texts), and the table of distinct words: its slots, and per word
    its hash, first occurrence (start, length) and whether it is flagged."""
    n_texts = starts.shape[0]
    offsets = np.empty(n_texts + 1, dtype=np.int64)
    ids = np.empty(max(1024, cps.shape[0] // 4), dtype=np.int64)
    cap = 1024
    slots = _rehashed(np.empty(0, dtype=np.uint64), 0, 2 * cap)  # at most 1/2 full
    word_hash = np.empty(cap, dtype=np.uint64)
    word_start = np.empty(cap, dtype=np.int64)
    word_len = np.empty(cap, dtype=np.int64)
    word_flag = np.empty(cap, dtype=np.bool_)
    state = np.zeros(4, dtype=np.int64)  # text, position, words out, distinct words
    state[1] = starts[0] if n_texts else 0
    # the scan stops when an array is full; it is grown here, outside the scan's loop (an
    # array rebound inside a hot loop costs numba reference counting on every pass)
    while _scan_words(cps, starts, ends, kinds, state, ids, offsets, slots, word_hash,
                      word_start, word_len, word_flag):
        if state[2] == ids.shape[0]:
            ids = _resized(ids, 2 * ids.shape[0])
        if state[3] == cap:
            cap *= 2
            word_hash = _resized(word_hash, cap)
            word_start = _resized(word_start, cap)
            word_len = _resized(word_len, cap)
            word_flag = _resized(word_flag, cap)
            slots = _rehashed(word_hash, state[3], 2 * cap)
    k, n_words = state[2], state[3]
    offsets[n_texts] = k
    return (ids[:k].copy(), offsets, slots, word_hash[:n_words].copy(),
            word_start[:n_words].copy(), word_len[:n_words].copy(), word_flag[:n_words].copy())


@ahead.njit(cache=_CACHE, nogil=True, inline="always")
def _kind(c, kinds):
    return kinds[c] if c < kinds.shape[0] else 0


@ahead.njit(cache=_CACHE, nogil=True)
def _scan_words(cps, starts, ends, kinds, state, ids, offsets, slots, word_hash, word_start,
                word_len, word_flag):
    """words() from where `state` says; True when it stopped (before a word) for room."""
    k, n_words = state[2], state[3]
    p = state[1]
    for t in range(state[0], starts.shape[0]):
        end = ends[t]
        if t != state[0]:
            p = starts[t]
        if p == starts[t]:
            offsets[t] = k
        while p < end:
            c = cps[p]
            kind = _kind(c, kinds)
            if kind & SPACE:
                p += 1
                continue
            if k == ids.shape[0] or n_words == word_hash.shape[0]:
                state[0], state[1], state[2], state[3] = t, p, k, n_words
                return True
            a = p
            h = (_SEED ^ np.uint64(c)) * _PRIME
            flags = kind
            p += 1
            if not kind & SYMBOL:
                while p < end:
                    c = cps[p]
                    kind = _kind(c, kinds)
                    if kind & (SPACE | SYMBOL):
                        break
                    flags |= kind
                    h = (h ^ np.uint64(c)) * _PRIME
                    p += 1
            w = _intern(cps, a, p, h, slots, word_start, word_len, n_words)
            if w == n_words:
                word_hash[w], word_start[w], word_len[w] = h, a, p - a
                word_flag[w] = (flags & FLAGGED) != 0
                n_words += 1
            ids[k] = w
            k += 1
    state[0], state[1], state[2], state[3] = starts.shape[0], 0, k, n_words
    return False


@ahead.njit(cache=_CACHE, nogil=True)
def _resized(a, size):
    out = np.empty(size, dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@ahead.njit(cache=_CACHE, nogil=True)
def split_words(cps, ids, offsets, slots, word_hash, word_start, word_len, split_ids,
                cut_offsets, cuts):
    """Every occurrence of word split_ids[i] replaced by its parts: the code points of its
    first occurrence cut at cuts[cut_offsets[i]:cut_offsets[i + 1]] (positions inside the
    word, ending with its length), each part a word of the table (an existing id or a new
    one). Returns the new ids and offsets."""
    n_words = word_hash.shape[0]
    cap = n_words + cuts.shape[0] + 1
    word_hash = _resized(word_hash, cap)
    word_start = _resized(word_start, cap)
    word_len = _resized(word_len, cap)
    size = slots.shape[0]
    while size < 2 * cap:
        size *= 2
    if size != slots.shape[0]:
        slots = _rehashed(word_hash, n_words, size)
    first_part = np.full(n_words, -1, dtype=np.int64)
    n_parts = np.zeros(n_words, dtype=np.int64)
    part_ids = np.empty(cuts.shape[0], dtype=np.int64)
    for i in range(split_ids.shape[0]):
        w = split_ids[i]
        s = word_start[w]
        a = 0
        first_part[w] = cut_offsets[i]
        n_parts[w] = cut_offsets[i + 1] - cut_offsets[i]
        for j in range(cut_offsets[i], cut_offsets[i + 1]):
            b = cuts[j]
            h = _SEED
            for q in range(s + a, s + b):
                h = (h ^ np.uint64(cps[q])) * _PRIME
            part = _intern(cps, s + a, s + b, h, slots, word_start, word_len, n_words)
            if part == n_words:
                word_hash[part], word_start[part], word_len[part] = h, s + a, b - a
                n_words += 1
            part_ids[j] = part
            a = b
    at = np.empty(ids.shape[0] + 1, dtype=np.int64)  # where each old word's parts start
    at[0] = 0
    for k in range(ids.shape[0]):
        at[k + 1] = at[k] + (n_parts[ids[k]] if first_part[ids[k]] >= 0 else 1)
    out = np.empty(at[ids.shape[0]], dtype=np.int64)
    for k in range(ids.shape[0]):
        w = ids[k]
        if first_part[w] >= 0:
            for j in range(n_parts[w]):
                out[at[k] + j] = part_ids[first_part[w] + j]
        else:
            out[at[k]] = w
    return out, at[offsets], n_words
