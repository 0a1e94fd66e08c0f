"""The compiled loops of word_table (numba): splitting every text of a chunk into whitespace
words and numbering the distinct words, without making a Python string per word (that alone
cost more than token_f1's whole budget), and the clipped token overlap token_f1 needs.
Imported only when a batch scores a word metric: numba costs ~0.4 s to import."""

from __future__ import annotations

import numpy as np

from matchlens.core.metrics.fast import ahead

# Compiled code is cached on disk: beside the source, or in a frozen (PyInstaller) app under
# the user's cache folder (packaging/frozen/ names numba the cache locator for it).
_CACHE = True
_FNV_OFFSET = np.uint64(14695981039346656037)
FNV_PRIME = np.uint64(1099511628211)
_EMPTY = -1
_SPACE = 32


@ahead.njit(cache=_CACHE, nogil=True)
def _grow(array, size):
    bigger = np.empty(max(size, 2 * array.shape[0]), dtype=array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


@ahead.njit(cache=_CACHE, nogil=True)
def _rehash(hashes, count, capacity):
    slots = np.full(capacity, _EMPTY, dtype=np.int64)
    mask = np.uint64(capacity - 1)
    for w in range(count):
        i = np.int64(hashes[w] & mask)
        while slots[i] != _EMPTY:
            i = (i + 1) & (capacity - 1)
        slots[i] = w
    return slots


@ahead.njit(cache=_CACHE, nogil=True)
def split_words(chars, text_ends, space, prime, glue):
    """Whitespace words of every text, numbered by first occurrence.

    `chars`: the code points of all texts end to end; text t is chars[text_ends[t-1]:
    text_ends[t]]. `space[c]` is True for a code point c below len(space) that str.isspace()
    holds for (none above it is), so the words are str.split()'s.
    Returns (ids, word_ends, first, length, lone): every word's id in reading order; per text
    the end of its words in `ids`; per distinct word where it first occurs in `chars` and its
    length; per text whether a single whitespace character other than " " stands between two
    of its words (jiwer does not split there). With `glue`, such a character is part of the
    word around it, as in jiwer's words. `prime`: FNV-1a's (FNV_PRIME); the tests pass
    0, which gives every word the same hash, to check that words are told apart by their
    characters."""
    n_texts = text_ends.shape[0]
    # a text of c characters holds at most (c + 1) // 2 words
    ids = np.empty((chars.shape[0] + n_texts) // 2 + 1, dtype=np.int32)  # 4 bytes a word
    word_ends = np.empty(n_texts, dtype=np.int64)
    lone = np.zeros(n_texts, dtype=np.bool_)
    capacity = 1 << 12
    slots = np.full(capacity, _EMPTY, dtype=np.int64)
    hashes = np.empty(capacity // 2, dtype=np.uint64)
    first = np.empty(capacity // 2, dtype=np.int64)
    length = np.empty(capacity // 2, dtype=np.int64)
    # each distinct word's characters again, side by side: a lookup compares with these (a
    # few hundred KB) rather than with the word's first occurrence somewhere in `chars`
    pool = np.empty(capacity * 4, dtype=chars.dtype)
    pool_at = np.empty(capacity // 2, dtype=np.int64)
    pool_size = 0
    n_words = 0
    k = 0
    start = 0
    n_space = space.shape[0]
    h = _FNV_OFFSET
    for t in range(n_texts):
        end = text_ends[t]
        in_word = False
        w0 = start
        # one pass, a word ends at whitespace or at the end of its text (p == end)
        for p in range(start, end + 1):
            c = chars[p] if p < end else _SPACE
            is_space = c < n_space and space[c]
            if is_space and in_word and c != _SPACE and p + 1 < end:
                after = chars[p + 1]
                if not (after < n_space and space[after]):  # alone between two words
                    lone[t] = True
                    is_space = not glue
            if is_space:
                if not in_word:
                    continue
                in_word = False
                size = p - w0
                mask = capacity - 1
                i = np.int64(h & np.uint64(mask))
                while True:
                    w = slots[i]
                    if w == _EMPTY:
                        if n_words == hashes.shape[0]:
                            hashes = _grow(hashes, n_words + 1)
                            length = _grow(length, n_words + 1)
                            first = _grow(first, n_words + 1)
                            pool_at = _grow(pool_at, n_words + 1)
                        if pool_size + size > pool.shape[0]:
                            pool = _grow(pool, pool_size + size)
                        pool[pool_size:pool_size + size] = chars[w0:p]
                        hashes[n_words], first[n_words], length[n_words] = h, w0, size
                        pool_at[n_words] = pool_size
                        pool_size += size
                        w = n_words
                        n_words += 1
                        if 2 * n_words > capacity:  # keep the table at most half full
                            capacity *= 2
                            slots = _rehash(hashes, n_words, capacity)
                        else:
                            slots[i] = w
                        break
                    if hashes[w] == h and length[w] == size:
                        s = pool_at[w]
                        j = 0
                        while j < size and pool[s + j] == chars[w0 + j]:
                            j += 1
                        if j == size:
                            break
                    i = (i + 1) & mask
                ids[k] = w
                k += 1
            else:
                if not in_word:
                    in_word = True
                    w0 = p
                    h = _FNV_OFFSET
                h = (h ^ np.uint64(c)) * prime
        word_ends[t] = k
        start = end
    return ids[:k], word_ends, first[:n_words], length[:n_words], lone


@ahead.njit(cache=_CACHE, nogil=True)
def shared_counts(tokens, starts, ends, left, right, n_tokens):
    """Per pair i, the size of the multiset intersection of text left[i]'s tokens and text
    right[i]'s (sum over tokens of the smaller count: SQuAD's `Counter & Counter`)."""
    counts = np.zeros(n_tokens, dtype=np.int64)
    out = np.empty(left.shape[0], dtype=np.int64)
    for i in range(left.shape[0]):
        a0, a1 = starts[left[i]], ends[left[i]]
        b0, b1 = starts[right[i]], ends[right[i]]
        for p in range(a0, a1):
            counts[tokens[p]] += 1
        common = 0
        for p in range(b0, b1):
            if counts[tokens[p]] > 0:
                counts[tokens[p]] -= 1
                common += 1
        for p in range(a0, a1):
            counts[tokens[p]] = 0
        out[i] = common
    return out


@ahead.njit(cache=_CACHE, nogil=True)
def expand(ids, word_ends, first, sizes, flat):
    """Each word id replaced by its tokens flat[first[id]:first[id] + sizes[id]] (none or
    several); returns the tokens and, per text, where its tokens end."""
    total = 0
    for p in range(ids.shape[0]):
        total += sizes[ids[p]]
    out = np.empty(total, dtype=np.int64)
    out_ends = np.empty(word_ends.shape[0], dtype=np.int64)
    k = 0
    p = 0
    for t in range(word_ends.shape[0]):
        while p < word_ends[t]:
            w = ids[p]
            for j in range(first[w], first[w] + sizes[w]):
                out[k] = flat[j]
                k += 1
            p += 1
        out_ends[t] = k
    return out, out_ends


@ahead.njit(cache=_CACHE, nogil=True)
def join_tokens(ids, ends, pool, pool_ends):
    """Every text's tokens joined by single spaces, all texts end to end, and where each
    text ends; token i is pool[pool_ends[i-1]:pool_ends[i]]."""
    total = 0
    start = 0
    for t in range(ends.shape[0]):
        for p in range(start, ends[t]):
            w = ids[p]
            total += pool_ends[w] - (pool_ends[w - 1] if w > 0 else 0) + (p > start)
        start = ends[t]
    out = np.empty(total, dtype=pool.dtype)
    out_ends = np.empty(ends.shape[0], dtype=np.int64)
    k = 0
    start = 0
    for t in range(ends.shape[0]):
        for p in range(start, ends[t]):
            if p > start:
                out[k] = _SPACE
                k += 1
            w = ids[p]
            for j in range(pool_ends[w - 1] if w > 0 else 0, pool_ends[w]):
                out[k] = pool[j]
                k += 1
        out_ends[t] = k
        start = ends[t]
    return out, out_ends


@ahead.njit(cache=_CACHE, nogil=True)
def distinct_counts(ids, starts, ends, left, right, n_ids):
    """Per pair i, (distinct ids of text left[i], distinct ids of text right[i], distinct ids
    in both): the sizes of the two word sets and of their intersection (jaccard). A word's
    stamp says which pair last saw it on that side, so nothing is cleared between pairs."""
    seen_left = np.zeros(n_ids, dtype=np.int64)
    seen_right = np.zeros(n_ids, dtype=np.int64)
    n = left.shape[0]
    out = np.empty((3, n), dtype=np.int64)
    for i in range(n):
        stamp = i + 1
        count_left = 0
        for p in range(starts[left[i]], ends[left[i]]):
            w = ids[p]
            if seen_left[w] != stamp:
                seen_left[w] = stamp
                count_left += 1
        count_right = 0
        both = 0
        for p in range(starts[right[i]], ends[right[i]]):
            w = ids[p]
            if seen_right[w] != stamp:
                seen_right[w] = stamp
                count_right += 1
                if seen_left[w] == stamp:
                    both += 1
        out[0, i] = count_left
        out[1, i] = count_right
        out[2, i] = both
    return out
