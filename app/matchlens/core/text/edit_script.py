"""The minimal edit script of a pair, computed once per process for everyone who needs it.

The highlight (`alignment`, `readable`), levenshtein_distance (its edit counts), cer (jiwer's
counts) and levenshtein_similarity (the distance) all want rapidfuzz's Levenshtein script of the
same two texts: at 100k characters that is ~70 ms each. The compare tab runs these tasks one
after another in the same lane process (scheduler: `SHARED_SCRIPT_TASKS`), so keeping the last
few scripts here turns four computations into one. Keys are the texts themselves: a lane holds
one pair of string objects per text, so a lookup is an identity check, never a long compare.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

Opcodes = list[tuple[str, int, int, int, int]]

_KEEP = 4
_cache: OrderedDict[tuple[object, object], Opcodes] = OrderedDict()
_lock = threading.Lock()


def score_hint(e: Sequence, a: Sequence) -> int:
    """A lower bound of the distance that lets rapidfuzz start with a narrow band."""
    # The length difference is a lower bound of the distance; as a hint it lets rapidfuzz start
    # with a narrow band, which is what makes 100k+ character texts fast.
    return max(abs(len(e) - len(a)), 31)


def _key(e: Sequence, a: Sequence) -> tuple[object, object] | None:
    # Lists (token sequences) are not hashable: those are not shared.
    return (e, a) if isinstance(e, str) and isinstance(a, str) else None


def opcodes(e: Sequence, a: Sequence) -> Opcodes:
    """rapidfuzz's minimal script as (tag, i1, i2, j1, j2) runs, kept for the next caller."""
    key = _key(e, a)
    if key is not None:
        with _lock:
            found = _cache.get(key)
            if found is not None:
                _cache.move_to_end(key)
                return found
    ops = Levenshtein.opcodes(e, a, score_hint=score_hint(e, a)).as_list()
    if key is not None:
        with _lock:
            _cache[key] = ops
            while len(_cache) > _KEEP:
                _cache.popitem(last=False)
    return ops


def counts(e: Sequence, a: Sequence) -> dict[str, int]:
    """How many substitutions ("replace"), insertions and deletions the script has."""
    out = {"replace": 0, "insert": 0, "delete": 0}
    for tag, i1, i2, j1, j2 in opcodes(e, a):
        if tag != "equal":
            out[tag] += max(i2 - i1, j2 - j1)
    return out


def distance(e: Sequence, a: Sequence) -> int:
    """The distance: from a kept script when there is one, else rapidfuzz's (cheaper than a
    script)."""
    key = _key(e, a)
    if key is not None:
        with _lock:
            found = _cache.get(key)
        if found is not None:
            return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in found if tag != "equal")
    return int(Levenshtein.distance(e, a, score_hint=score_hint(e, a)))
