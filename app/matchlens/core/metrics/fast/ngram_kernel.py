"""The compiled loop of ngram_matches (numba). Imported only when a batch scores BLEU or chrF:
numba costs ~0.4 s to import, and the kernel a compile that is cached on disk after the first
run."""

from __future__ import annotations

import numpy as np

from matchlens.core.metrics.fast import ahead

# Compiled code is cached on disk: beside the source, or in a frozen (PyInstaller) app under
# the user's cache folder (packaging/frozen/ names numba the cache locator for it).
_CACHE = True
_SIDE_BITS = 4  # the low bits of a key: 3 for the lowest order a window counts at, 1 for the side
_REACH = 8  # how far past a difference (in symbols, both sides together) a block is looked for
_SMALL = 24  # a bucket of at most this many keys is sorted by insertion
_PAIRS = 64  # up to this many distinct symbols, windows are sifted by their first two symbols


@ahead.njit(cache=_CACHE, nogil=True)
def _windows(symbols, h0, r0, prefix, h_stop, r_stop, order, h_pos, h_rem, r_pos, r_rem,
             out_row):
    """The windows to sort, per side: their start (pos) and how many symbols of an aligned
    block start there (rem; 0 outside blocks); returns how many per side.

    Blocks: the common prefix, then, between positions prefix and h_stop / r_stop (where the
    common suffix starts), blocks found greedily left to right: after a difference, the nearest
    pair of positions (within _REACH) from which `order` symbols agree starts a block, as long
    as they keep agreeing. Their n-grams match one for one: counted here, into out_row. A
    window reaching out of its block (rem < order) is one to sort."""
    nh = nr = 0
    for p in range(max(0, prefix - order + 1), prefix):
        h_pos[nh], h_rem[nh] = p, prefix - p
        r_pos[nr], r_rem[nr] = p, prefix - p
        nh += 1
        nr += 1
    i = j = prefix
    while i < h_stop and j < r_stop:
        found = False
        for s in range(1, _REACH + 1):
            for a in range(s + 1):
                b = s - a
                if i + a + order > h_stop or j + b + order > r_stop:
                    continue
                same = True
                for q in range(order):
                    if symbols[h0 + i + a + q] != symbols[r0 + j + b + q]:
                        same = False
                        break
                if same:
                    found = True
                    break
            if found:
                break
        if not found:
            break
        for q in range(i, i + a):
            h_pos[nh], h_rem[nh] = q, 0
            nh += 1
        for q in range(j, j + b):
            r_pos[nr], r_rem[nr] = q, 0
            nr += 1
        i += a
        j += b
        size = order
        while i + size < h_stop and j + size < r_stop and (
                symbols[h0 + i + size] == symbols[r0 + j + size]):
            size += 1
        for q in range(size - order + 1, size):
            h_pos[nh], h_rem[nh] = i + q, size - q
            r_pos[nr], r_rem[nr] = j + q, size - q
            nh += 1
            nr += 1
        for n in range(1, order + 1):
            out_row[n - 1] += size - n + 1
        i += size
        j += size
    for q in range(i, h_stop):
        h_pos[nh], h_rem[nh] = q, 0
        nh += 1
    for q in range(j, r_stop):
        r_pos[nr], r_rem[nr] = q, 0
        nr += 1
    return nh, nr


@ahead.njit(cache=_CACHE, nogil=True)
def _renumber_windows(symbols, t0, pos, n, length, order, local, d):
    """Renumber (d, d + 1, ...) the symbols the windows read; returns the next number."""
    covered = 0
    for x in range(n):
        p = pos[x]
        for q in range(max(p, covered), min(length, p + order)):
            if local[symbols[t0 + q]] == 0:
                local[symbols[t0 + q]] = d
                d += 1
        covered = max(covered, min(length, p + order))
    return d


@ahead.njit(cache=_CACHE, nogil=True)
def _forget(symbols, t0, pos, n, length, order, local):
    covered = 0
    for x in range(n):
        p = pos[x]
        for q in range(max(p, covered), min(length, p + order)):
            local[symbols[t0 + q]] = 0
        covered = max(covered, min(length, p + order))


@ahead.njit(cache=_CACHE, nogil=True)
def _window_keys(keys, k, symbols, t0, pos, rem, n, length, side, order, bits, local,
                 bigrams, low):
    """Append each window's key: its symbols (0 past the end), the lowest order at which it
    is not inside a block (at least `low`), its side. With low = 2, only windows whose first
    two symbols begin a window of the other side (bigrams, see _pair_table) are kept."""
    other = 1 << (1 - side)
    for x in range(n):
        p = pos[x]
        if low == 2 and (p + 1 >= length or not bigrams[
                local[symbols[t0 + p]] * _PAIRS + local[symbols[t0 + p + 1]]] & other):
            continue
        code = 0
        for j in range(order):
            code <<= bits
            if p + j < length:
                code |= local[symbols[t0 + p + j]]
        keys[k] = (code << _SIDE_BITS) | (max(rem[x] + 1, low) << 1) | side
        k += 1
    return k


@ahead.njit(cache=_CACHE, nogil=True)
def _pair_table(symbols, t0, pos, rem, n, length, side, local, bigrams, unigrams):
    """Note the first two symbols of each window of one side (bigrams[a * _PAIRS + b] |=
    1 << side), and count the symbols not in any block (the 1-grams left to match:
    unigrams[2 * a + side])."""
    for x in range(n):
        p = pos[x]
        a = local[symbols[t0 + p]]
        if rem[x] == 0:
            unigrams[2 * a + side] += 1
        if p + 1 < length:
            bigrams[a * _PAIRS + local[symbols[t0 + p + 1]]] |= 1 << side


@ahead.njit(cache=_CACHE, nogil=True)
def _sort_keys(keys, k, shift, d, counts, sorted_keys):
    """keys[:k] sorted into sorted_keys: bucketed by their first symbol (< d, at `shift`),
    then each bucket by insertion (or numpy's sort when it is big)."""
    for b in range(d + 1):
        counts[b] = 0
    for x in range(k):
        counts[(keys[x] >> shift) + 1] += 1
    for b in range(d):
        counts[b + 1] += counts[b]
    for x in range(k):
        b = keys[x] >> shift
        sorted_keys[counts[b]] = keys[x]
        counts[b] += 1
    start = 0
    for b in range(d):  # counts[b] is now where bucket b ends
        end = counts[b]
        if end - start > _SMALL:
            sorted_keys[start:end].sort()
        else:
            for x in range(start + 1, end):
                key = sorted_keys[x]
                y = x - 1
                while y >= start and sorted_keys[y] > key:
                    sorted_keys[y + 1] = sorted_keys[y]
                    y -= 1
                sorted_keys[y + 1] = key
        start = end


@ahead.njit(cache=_CACHE, nogil=True)
def _clipped_matches(keys, k, order, bits, out_row, hyps, refs):
    """Add, for each n, min(hypothesis, reference) over runs of equal n-symbol prefixes, in
    one pass: how many symbols a key shares with the one before it tells which runs end (those
    of the longer orders); `hyps` and `refs` count each order's current run."""
    mask = (1 << bits) - 1
    top = _SIDE_BITS + bits * (order - 1)  # where the first symbol is
    hyps[:] = 0
    refs[:] = 0
    for x in range(k):
        key = keys[x]
        if x > 0:
            shared = 0
            while shared < order and ((key ^ keys[x - 1]) >> (top - bits * shared)) & mask == 0:
                shared += 1
            for n in range(shared + 1, order + 1):
                out_row[n - 1] += min(hyps[n], refs[n])
                hyps[n] = 0
                refs[n] = 0
        length = order  # a window near the end of its text: 0 digits past it, fewer n-grams
        while length > 0 and (key >> (top - bits * (length - 1))) & mask == 0:
            length -= 1
        counts = refs if key & 1 else hyps
        for n in range((key >> 1) & 7, length + 1):  # from the lowest order it counts at
            counts[n] += 1
    for n in range(1, order + 1):
        out_row[n - 1] += min(hyps[n], refs[n])


@ahead.njit(cache=_CACHE, nogil=True)
def count(symbols, hyp_start, hyp_end, ref_start, ref_end, order, local, out):
    """out[i, n-1] = clipped n-gram matches of pair i, or -1 (see ngram_matches)."""
    pairs = hyp_start.shape[0]
    longest = 1
    for i in range(pairs):
        longest = max(longest, hyp_end[i] - hyp_start[i], ref_end[i] - ref_start[i])
    # every buffer sized once: an array rebound inside the loop costs reference counting
    keys = np.empty(2 * longest, dtype=np.int64)
    sorted_keys = np.empty(2 * longest, dtype=np.int64)
    counts = np.empty(2 * longest + 2, dtype=np.int64)
    h_pos = np.empty(longest, dtype=np.int64)
    h_rem = np.empty(longest, dtype=np.int64)
    r_pos = np.empty(longest, dtype=np.int64)
    r_rem = np.empty(longest, dtype=np.int64)
    hyps = np.empty(order + 1, dtype=np.int64)
    refs = np.empty(order + 1, dtype=np.int64)
    bigrams = np.empty(_PAIRS * _PAIRS, dtype=np.uint8)
    unigrams = np.empty(2 * _PAIRS, dtype=np.int64)
    for i in range(pairs):
        _count_pair(symbols, hyp_start[i], hyp_end[i], ref_start[i], ref_end[i], order, local,
                    out[i], keys, sorted_keys, counts, h_pos, h_rem, r_pos, r_rem, hyps, refs,
                    bigrams, unigrams)


@ahead.njit(cache=_CACHE, nogil=True)
def _count_pair(symbols, h0, h1, r0, r1, order, local, out_row, keys, sorted_keys, counts,
                h_pos, h_rem, r_pos, r_rem, hyps, refs, bigrams, unigrams):
    max_bits = (63 - _SIDE_BITS) // order
    hl, rl = h1 - h0, r1 - r0
    # n-grams inside the common prefix or the common suffix, or inside a block aligned
    # between them, match one for one: only the windows reaching out of those need sorting
    prefix = 0
    limit = min(hl, rl)
    while prefix < limit and symbols[h0 + prefix] == symbols[r0 + prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and symbols[h1 - 1 - suffix] == symbols[r1 - 1 - suffix]:
        suffix += 1
    for n in range(1, order + 1):
        out_row[n - 1] = max(0, prefix - n + 1) + max(0, suffix - n + 1)
    if prefix == hl == rl:
        return  # identical texts: every n-gram matches
    h_stop, r_stop = hl - suffix, rl - suffix  # window starts end here
    nh, nr = _windows(symbols, h0, r0, prefix, h_stop, r_stop, order, h_pos, h_rem, r_pos,
                      r_rem, out_row)
    # the symbols those windows read, renumbered 1..d-1 (0 is "past the end")
    d = _renumber_windows(symbols, h0, h_pos, nh, hl, order, local, 1)
    d = _renumber_windows(symbols, r0, r_pos, nr, rl, order, local, d)
    bits = 1
    while (1 << bits) < d:
        bits += 1
    if bits <= max_bits:
        # Few symbols (chrF's characters): the 1-grams are counted directly, and a window
        # whose first two symbols begin no window of the other side is left out, since none of
        # its n-grams (n >= 2) can match and every window sharing them is left out with it.
        low = 2 if d <= _PAIRS and order > 1 else 1
        if low == 2:
            bigrams[:d * _PAIRS] = 0
            unigrams[:2 * d] = 0
            _pair_table(symbols, h0, h_pos, h_rem, nh, hl, 0, local, bigrams, unigrams)
            _pair_table(symbols, r0, r_pos, r_rem, nr, rl, 1, local, bigrams, unigrams)
            for a in range(1, d):
                out_row[0] += min(unigrams[2 * a], unigrams[2 * a + 1])
        k = _window_keys(keys, 0, symbols, h0, h_pos, h_rem, nh, hl, 0, order, bits, local,
                         bigrams, low)
        k = _window_keys(keys, k, symbols, r0, r_pos, r_rem, nr, rl, 1, order, bits, local,
                         bigrams, low)
        _sort_keys(keys, k, _SIDE_BITS + bits * (order - 1), d, counts, sorted_keys)
        _clipped_matches(sorted_keys, k, order, bits, out_row, hyps, refs)
    else:
        out_row[:] = -1
    _forget(symbols, h0, h_pos, nh, hl, order, local)
    _forget(symbols, r0, r_pos, nr, rl, order, local)
