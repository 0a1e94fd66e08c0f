"""The compiled loop of ngram_matches (numba). Imported only when a batch scores BLEU or chrF:
numba costs ~0.4 s to import, and the kernel a compile that is cached on disk after the first
run."""

from __future__ import annotations

import sys

import numba
import numpy as np

# Compiled code is cached beside the source; a frozen (PyInstaller) app ships no sources for
# numba to key its cache on (it refuses to decorate), so there it compiles once per process.
_CACHE = not getattr(sys, "frozen", False)
_SIDE_BITS = 4  # the low bits of a key: 3 for the lowest order a window counts at, 1 for the side


@numba.njit(cache=_CACHE, nogil=True)
def _renumber(symbols, start, stop, local, d):
    for p in range(start, stop):
        if local[symbols[p]] == 0:
            local[symbols[p]] = d
            d += 1
    return d


@numba.njit(cache=_CACHE, nogil=True)
def _window_keys(keys, k, symbols, start, stop, end, side, prefix, order, bits, local):
    """Append the key of the window at positions start..stop-1 of a text ending at `end`: its
    symbols (0 past the end), the lowest order at which it is not inside the common prefix,
    and its side."""
    for p in range(start, stop):
        code = 0
        for j in range(order):
            code <<= bits
            if p + j < end:
                code |= local[symbols[p + j]]
        lowest = prefix - p + 1 if prefix - p + 1 > 1 else 1
        keys[k] = (code << _SIDE_BITS) | (lowest << 1) | side
        k += 1
    return k


@numba.njit(cache=_CACHE, nogil=True)
def _clipped_matches(keys, k, order, bits, out_row):
    """Add, for each n, min(hypothesis, reference) over runs of equal n-symbol prefixes."""
    mask = (1 << bits) - 1
    for n in range(1, order + 1):
        shift = _SIDE_BITS + bits * (order - n)
        total = 0
        a = 0
        while a < k:
            prefix = keys[a] >> shift
            hyps = 0
            refs = 0
            b = a
            while b < k and (keys[b] >> shift) == prefix:
                if ((keys[b] >> 1) & 7) <= n:
                    if keys[b] & 1:
                        refs += 1
                    else:
                        hyps += 1
                b += 1
            if prefix & mask:  # a window shorter than n ends in a 0 digit: no n-gram there
                total += hyps if hyps < refs else refs
            a = b
        out_row[n - 1] += total


@numba.njit(cache=_CACHE, nogil=True)
def count(symbols, hyp_start, hyp_end, ref_start, ref_end, order, local, out):
    """out[i, n-1] = clipped n-gram matches of pair i, or -1 (see ngram_matches)."""
    max_bits = (63 - _SIDE_BITS) // order
    keys = np.empty(0, dtype=np.int64)
    for i in range(hyp_start.shape[0]):
        h0, h1, r0, r1 = hyp_start[i], hyp_end[i], ref_start[i], ref_end[i]
        # n-grams inside the common prefix or the common suffix match one for one: only
        # the windows that reach into the differing middle need sorting
        prefix = 0
        limit = min(h1 - h0, r1 - r0)
        while prefix < limit and symbols[h0 + prefix] == symbols[r0 + prefix]:
            prefix += 1
        suffix = 0
        while suffix < limit - prefix and symbols[h1 - 1 - suffix] == symbols[r1 - 1 - suffix]:
            suffix += 1
        for n in range(1, order + 1):
            out[i, n - 1] = max(0, prefix - n + 1) + max(0, suffix - n + 1)
        first = max(0, prefix - order + 1)
        h_stop, r_stop = h1 - h0 - suffix, r1 - r0 - suffix  # window starts end here
        if prefix == h1 - h0 == r1 - r0:
            continue  # identical texts: every n-gram matches
        # the symbols those windows read, renumbered 1..d-1 (0 is "past the end")
        d = _renumber(symbols, h0 + first, min(h1, h0 + h_stop + order - 1), local, 1)
        d = _renumber(symbols, r0 + first, min(r1, r0 + r_stop + order - 1), local, d)
        bits = 1
        while (1 << bits) < d:
            bits += 1
        if bits <= max_bits:
            size = max(0, h_stop - first) + max(0, r_stop - first)
            if keys.shape[0] < size:
                keys = np.empty(2 * size, dtype=np.int64)
            k = _window_keys(keys, 0, symbols, h0 + first, h0 + h_stop, h1, 0, h0 + prefix,
                             order, bits, local)
            k = _window_keys(keys, k, symbols, r0 + first, r0 + r_stop, r1, 1, r0 + prefix,
                             order, bits, local)
            window = keys[:k]
            window.sort()
            _clipped_matches(window, k, order, bits, out[i])
        else:
            out[i, :] = -1
        for p in range(h0 + first, min(h1, h0 + h_stop + order - 1)):
            local[symbols[p]] = 0
        for p in range(r0 + first, min(r1, r0 + r_stop + order - 1)):
            local[symbols[p]] = 0
