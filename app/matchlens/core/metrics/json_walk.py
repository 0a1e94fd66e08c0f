"""The one walk of two parsed JSON values: which array items correspond (`array_match`), when
two leaves are equal (tolerances, case), what is skipped (`ignore_keys`, `ignore_paths`).

`json_distance` walks in *difference* mode: one `JsonDiff` per counted difference (a missing
subtree counts 1). `fields` (core.diff.json_fields) walks the same pairs in *leaf* mode (`core.metrics.json_leaf_walk.LeafWalker`): every
leaf of the reference is `equal`, `differs` or `missing`, every leaf only the output has is
`extra` (a missing subtree counts each of its leaves). Both modes call `pair_items`, so they
always agree on which items correspond. Paths follow the pairing: a paired item is shown under
the reference's index, an item only the output has under the output's index.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from matchlens.core.errors import ConfigError
from matchlens.core.jsonpath import step_text
from matchlens.core.metrics.json_differences import MISSING, JsonDiff, show
from matchlens.core.metrics.json_ignore import compile_ignore_paths
from matchlens.core.metrics.json_pairing import kind_of, pair_by_key, pair_identical_first

EQUAL, DIFFERS, ABSENT, EXTRA = range(4)  # leaf kinds, as `fields` counts them
KIND_NAMES = ("equal", "differs", "missing", "extra")
# Cells of one exact assignment (items of the reference x items of the output): a 1,000 x 1,000
# pairing is exact; beyond, identical items are paired first and the rest by position.
EXACT_CELLS = 1_000_000
# Cells of every exact assignment of one pair together. Nested `unordered` arrays multiply:
# each cell of an outer cost matrix is a distance that pairs the inner arrays again, so an
# array of 100 arrays of 100 items asks 100 x 100 inner assignments of 100 x 100 cells (10^8).
# Arrays are paired outermost first; once a pair has spent this budget, the arrays still to
# pair get the cheaper pairing (identical items first, the rest by position) and the
# explanation says which and how many. Twice EXACT_CELLS: one 1,000 x 1,000 array stays exact
# with room for the arrays nested in it.
PAIR_CELLS = 2_000_000
CHEAP_PAIRING = "identical items were paired first, the rest by position"


# json.loads builds exactly these types: one lookup instead of kind_of's isinstance chain.
KIND_OF_TYPE = {dict: "object", list: "array", str: "string", int: "number", float: "number",
                bool: "bool", type(None): "null"}


SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


@lru_cache(maxsize=8192)
def key_step(prefix_free_key: str) -> str:
    """`.key` or `["odd key"]`: the text a key adds to a path (memoised: keys repeat)."""
    return step_text("", prefix_free_key)


def parse_array_match(value: Any) -> tuple[str, str | None]:
    """("index" | "unordered" | "key", NAME or None); ConfigError for anything else."""
    text = "index" if value in (None, "") else str(value).strip()
    if text in ("index", "unordered"):
        return text, None
    if text.startswith("key:") and text[4:].strip():
        return "key", text[4:].strip()
    raise ConfigError(f"json_distance.array_match must be index, unordered or key:NAME, "
                      f"not {text!r}")


class Walker:
    """One configured walk. `diff(e, a)` -> (distance, diffs); its leaf mode is
    `core.metrics.json_leaf_walk.LeafWalker`."""

    def __init__(self, options: Mapping[str, Any], *, by_index: bool = True) -> None:
        self.ignore = frozenset(options.get("ignore_keys") or ())
        self.ignored_path = compile_ignore_paths(options.get("ignore_paths") or ())
        self.fold = bool(options.get("case_insensitive_strings"))
        self.tolerance = float(options.get("numeric_tolerance") or 0.0)
        self.relative = float(options.get("relative_tolerance") or 0.0)
        self.rule, self.key = parse_array_match(options.get("array_match"))
        # leaves equal by `==` may also be equal by a tolerance or a case fold
        self.relaxed = bool(self.fold or self.tolerance or self.relative)
        self.by_index = by_index
        self.plain = not self.ignore and self.ignored_path is None
        # shown path -> {key: the child's shown path}, and -> its items' `[*]` path: built
        # once, reused each row (a path may hold an object in one row, an array in another)
        self.kids: dict[str, dict[str, str]] = {}
        self.stars: dict[str, str] = {}
        self.notes: list[str] = []
        self.sink: list[JsonDiff] | None = None  # difference mode records here when set
        self.counts: dict[str, list[int]] = {}  # leaf mode counts here
        self.start()

    def start(self) -> None:
        """Before each pair: the assignment budget refilled, the pairings of the last pair
        forgotten."""
        self.cells = 0  # cells of exact assignments spent on this pair
        # (id(e), id(a)) -> (e, a, pairing): an `unordered` array is paired once per pair, so
        # the pairing a cost matrix was built on is the one walked (and reported) afterwards;
        # the values are kept with it, so an id of a value since freed never matches
        self.pairings: dict[tuple[int, int], tuple] = {}
        self.over_budget: list[str] = []  # arrays the budget sent to the cheaper pairing
        # (array path, [(i, j), ...]): items paired across indices, noted by `diff`
        self.moved: list[tuple[str, list[tuple[int, int]]]] = []

    def note_moves(self) -> None:
        """One note saying which items were paired across indices (reference ↔ output), so a
        reordered list that scores 0 says why: the first 3 arrays, 6 pairs each."""
        moved, self.moved = self.moved, []
        for path, pairs in moved[:3]:
            shown = ", ".join(f"[{i}] ↔ [{j}]" for i, j in pairs[:6])
            more = f" and {len(pairs) - 6:,} more" if len(pairs) > 6 else ""
            self.notes.append(f"{path}: items paired across indices, reference ↔ output: "
                              f"{shown}{more}")
        if len(moved) > 3:
            self.notes.append(f"{len(moved) - 3:,} more arrays had items paired across "
                              "indices")

    def finish(self) -> None:
        """After each pair: one note for the arrays paired beyond the budget."""
        if self.over_budget:
            more = len(self.over_budget) - 1
            also = f" and {more:,} more arrays" if more else ""
            self.notes.append(f"{self.over_budget[0]}{also}: nested unordered arrays passed "
                              f"the budget of {PAIR_CELLS:,} exact-pairing cells for one "
                              f"pair; there {CHEAP_PAIRING}")
            self.over_budget = []

    # ---- equality of leaves -------------------------------------------------------------
    def leaf_equal(self, kind: str, e: Any, a: Any) -> bool:
        if kind == "number":
            # e == a first: 1e400 parses to inf on both sides, and inf - inf is nan
            if e == a:
                return True
            if not (self.tolerance or self.relative):
                return False
            try:
                gap = abs(e - a)
                return gap <= self.tolerance or gap <= self.relative * max(abs(e), abs(a))
            except OverflowError:  # a 400-digit integer against a float: far apart anyway
                return False
        if kind == "string" and self.fold:
            return e.casefold() == a.casefold()
        return e == a

    def skipped(self, path: str) -> bool:
        return self.ignored_path is not None and self.ignored_path(path) is not None

    # ---- the pairing of array items: the one rule both modes use -------------------------
    def pair_items(self, e: list, a: list, path: str
                   ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        """(pairs (i of e, j of a) in e's order, e's unpaired items, a's unpaired items)."""
        n, m = len(e), len(a)
        if self.rule == "key":
            return pair_by_key(e, a, self.key)
        if self.rule == "index" or not n or not m:
            k = min(n, m)
            return [(i, i) for i in range(k)], list(range(k, n)), list(range(k, m))
        known = self.pairings.get((id(e), id(a)))
        if known is not None and known[0] is e and known[1] is a:
            return known[2]
        pairing = self.pair_unordered(e, a, path)
        self.pairings[(id(e), id(a))] = (e, a, pairing)
        return pairing

    def pair_unordered(self, e: list, a: list, path: str
                       ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        n, m = len(e), len(a)
        # the cells are spent before the inner arrays are paired: the outer pairing comes first
        exact = n * m <= EXACT_CELLS and self.cells + n * m <= PAIR_CELLS
        if exact:
            self.cells += n * m
        if all(self.distance(e[i], a[i], step_text(path, i)) == 0 for i in range(min(n, m))):
            # Every pair by position costs 0 and any pairing leaves |n - m| items over: optimal.
            if exact:
                self.cells -= n * m  # no cost matrix was built
            k = min(n, m)
            return [(i, i) for i in range(k)], list(range(k, n)), list(range(k, m))
        if n * m > EXACT_CELLS:
            self.notes.append(f"{path}: {n:,} × {m:,} items are too many for an exact "
                              f"pairing; {CHEAP_PAIRING}")
            return pair_identical_first(e, a)
        if not exact:
            self.over_budget.append(path)
            return pair_identical_first(e, a)
        return self.assign(e, a, path)

    def assign(self, e: list, a: list, path: str
               ) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        from scipy.optimize import linear_sum_assignment  # only `unordered` arrays need it

        n, m = len(e), len(a)
        k = min(n, m)
        # cost * (k + 1) + (i != j): among assignments of equal cost the one keeping the most
        # items in place wins; the tie-break sums to at most k, so it never outweighs a unit.
        cost = np.empty((n, m), dtype=np.int64)
        for i in range(n):
            item_path = step_text(path, i)
            for j in range(m):
                cost[i, j] = self.distance(e[i], a[j], item_path) * (k + 1) + (i != j)
        rows, cols = linear_sum_assignment(cost)
        pairs = sorted(zip(rows.tolist(), cols.tolist(), strict=True))
        used_e = {i for i, _ in pairs}
        used_a = {j for _, j in pairs}
        return pairs, [i for i in range(n) if i not in used_e], \
            [j for j in range(m) if j not in used_a]

    # ---- difference mode (json_distance) ------------------------------------------------
    def distance(self, e: Any, a: Any, path: str) -> int:
        """The distance of two values at `path`, recording nothing."""
        saved, self.sink = self.sink, None
        try:
            return self.walk(e, a, path)
        finally:
            self.sink = saved

    def diff(self, e: Any, a: Any) -> tuple[int, list[JsonDiff]]:
        self.start()
        self.sink = []
        try:
            total = self.walk(e, a, "$", "$")
        finally:
            self.finish()
            self.note_moves()
        diffs, self.sink = self.sink, None
        return total, diffs

    def score(self, e: Any, a: Any) -> int:
        """The distance of one pair, recording no path (a batch of rows)."""
        self.start()
        try:
            return self.walk(e, a, "$")
        finally:
            self.finish()

    def walk(self, e: Any, a: Any, path: str, apath: str | None = None) -> int:
        """The distance at `path`; with `apath` (the output's path of `a`, followed only while
        differences are recorded), each difference also says where it is in the output."""
        if e is MISSING or a is MISSING:
            return self.differ(e, a, path, apath)
        # kinds by one dict lookup (json.loads' own types), as in leaf mode
        ke = KIND_OF_TYPE.get(type(e)) or kind_of(e)
        ka = KIND_OF_TYPE.get(type(a)) or kind_of(a)
        if ke != ka:
            return self.differ(e, a, path, apath)
        if ke == "object":
            total = 0
            for key in (e if e.keys() == a.keys() else union_keys(e, a)):
                if key in self.ignore:
                    continue
                step = key_step(key)
                child = path + step
                if self.ignored_path is not None and self.skipped(child):
                    continue
                total += self.walk(e.get(key, MISSING), a.get(key, MISSING), child,
                                   None if apath is None else apath + step)
            return total
        if ke == "array":
            pairs, left_e, left_a = self.pair_items(e, a, path)
            total = 0
            moved = []
            skipping = self.ignored_path is not None
            for i, j in pairs:
                child = step_text(path, i)
                if not (skipping and self.skipped(child)):
                    if apath is None:
                        total += self.walk(e[i], a[j], child)
                    else:
                        total += self.walk(e[i], a[j], child, step_text(apath, j))
                        if i != j:
                            moved.append((i, j))
            for i in left_e:
                child = step_text(path, i)
                if not self.skipped(child):
                    total += self.differ(e[i], MISSING, child, apath, item=True)
            for j in left_a:
                child = step_text(path, j)
                if not self.skipped(child):
                    total += self.differ(MISSING, a[j], child,
                                         None if apath is None else step_text(apath, j),
                                         item=path)
            if moved:
                self.moved.append((path, moved))
            return total
        if e == a or (self.relaxed and self.leaf_equal(ke, e, a)):
            return 0
        return self.differ(e, a, path, apath)

    def differ(self, e: Any, a: Any, path: str, apath: str | None = None,
               item: bool | str = False) -> int:
        """One difference; `item`: an array item one side lacks (True: the output lacks it,
        so its place there is the output's array `apath`; a path: the output has it, and the
        reference's array is that path)."""
        if self.sink is not None:
            kind = "missing" if a is MISSING else "extra" if e is MISSING else "differs"
            where = apath if apath != path else None
            self.sink.append(JsonDiff(path, show(e), show(a), kind, e, a, where,
                                      item if isinstance(item, str) else None))
        return 1


def union_keys(e: dict, a: dict) -> list[str]:
    return list(e) + [k for k in a if k not in e] if a else list(e)


def walker_for(options: Mapping[str, Any] | None, *, by_index: bool = True) -> Walker:
    return Walker(options or {}, by_index=by_index)

