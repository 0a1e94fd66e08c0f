"""The minimal edit script of a pair, computed once per process for everyone who needs it.

The highlight (`alignment`, `readable`), levenshtein_distance (its edit counts), cer (jiwer's
counts) and levenshtein_similarity (the distance) all want rapidfuzz's Levenshtein script of the
same two texts: at 100k characters that is ~70 ms each. The compare tab runs these tasks one
after another in the same lane process (scheduler: `SHARED_SCRIPT_TASKS`), so keeping the last
few scripts here turns four computations into one. Keys are the texts themselves: a lane holds
one pair of string objects per text, so a lookup is an identity check, never a long compare.

Long texts (LONG_CHARS and more; token sequences of a sixth of that) take a shorter road to
the same exactness. rapidfuzz's script costs time proportional to length × distance in a full
band (a million characters with 10% edits: ~15 s of CPU), its distance alone about a fifth of
that when it is told an upper bound. So the script between anchors (`anchored_script`, linear)
comes first; its edit count bounds the exact distance, which rapidfuzz then computes in that
band; when the two are equal the anchored script is as short as any, so it *is* a minimal
script and is kept as such. (Not always rapidfuzz's: ties between minimal scripts may fall the
other way, so its split into substitutions, insertions and deletions may differ from jiwer's
by a few edits; their sum never does.) Only when it is longer is rapidfuzz's own script
computed, in the band of the now known distance.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

from matchlens.core.text.anchored_script import (
    Opcodes,
    anchored_distance,
    anchored_opcodes,
    cost,
    score_hint,
)
from matchlens.core.text.script_splice import changed_span, splice_second, swapped

__all__ = ["LONG_CHARS", "Opcodes", "anchored", "clear", "counts", "distance", "opcodes", "rest_opcodes",
           "score_hint"]

# From this many characters (both texts together) scripts start from the anchored one (and
# `rest_opcodes` stops there): below it the exact script takes well under a second.
LONG_CHARS = 200_000

# From this many characters (both texts together) a pair one small edit away from a kept pair
# starts from that pair's script or distance (`script_splice`): what a keystroke needs.
SPLICE_MIN_CHARS = 20_000
SPLICE_MAX_EDIT = 2_000  # a bigger change (a paste) is diffed afresh

_KEEP = 8  # pairs' minimal and anchored scripts
_cache: OrderedDict[tuple[object, ...], Opcodes] = OrderedDict()
_distances: OrderedDict[tuple[object, ...], int] = OrderedDict()
_lock = threading.Lock()


def _key(e: Sequence, a: Sequence, kind: str = "minimal") -> tuple[object, ...] | None:
    # Lists (token sequences) are not hashable: those are not shared.
    return (kind, e, a) if isinstance(e, str) and isinstance(a, str) else None


def _kept(table: OrderedDict, key: tuple[object, ...] | None):  # noqa: ANN202
    if key is None:
        return None
    with _lock:
        found = table.get(key)
        if found is not None:
            table.move_to_end(key)
        return found


def _keep(table: OrderedDict, key: tuple[object, ...] | None, value: object) -> None:
    if key is None:
        return
    with _lock:
        table[key] = value
        while len(table) > _KEEP:
            table.popitem(last=False)


def _is_long(e: Sequence, a: Sequence) -> bool:
    if isinstance(e, str) and isinstance(a, str):
        return len(e) + len(a) >= LONG_CHARS
    # token sequences (wer's words): an item is a word, about six characters of text
    return len(e) + len(a) >= LONG_CHARS // 6


def anchored(e: Sequence, a: Sequence) -> Opcodes:
    """`anchored_script.anchored_opcodes`, kept for the next caller (the compare view's preview
    and then its exact highlight ask for it on the same texts). Texts that are kept texts with
    a short stretch cut out of either side or both (the rest around a moved piece, a deleted
    word) get the kept script re-diffed around the cuts instead (`_cut_spliced`): as valid, as
    close to minimal, a hundredth of the work."""
    key = _key(e, a, "anchored")
    found = _kept(_cache, key)
    if found is None:
        found = (_cut_spliced(e, a) if key is not None else None) or anchored_opcodes(e, a)
        _keep(_cache, key, found)
    return found


def _near(table: OrderedDict, e: str, a: str) -> tuple[bool, str, object] | None:
    """A kept pair that shares one side with (e, a): (second side differs, that side, value)."""
    with _lock:
        items = [(k, v) for k, v in table.items() if k[0] == "minimal"]
    for (_kind, kept_e, kept_a), value in reversed(items):
        if kept_e is e or (len(kept_e) == len(e) and kept_e == e):
            return True, kept_a, value
        if kept_a is a or (len(kept_a) == len(a) and kept_a == a):
            return False, kept_e, value
    return None


def _change(old: str, new: str) -> tuple[int, int, int] | None:
    change = changed_span(old, new)
    start, old_end, new_end = change
    return change if max(old_end, new_end) - start <= SPLICE_MAX_EDIT else None


def _spliced(e: str, a: str) -> Opcodes | None:
    """The script of (e, a) from a kept script one small edit away, or None."""
    near = _near(_cache, e, a)
    if near is None:
        return None
    second, old, ops = near
    change = _change(old, a if second else e)
    if change is None:
        return None
    if second:
        return splice_second(e, ops, a, change)  # type: ignore[arg-type]
    return swapped(splice_second(a, swapped(ops), e, change))  # type: ignore[arg-type]


def _distance_bound(e: str, a: str) -> int | None:
    """An upper bound of the distance from a kept distance one small edit away, or None."""
    for table in (_distances, _cache):
        near = _near(table, e, a)
        if near is None:
            continue
        second, old, value = near
        change = _change(old, a if second else e)
        if change is not None:
            start, old_end, new_end = change
            kept = value if isinstance(value, int) else cost(value)  # type: ignore[arg-type]
            return kept + max(old_end, new_end) - start
    return None


def _verified(e: Sequence, a: Sequence, key: tuple[object, ...] | None,
              candidate: Opcodes) -> Opcodes:
    """`candidate` if the exact distance (computed in its band) proves it minimal, else
    rapidfuzz's script in the band of that distance."""
    upper = cost(candidate)
    exact = _kept(_distances, key)  # the distance task may have computed it already
    if exact is None:
        exact = int(Levenshtein.distance(e, a, score_cutoff=upper))  # exact: upper bounds it
        _keep(_distances, key, exact)
    return candidate if exact == upper else \
        Levenshtein.opcodes(e, a, score_hint=exact).as_list()


def opcodes(e: Sequence, a: Sequence) -> Opcodes:
    """A minimal script as (tag, i1, i2, j1, j2) runs, kept for the next caller."""
    key = _key(e, a)
    found = _kept(_cache, key)
    if found is not None:
        return found
    spliced = _spliced(e, a) if key is not None and len(e) + len(a) >= SPLICE_MIN_CHARS \
        else None  # type: ignore[arg-type]
    if spliced is not None:
        ops = _verified(e, a, key, spliced)
    elif _is_long(e, a):
        ops = _verified(e, a, key, anchored(e, a))
    else:
        ops = Levenshtein.opcodes(e, a, score_hint=score_hint(e, a)).as_list()
    _keep(_cache, key, ops)
    return ops


def clear() -> None:
    """Forget every kept script and distance."""
    with _lock:
        _cache.clear()
        _distances.clear()


def rest_opcodes(e: Sequence, a: Sequence) -> Opcodes:
    """A script that only has to look right (the re-diff around moved text): the minimal one
    for short texts, the anchored one for long texts."""
    return anchored(e, a) if _is_long(e, a) else opcodes(e, a)


def _cut_spliced(e: str, a: str) -> Opcodes | None:
    """The script of (e, a) from a kept anchored script of texts that each lost at most one
    short stretch (up to SPLICE_MAX_EDIT characters) to become `e` and `a`, or None: what the
    texts without their moved piece are, after the preview of the whole texts."""
    if not _is_long(e, a):
        return None
    with _lock:
        kept = [(k, v) for k, v in _cache.items() if k[0] == "anchored"]
    for (_kind, whole_e, whole_a), ops in reversed(kept):
        if len(whole_e) < len(e) or len(whole_a) < len(a) or (whole_e, whole_a) == (e, a):
            continue
        e_change, a_change = _change(whole_e, e), _change(whole_a, a)
        if e_change is None or a_change is None:
            continue
        script = ops
        if e_change[1] != e_change[2]:  # the expected side lost a piece
            script = swapped(splice_second(whole_a, swapped(script), e, e_change))
        if a_change[1] != a_change[2]:
            script = splice_second(e, script, a, a_change)
        return script
    return None


def counts(e: Sequence, a: Sequence) -> dict[str, int]:
    """How many substitutions ("replace"), insertions and deletions the script has."""
    out = {"replace": 0, "insert": 0, "delete": 0}
    for tag, i1, i2, j1, j2 in opcodes(e, a):
        if tag != "equal":
            out[tag] += max(i2 - i1, j2 - j1)
    return out


def distance(e: Sequence, a: Sequence) -> int:
    """The distance: from a kept script when there is one, else rapidfuzz's (cheaper than a
    script), in the band of a kept pair's distance one small edit away or, for long texts, of
    the anchored script's edit count."""
    key = _key(e, a)
    found = _kept(_cache, key)
    if found is not None:
        return cost(found)
    known = _kept(_distances, key)
    if known is not None:
        return known
    bound = _distance_bound(e, a) if key is not None and len(e) + len(a) >= SPLICE_MIN_CHARS \
        else None  # type: ignore[arg-type]
    if bound is None and _is_long(e, a):
        script = _kept(_cache, _key(e, a, "anchored"))  # the preview's, when it was drawn
        bound = cost(script) if script is not None else anchored_distance(e, a)
    if bound is not None:  # exact: the bound is one
        found_distance = int(Levenshtein.distance(e, a, score_cutoff=bound))
    else:
        found_distance = int(Levenshtein.distance(e, a, score_hint=score_hint(e, a)))
    _keep(_distances, key, found_distance)
    return found_distance
