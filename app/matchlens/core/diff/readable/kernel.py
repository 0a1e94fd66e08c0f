"""The readable chunks of a long pair, most of them written by compiled code (numba).

`core.readable`'s Python steps cost a few microseconds per change: 10-40% on top of the exact
script itself for a 10k-100k character pair with a change every few dozen characters (the
target is 10%). Here the steps run over arrays: `compiled_regions` merges and extends the
regions, `compiled` writes the chunks of every change that needs no search among several words
(a typo written from the exact script, an insertion or deletion, a word replaced, or inserted or
deleted beside a kept word). What is left (anchors among several words on both sides, typo
pairs, whitespace at the ends of the texts, a typo drawn by character) is marked, and the same
Python functions as on the Python path cut it. The chunks equal the Python path's (a
Hypothesis test compares them on ASCII and non-ASCII text).

Imported only for pairs with many changes (`core.readable.KERNEL_MIN_OPS`): numba costs ~0.3 s
to import and its compiled code a load from the disk cache, which a short `matchlens diff`
should not pay.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter

import numpy as np

from matchlens.core.diff.readable import compiled as compiled
from matchlens.core.diff.readable import compiled_regions
from matchlens.core.diff.readable.pieces import (
    MIN_ANCHOR,
    OPS,
    TYPO_EDITS,
    TYPO_PAIR_LIMIT,
    Chunk,
    write_change,
    write_equal,
    write_typo,
)
from matchlens.core.text.word_edges import is_word_char


def _flags(char: str) -> int:
    return compiled.WORD * is_word_char(char) | compiled.SPACE * char.isspace()


# For ASCII text the class of a character is its code; for other text its flags themselves.
_ASCII_LUT = np.array([_flags(chr(b)) for b in range(128)] + [0] * 128, np.uint8)
_FLAGS_LUT = np.arange(256, dtype=np.uint8)
_NAMES = (*OPS, "python", "typo")
# an opcode's tag, i1 and j1, read in C (the opcodes tile the texts: the rest follows)
_TAG, _I1, _J1 = itemgetter(0), itemgetter(1), itemgetter(3)


def text_arrays(text: str, wide: bool) -> tuple[np.ndarray, np.ndarray]:
    """(codes, classes) of a text for the compiled steps: its code points (uint8 when not
    `wide`, which needs ASCII text, and then also its classes, read through `_ASCII_LUT`), or
    with `wide` uint32 code points and each character's flags (read through `_FLAGS_LUT`)."""
    if not wide:
        codes = np.frombuffer(text.encode("ascii"), np.uint8)
        return codes, codes
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    flags = _ASCII_LUT[np.minimum(codes, 255)]
    high = codes >= 128
    if high.any():  # each distinct non-ASCII character is asked once
        distinct, where = np.unique(codes[high], return_inverse=True)
        flags[high] = np.array([_flags(chr(c)) for c in distinct.tolist()], np.uint8)[where]
    return codes, flags


def chunks_by_kernel(e: str, a: str, ops: Sequence[tuple[str, int, int, int, int]], *,
                     words: bool = False) -> list[Chunk]:
    """`core.readable.chunks_from_opcodes`, its common changes compiled (module docstring)."""
    if not ops:
        return []
    wide = not (e.isascii() and a.isascii())
    ec, ecl = text_arrays(e, wide)
    ac, acl = text_arrays(a, wide)
    n = len(ops)
    lut = _FLAGS_LUT if wide else _ASCII_LUT
    count, m1, m2, n1, n2 = compiled_regions.merge(
        np.frombuffer(bytes(map(len, map(_TAG, ops))), np.uint8),
        np.fromiter(map(_I1, ops), np.int64, n), np.fromiter(map(_J1, ops), np.int64, n),
        ec, ecl, acl, lut)
    first, o1, o2, p1, p2 = compiled_regions.extend(count, m1, m2, n1, n2, ecl, acl, lut)
    count, codes, bounds = compiled.plan(count, first, m1, m2, n1, n2, o1, o2, p1, p2, ec, ecl,
                                         ac, acl, lut, words, TYPO_EDITS, MIN_ANCHOR,
                                         TYPO_PAIR_LIMIT)
    python = np.flatnonzero(codes[:count] >= compiled.PYTHON).tolist()
    codes, bounds = codes[:count].tolist(), bounds[:, :count].tolist()
    chunks = list(map(tuple.__new__, repeat(Chunk),
                      zip(map(_NAMES.__getitem__, codes), *bounds, strict=True)))
    if not python:
        return chunks
    # The few changes left to Python, written in place; the chunks between them are copied.
    out: list[Chunk] = []
    done = 0
    for k in python:
        if done < k:
            if codes[done] == 0 and out:  # it may continue an equality Python's pieces ended
                write_equal(out, *chunks[done][1:])
                done += 1
            out.extend(chunks[done:k])
        i1, i2, j1, j2 = chunks[k][1:]
        if codes[k] == compiled.PYTHON:
            write_change(out, e, a, i1, i2, j1, j2, words=words)
        else:
            write_typo(out, e[i1:i2], a[j1:j2], i1, j1)
        done = k + 1
    if done < len(chunks):
        if codes[done] == 0:
            write_equal(out, *chunks[done][1:])
            done += 1
        out.extend(chunks[done:])
    return out
