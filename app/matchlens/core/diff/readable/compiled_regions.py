"""The compiled steps of the readable regions (numba): `readable.regions`' merge_semantic and
extend_to_words on arrays, called by `readable.kernel` before `compiled.plan` cuts the chunks.

A text is two arrays as in `compiled`: `codes` and `cls`, whose `lut[cls[p]]` holds bit WORD for
a word character and bit SPACE for whitespace. The helpers are this module's own copies (numba's
disk cache is keyed on the module a function is defined in, and would not notice a change in a
helper imported from another); the test suite checks that the chunks equal the Python steps'.
"""

from __future__ import annotations

import numpy as np

from matchlens.core.diff.readable.compiled import EQUAL_LEN, SPACE, WORD
from matchlens.core.metrics.fast import ahead

# numba's JIT, or this source's kernels compiled ahead of time (metrics.fast.ahead)
jit = ahead.njit(cache=True, nogil=True)


@jit
def _word(cls, lut, p):  # noqa: ANN001, ANN202
    return (lut[cls[p]] & WORD) != 0


@jit
def _space(cls, lut, p):  # noqa: ANN001, ANN202
    return (lut[cls[p]] & SPACE) != 0


@jit
def _splits(cls, lut, pos):  # noqa: ANN001, ANN202
    """`word_edges._splits`: whether a boundary at pos falls inside a word."""
    return 0 < pos < cls.shape[0] and _word(cls, lut, pos - 1) and _word(cls, lut, pos)


@jit
def _blank(ecl, acl, lut, i1, i2, j1, j2):  # noqa: ANN001, ANN202
    """`readable_regions.is_blank`."""
    for p in range(i1, i2):
        if not _space(ecl, lut, p):
            return False
    for p in range(j1, j2):
        if not _space(acl, lut, p):
            return False
    return i2 > i1 or j2 > j1


@jit
def _has_newline(codes, start, end):  # noqa: ANN001, ANN202
    for p in range(start, end):  # noqa: SIM110 (a loop: numba compiles no any(generator))
        if codes[p] == 10:
            return True
    return False


@jit
def merge(tag_len, i1s, j1s, ec, ecl, acl, lut):  # noqa: ANN001, ANN201
    """`readable_regions.merge_semantic`: (count, m1, m2, n1, n2)."""
    n = tag_len.shape[0]
    e_end, a_end = ecl.shape[0], acl.shape[0]
    m1, m2 = np.empty(n, np.int64), np.empty(n, np.int64)
    n1, n2 = np.empty(n, np.int64), np.empty(n, np.int64)
    blank = np.empty(n, np.bool_)
    top = 0
    for k in range(n):
        if tag_len[k] == EQUAL_LEN:
            continue
        i1, j1 = i1s[k], j1s[k]
        i2, j2 = (i1s[k + 1], j1s[k + 1]) if k + 1 < n else (e_end, a_end)
        this_blank = _blank(ecl, acl, lut, i1, i2, j1, j2)
        if top and m2[top - 1] == i1 and n2[top - 1] == j1:
            m2[top - 1], n2[top - 1] = i2, j2
            blank[top - 1] = blank[top - 1] and this_blank
            continue
        m1[top], m2[top], n1[top], n2[top], blank[top] = i1, i2, j1, j2, this_blank
        top += 1
        while top >= 2:
            b, c = top - 2, top - 1
            gap = m1[c] - m2[b]
            if (gap <= max(m2[b] - m1[b], n2[b] - n1[b])
                    and gap <= max(m2[c] - m1[c], n2[c] - n1[c])
                    and not blank[b] and not blank[c] and not _has_newline(ec, m2[b], m1[c])):
                m2[b], n2[b] = m2[c], n2[c]
                top -= 1
            else:
                break
    return top, m1, m2, n1, n2


@jit
def extend(count, m1, m2, n1, n2, ecl, acl, lut):  # noqa: ANN001, ANN201
    """`readable_regions.extend_to_words`, in place: returns (first, o1, o2, p1, p2), the
    regions being m1..n2[first:count] and their original bounds o1..p2 (o1 < 0: merged)."""
    o1, o2 = np.empty(count, np.int64), np.empty(count, np.int64)
    p1, p2 = np.empty(count, np.int64), np.empty(count, np.int64)
    top = 0
    for k in range(count):
        i1, i2, j1, j2 = m1[k], m2[k], n1[k], n2[k]
        q1, q2, r1, r2 = i1, i2, j1, j2
        while _splits(ecl, lut, i1) or _splits(acl, lut, j1):
            floor = m2[top - 1] if top else 0
            s = i1
            while s > floor and _word(ecl, lut, s - 1):
                s -= 1
            i1, j1 = s, j1 - (i1 - s)
            if top and s == floor:  # the whole equality was a word fragment: one change
                top -= 1
                i1, j1, q1 = m1[top], n1[top], -1
                continue
            break
        m1[top], m2[top], n1[top], n2[top] = i1, i2, j1, j2
        o1[top], o2[top], p1[top], p2[top] = q1, q2, r1, r2
        top += 1
    # Right edges, right to left; the finished regions fill the same arrays from the end.
    size = ecl.shape[0]
    done = count
    for k in range(top - 1, -1, -1):
        i1, i2, j1, j2 = m1[k], m2[k], n1[k], n2[k]
        q1, q2, r1, r2 = o1[k], o2[k], p1[k], p2[k]
        while _splits(ecl, lut, i2) or _splits(acl, lut, j2):
            ceiling = m1[done] if done < count else size
            s = i2
            while s < ceiling and _word(ecl, lut, s):
                s += 1
            i2, j2 = s, j2 + (s - i2)
            if done < count and s == ceiling:
                i2, j2, q1 = m2[done], n2[done], -1
                done += 1
                continue
            break
        done -= 1
        m1[done], m2[done], n1[done], n2[done] = i1, i2, j1, j2
        o1[done], o2[done], p1[done], p2[done] = q1, q2, r1, r2
    return done, o1, o2, p1, p2
