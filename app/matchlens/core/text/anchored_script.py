"""An edit script of two long texts, exact between anchors: linear instead of length × distance.

The exact script of two long texts with many edits costs time proportional to length × distance
(a million characters with ~10% edits: tens of seconds of CPU). Cut both texts at anchors, runs
of `K` tokens that occur exactly once in each text, kept in the same order on both sides (the
longest increasing run of them, as patience diff does), and diff only the stretches between
anchors exactly: a valid edit script, in time linear in the texts plus the squares of the gaps,
but not always a minimal one: its edit count is an upper bound of the Levenshtein distance.

`edit_script` uses that bound as the band of the exact
distance (`anchored_distance`, cheaper still: no script) and, when the two agree, as the minimal
script itself. Alone, it serves where a script only has to look right: the compare view's
preview (`core.diff.preview`) and the re-diff of long texts around moved pieces.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

Opcodes = list[tuple[str, int, int, int, int]]

K = 4  # words per anchor: a run of 4 words rarely repeats in prose; a single word often does
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def score_hint(e: Sequence, a: Sequence) -> int:
    """A lower bound of the distance that lets rapidfuzz start with a narrow band."""
    # The length difference is a lower bound of the distance; as a hint it lets rapidfuzz start
    # with a narrow band, which is what makes 100k+ character texts fast.
    return max(abs(len(e) - len(a)), 31)


def _tokens(text: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """(start offset, hash) of each token: words, whitespace runs, single punctuation; in a
    sequence that is not a string (wer's words), each item."""
    if not isinstance(text, str):
        return (np.arange(len(text), dtype=np.int64),
                np.fromiter(map(hash, text), dtype=np.int64, count=len(text)))
    # The three kinds cover every character, so the tokens tile the text: their starts are
    # the running sum of their lengths (no match objects: a third of the time).
    tokens = _TOKEN.findall(text)
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    starts = np.zeros(len(tokens), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    return starts, np.fromiter(map(hash, tokens), dtype=np.int64, count=len(tokens))


def _gram_keys(hashes: np.ndarray) -> np.ndarray:
    """A key per run of K tokens starting at each token (wrapping multiply-add of the hashes)."""
    n = len(hashes) - K + 1
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    keys = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for i in range(K):
            keys = keys * np.uint64(1_000_003) + hashes[i:i + n].astype(np.uint64)
    return keys.view(np.int64)


def _unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The keys that occur once, and where."""
    values, first, counts = np.unique(keys, return_index=True, return_counts=True)
    once = counts == 1
    return values[once], first[once]


def anchors(expected: Sequence, actual: Sequence) -> list[tuple[int, int, int, int]]:
    """Equal stretches (e_start, e_end, a_start, a_end) found by unique K-word runs, in order
    on both sides and not overlapping."""
    e_starts, e_hashes = _tokens(expected)
    a_starts, a_hashes = _tokens(actual)
    e_vals, e_pos = _unique(_gram_keys(e_hashes))
    a_vals, a_pos = _unique(_gram_keys(a_hashes))
    _common, e_idx, a_idx = np.intersect1d(e_vals, a_vals, assume_unique=True,
                                           return_indices=True)
    pairs = sorted(zip(e_pos[e_idx].tolist(), a_pos[a_idx].tolist(), strict=True))
    # the longest run of pairs increasing on both sides (patience sorting)
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(pairs)
    for i, (_e, a) in enumerate(pairs):
        j = bisect.bisect_left(tails, a)
        if j == len(tails):
            tails.append(a)
            tail_at.append(i)
        else:
            tails[j] = a
            tail_at[j] = i
        back[i] = tail_at[j - 1] if j else -1
    chain: list[int] = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        chain.append(i)
        i = back[i]
    e_ends = np.append(e_starts, len(expected))
    a_ends = np.append(a_starts, len(actual))
    out: list[tuple[int, int, int, int]] = []
    for i in reversed(chain):
        te, ta = pairs[i]
        es, ee = int(e_starts[te]), int(e_ends[te + K])
        as_, ae = int(a_starts[ta]), int(a_ends[ta + K])
        if out and (es < out[-1][1] or as_ < out[-1][3]):
            # overlaps the previous anchor: extend it when the two continue one equal run
            if es - out[-1][0] == as_ - out[-1][2]:
                out[-1] = (out[-1][0], max(out[-1][1], ee), out[-1][2], max(out[-1][3], ae))
            continue
        if expected[es:ee] == actual[as_:ae]:  # never trust a hash alone
            out.append((es, ee, as_, ae))
    return out


def _gap_ops(expected: Sequence, actual: Sequence, es: int, ee: int, as_: int, ae: int,
             out: Opcodes) -> None:
    e, a = expected[es:ee], actual[as_:ae]
    if not e and not a:
        return
    if not e or not a or e == a:
        tag = "equal" if e == a else ("insert" if not e else "delete")
        out.append((tag, es, ee, as_, ae))
        return
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(e, a, score_hint=score_hint(e, a)):
        out.append((tag, es + i1, es + i2, as_ + j1, as_ + j2))


def cost(ops: Opcodes) -> int:
    """The edits a script counts: the Levenshtein distance when the script is minimal."""
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")


def anchored_distance(expected: Sequence, actual: Sequence) -> int:
    """The edit count of `anchored_opcodes`' script without building it: an upper bound of the
    distance, the gaps' exact distances summed."""
    total = 0
    e_pos = a_pos = 0
    ends = (len(expected), len(expected), len(actual), len(actual))
    for es, ee, as_, ae in [*anchors(expected, actual), ends]:
        e, a = expected[e_pos:es], actual[a_pos:as_]
        if e != a:
            total += Levenshtein.distance(e, a, score_hint=score_hint(e, a))
        e_pos, a_pos = ee, ae
    return total


def anchored_opcodes(expected: Sequence, actual: Sequence) -> Opcodes:
    """An edit script of the two texts (valid, close to minimal): exact between anchors."""
    ops: Opcodes = []
    e_pos = a_pos = 0
    for es, ee, as_, ae in anchors(expected, actual):
        _gap_ops(expected, actual, e_pos, es, a_pos, as_, ops)
        ops.append(("equal", es, ee, as_, ae))
        e_pos, a_pos = ee, ae
    _gap_ops(expected, actual, e_pos, len(expected), a_pos, len(actual), ops)
    merged: Opcodes = []
    for op in ops:  # touching equal runs as one, as rapidfuzz gives them
        if merged and op[0] == "equal" == merged[-1][0]:
            last = merged[-1]
            merged[-1] = ("equal", last[1], op[2], last[3], op[4])
        else:
            merged.append(op)
    return merged
