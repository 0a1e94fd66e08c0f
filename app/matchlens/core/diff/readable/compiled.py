"""The compiled steps that cut the readable chunks (numba): `readable_kernel` feeds them arrays.

Each function mirrors a Python step it names; the test suite checks that the chunks are the
same. A text is two arrays: `codes` (its code points, compared for equality) and `cls`, whose
`lut[cls[p]]` holds bit 1 when character p is a word character and bit 2 when it is whitespace
(for ASCII text `cls` is the codes themselves and `lut` a table by code). Every jitted function
these call lives in this module (the regions' steps, `compiled_regions`, are called from Python
before them): numba's disk cache is keyed on the module a function is defined in, and would not
notice a change in a helper imported from another.

Chunk codes: 0-3 are `OPS` indexes (equal, delete, insert, replace); PYTHON marks a change that
`readable_pieces.write_change` cuts (anchors among several words, typo pairs, whitespace at the
ends of the texts), TYPO one that `readable_pieces.write_typo` draws by character.
"""

from __future__ import annotations

import numpy as np

from matchlens.core.metrics.fast import ahead

# Compiled code is cached on disk: beside the source, or in a frozen (PyInstaller) app under
# the user's cache folder (packaging/frozen/ names numba the cache locator for it).
_CACHE = True
PYTHON, TYPO = 4, 5
WORD, SPACE = 1, 2  # bits of lut[cls[p]]
EQUAL_LEN = len("equal")  # the opcode tags arrive as their lengths: "equal" is the only 5
UNIT_CAP = 50  # units per side a change is cut with here; beyond, PYTHON (rare, long changes)

# numba's JIT, or this source's kernels compiled ahead of time (metrics.fast.ahead)
jit = ahead.njit(cache=_CACHE, nogil=True)


@jit
def _word(cls, lut, p):  # noqa: ANN001, ANN202
    return (lut[cls[p]] & WORD) != 0


@jit
def _space(cls, lut, p):  # noqa: ANN001, ANN202
    return (lut[cls[p]] & SPACE) != 0


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
def _same(ec, i1, i2, ac, j1, j2):  # noqa: ANN001, ANN202
    if i2 - i1 != j2 - j1:
        return False
    for k in range(i2 - i1):  # noqa: SIM110 (a loop: numba compiles no all(generator))
        if ec[i1 + k] != ac[j1 + k]:
            return False
    return True


@jit
def emit(codes, bounds, out, code, i1, i2, j1, j2):  # noqa: ANN001, ANN201
    """Append a chunk (an equal one joins the equal one before it: `write_equal`)."""
    if code == 0:
        if i2 <= i1:
            return out
        if out and codes[out - 1] == 0 and bounds[1, out - 1] == i1 and bounds[3, out - 1] == j1:
            bounds[1, out - 1], bounds[3, out - 1] = i2, j2
            return out
    elif code == 3:
        code = 2 if i1 == i2 else 1 if j1 == j2 else 3
    codes[out] = code
    bounds[0, out], bounds[1, out], bounds[2, out], bounds[3, out] = i1, i2, j1, j2
    return out + 1


@jit
def units(cls, lut, lo, hi, starts, words):  # noqa: ANN001, ANN201
    """`readable_pieces._UNIT`'s units of text[lo:hi]: their starts and where their words
    start (at the unit's end when it has none); their count, or UNIT_CAP + 1 when more."""
    count, p = 0, lo
    while p < hi:
        if count > UNIT_CAP:
            return count
        starts[count] = p
        while p < hi and not _word(cls, lut, p):
            p += 1
        words[count] = p
        while p < hi and _word(cls, lut, p):
            p += 1
        count += 1
    return count


@jit
def within(ec, i1, i2, ac, j1, j2, limit):  # noqa: ANN001, ANN201
    """Whether the Levenshtein distance of ec[i1:i2] and ac[j1:j2] is at most `limit` (common
    ends stripped, then the band of the table around its diagonal)."""
    while i1 < i2 and j1 < j2 and ec[i1] == ac[j1]:
        i1 += 1
        j1 += 1
    while i1 < i2 and j1 < j2 and ec[i2 - 1] == ac[j2 - 1]:
        i2 -= 1
        j2 -= 1
    m, n = i2 - i1, j2 - j1
    if abs(m - n) > limit:
        return False
    if m == 0 or n == 0:
        return max(m, n) <= limit
    big = limit + 1
    prev, cur = np.full(n + 1, big, np.int64), np.full(n + 1, big, np.int64)
    for j in range(min(n, limit) + 1):
        prev[j] = j
    for i in range(1, m + 1):
        lo, hi = max(0, i - limit), min(n, i + limit)
        best = big
        for j in range(lo, hi + 1):
            v = i if j == 0 else prev[j - 1] + (ec[i1 + i - 1] != ac[j1 + j - 1])
            if j <= i - 1 + limit and prev[j] + 1 < v:
                v = prev[j] + 1
            if j > lo and cur[j - 1] + 1 < v:
                v = cur[j - 1] + 1
            cur[j] = min(v, big)
            best = min(best, cur[j])
        if best > limit:
            return False
        prev, cur = cur, prev
    return prev[n] <= limit


@jit
def _stripped(cls, lut, start, end):  # noqa: ANN001, ANN202
    """len(text[start:end].strip())."""
    while start < end and _space(cls, lut, start):
        start += 1
    while end > start and _space(cls, lut, end - 1):
        end -= 1
    return end - start


@jit
def _typo_pair(ec, ecl, xs, xe, ac, acl, ys, ye, lut, typo):  # noqa: ANN001, ANN202
    """`pieces.is_typo_pair` of the units ec[xs:xe] and ac[ys:ye]."""
    letters = max(_stripped(ecl, lut, xs, xe), _stripped(acl, lut, ys, ye))
    limit = min(typo, (letters - 1) // 2)
    return limit > 0 and not _same(ec, xs, xe, ac, ys, ye) and within(ec, xs, xe, ac, ys, ye,
                                                                        limit)


@jit
def cut(codes, bounds, out, ec, ecl, ac, acl, lut, i1, i2, j1, j2, words, typo, min_anchor,
        pair_limit, e_starts, e_words, a_starts, a_words):  # noqa: ANN001, ANN201
    """`readable_pieces.write_change` of one change not at the ends of the texts: the chunks it
    writes, or PYTHON / TYPO for the cases left to Python. The unit arrays are scratch."""
    if i1 == i2 or j1 == j2:
        return emit(codes, bounds, out, 3, i1, i2, j1, j2)
    ne = units(ecl, lut, i1, i2, e_starts, e_words)
    na = units(acl, lut, j1, j2, a_starts, a_words)
    if ne > UNIT_CAP or na > UNIT_CAP:
        return emit(codes, bounds, out, PYTHON, i1, i2, j1, j2)
    e_starts[ne], a_starts[na] = i2, j2  # so that unit k ends at starts[k + 1]
    if ne == 1 or na == 1:
        # `_anchored` with one unit on a side: the anchor is the first unit of the other side
        # with the same word, when that word is long enough.
        found = -1
        if ne == 1:
            for k in range(na):
                if a_words[k] < a_starts[k + 1] and _same(ec, e_words[0], i2, ac, a_words[k],
                                                          a_starts[k + 1]):
                    found = k
                    break
            es, ee = e_words[0], i2
            as_, ae = (a_words[found], a_starts[found + 1]) if found >= 0 else (0, 0)
        else:
            for k in range(ne):
                if e_words[k] < e_starts[k + 1] and _same(ec, e_words[k], e_starts[k + 1], ac,
                                                          a_words[0], j2):
                    found = k
                    break
            as_, ae = a_words[0], j2
            es, ee = (e_words[found], e_starts[found + 1]) if found >= 0 else (0, 0)
        if found >= 0 and ee - es >= min_anchor:
            while es > i1 and as_ > j1 and ec[es - 1] == ac[as_ - 1] and not _word(ecl, lut, es - 1):
                es -= 1
                as_ -= 1
            while ee < i2 and ae < j2 and ec[ee] == ac[ae] and not _word(ecl, lut, ee):
                ee += 1
                ae += 1
            for lo1, hi1, lo2, hi2, kind in ((i1, es, j1, as_, 3), (es, ee, as_, ae, 0),
                                            (ee, i2, ae, j2, 3)):
                if kind == 3 and (lo1, lo2) == (hi1, hi2):
                    continue
                if kind == 3 and hi1 > lo1 and hi2 > lo2:
                    kind = PYTHON  # `_change` of a piece with both sides: Python
                out = emit(codes, bounds, out, kind, lo1, hi1, lo2, hi2)
            return out
    else:
        # Several units on both sides: anchors (Python) when a run of units as `_longest_run`
        # grows it (a word, then whole units with words) reaches `min_anchor` characters.
        for x in range(ne):
            for y in range(na):
                if e_words[x] < e_starts[x + 1] and _same(ec, e_words[x], e_starts[x + 1], ac,
                                                          a_words[y], a_starts[y + 1]):
                    chars, xx, yy = e_starts[x + 1] - e_words[x], x + 1, y + 1
                    while (chars < min_anchor and xx < ne and yy < na
                           and e_words[xx] < e_starts[xx + 1]
                           and _same(ec, e_starts[xx], e_starts[xx + 1], ac, a_starts[yy],
                                     a_starts[yy + 1])):
                        chars += e_starts[xx + 1] - e_starts[xx]
                        xx += 1
                        yy += 1
                    if chars >= min_anchor:
                        return emit(codes, bounds, out, PYTHON, i1, i2, j1, j2)
    # No anchor: `_change`.
    if words:
        return emit(codes, bounds, out, 3, i1, i2, j1, j2)
    if within(ec, i1, i2, ac, j1, j2, typo):
        return emit(codes, bounds, out, TYPO, i1, i2, j1, j2)
    if ne + na > 2 and ne * na <= pair_limit:
        for x in range(ne):
            for y in range(na):
                if _typo_pair(ec, ecl, e_starts[x], e_starts[x + 1], ac, acl, a_starts[y],
                              a_starts[y + 1], lut, typo):
                    return emit(codes, bounds, out, PYTHON, i1, i2, j1, j2)  # `_split_typos`
    return emit(codes, bounds, out, 3, i1, i2, j1, j2)


@jit
def _trailing_space(cls, lut, lo, hi):  # noqa: ANN001, ANN202
    p = hi
    while p > lo and _space(cls, lut, p - 1):
        p -= 1
    return hi - p


@jit
def _leading_space(cls, lut, lo, hi):  # noqa: ANN001, ANN202
    p = lo
    while p < hi and _space(cls, lut, p):
        p += 1
    return p - lo


@jit
def edge(codes, bounds, out, ec, ecl, ac, acl, lut, i1, i2, j1, j2, at_start, at_end, words,
         typo, min_anchor, pair_limit, e_starts, e_words, a_starts, a_words):  # noqa: ANN001, ANN201
    """`write_change` of a change at the start or end of both texts: its differing leading or
    trailing whitespace apart (`_edge_whitespace`), the rest cut, and touching pieces joined
    (`_merge_touching`). PYTHON when the rest holds a piece left to Python."""
    lead_e = lead_a = trail_e = trail_a = 0
    if at_end:
        trail_e, trail_a = _trailing_space(ecl, lut, i1, i2), _trailing_space(acl, lut, j1, j2)
    if at_start and (i2 - trail_e, j2 - trail_a) != (0, 0):
        lead_e = _leading_space(ecl, lut, i1, i2 - trail_e)
        lead_a = _leading_space(acl, lut, j1, j2 - trail_a)
    start = out
    # The equality before, which `emit` may lengthen: restored if Python is to cut it all.
    before = (bounds[1, out - 1], bounds[3, out - 1]) if out else (0, 0)
    if lead_e or lead_a:
        out = emit(codes, bounds, out, 3, i1, i1 + lead_e, j1, j1 + lead_a)
    lo1, hi1, lo2, hi2 = i1 + lead_e, i2 - trail_e, j1 + lead_a, j2 - trail_a
    if hi1 > lo1 or hi2 > lo2:
        out = cut(codes, bounds, out, ec, ecl, ac, acl, lut, lo1, hi1, lo2, hi2, words, typo,
                  min_anchor, pair_limit, e_starts, e_words, a_starts, a_words)
    if trail_e or trail_a:
        out = emit(codes, bounds, out, 3, hi1, i2, hi2, j2)
    if not (lead_e or lead_a or trail_e or trail_a):
        return out
    for k in range(start, out):
        if codes[k] >= PYTHON:  # the pieces to join are not all here: Python does it all
            if start:
                bounds[1, start - 1], bounds[3, start - 1] = before
            return emit(codes, bounds, start, PYTHON, i1, i2, j1, j2)
    kept = start
    for k in range(start, out):
        if kept > start and codes[k] and codes[kept - 1]:
            x1, x2, y1, y2 = bounds[0, kept - 1], bounds[1, k], bounds[2, kept - 1], bounds[3, k]
            op = 2 if x1 == x2 else 1 if y1 == y2 else 3
            blank = (_blank(ecl, acl, lut, bounds[0, k], bounds[1, k], bounds[2, k], bounds[3, k])
                     or _blank(ecl, acl, lut, bounds[0, kept - 1], bounds[1, kept - 1],
                               bounds[2, kept - 1], bounds[3, kept - 1]))
            if op == codes[kept - 1] == codes[k] or not blank:
                codes[kept - 1], bounds[1, kept - 1], bounds[3, kept - 1] = op, x2, y2
                continue
        codes[kept] = codes[k]
        for row in range(4):
            bounds[row, kept] = bounds[row, k]
        kept += 1
    return kept


@jit
def plan(count, first, m1, m2, n1, n2, o1, o2, p1, p2, ec, ecl, ac, acl, lut, words, typo,  # noqa: ANN001, ANN201
         min_anchor, pair_limit):
    """`core.readable.python_chunks`: (count, codes, bounds) of the chunks, the rows of bounds
    being i1, i2, j1, j2, from the regions `compiled_regions` merged and extended (m1..n2 from
    `first` to `count`, their bounds before extending o1..p2)."""
    e_end, a_end = ecl.shape[0], acl.shape[0]
    # Per change at most an equality and three pieces, and for the (at most two) changes at the
    # ends of the texts a whitespace piece more on each side; then the last equality.
    size = 4 * (count - first) + 5
    codes, bounds = np.empty(size, np.int8), np.empty((4, size), np.int64)
    e_starts, e_words = np.empty(UNIT_CAP + 2, np.int64), np.empty(UNIT_CAP + 2, np.int64)
    a_starts, a_words = np.empty(UNIT_CAP + 2, np.int64), np.empty(UNIT_CAP + 2, np.int64)
    out = e_pos = a_pos = 0
    for k in range(first, count):
        i1, i2, j1, j2 = m1[k], m2[k], n1[k], n2[k]
        at_start, at_end = i1 == 0 and j1 == 0, i2 == e_end and j2 == a_end
        if (o1[k] >= 0 and not words and not at_start and not at_end
                and o2[k] - o1[k] <= typo and p2[k] - p1[k] <= typo):
            # A typo alone in its word(s): the exact script's own run.
            out = emit(codes, bounds, out, 0, e_pos, o1[k], a_pos, p1[k])
            out = emit(codes, bounds, out, 3, o1[k], o2[k], p1[k], p2[k])
            e_pos, a_pos = o2[k], p2[k]
            continue
        out = emit(codes, bounds, out, 0, e_pos, i1, a_pos, j1)
        e_pos, a_pos = i2, j2
        if at_start or at_end:
            out = edge(codes, bounds, out, ec, ecl, ac, acl, lut, i1, i2, j1, j2, at_start,
                       at_end, words, typo, min_anchor, pair_limit, e_starts, e_words, a_starts,
                       a_words)
            continue
        out = cut(codes, bounds, out, ec, ecl, ac, acl, lut, i1, i2, j1, j2, words, typo,
                  min_anchor, pair_limit, e_starts, e_words, a_starts, a_words)
    out = emit(codes, bounds, out, 0, e_pos, e_end, a_pos, a_end)
    return out, codes, bounds
