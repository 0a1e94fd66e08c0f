"""The leaf mode of json_distance's walk (`LeafWalker`, a `json_walk.Walker`): every leaf of
the reference is `equal`, `differs` or `missing`, every leaf only the output has is `extra` (a
missing subtree counts each of its leaves), counted per path for `fields`
(core.diff.json_fields). Arrays are paired by the Walker's own `pair_items`, so the two modes
always agree on which items correspond.
"""

from __future__ import annotations

from typing import Any

from matchlens.core.jsonpath import step_text
from matchlens.core.metrics.json_differences import MISSING
from matchlens.core.metrics.json_pairing import kind_of
from matchlens.core.metrics.json_walk import (
    ABSENT,
    DIFFERS,
    EQUAL,
    EXTRA,
    KIND_OF_TYPE,
    SCALAR_TYPES,
    Walker,
    key_step,
    union_keys,
)


class LeafWalker(Walker):
    """`leaves(e, a, counts)` adds each leaf's kind to `counts[path]` (a list of four
    counts)."""

    def leaves(self, e: Any, a: Any, counts: dict[str, list[int]]) -> None:
        """Add the kind of every leaf of the pair to `counts[path]`; array items are written
        `[*]` unless `by_index`."""
        self.counts = counts
        self.sink = None
        self.start()
        try:
            self.leaf_walk(e, a, "$", "$")
        finally:
            self.finish()

    def count(self, shown: str, kind: int) -> None:
        row = self.counts.get(shown)
        if row is None:
            row = self.counts[shown] = [0, 0, 0, 0]
        row[kind] += 1

    def item_shown(self, shown: str, i: int) -> str:
        return step_text(shown, i) if self.by_index else shown + "[*]"

    def leaf_walk(self, e: Any, a: Any, path: str, shown: str) -> None:
        # The hot loop of `fields` (a million rows of twenty leaves): kinds by one dict
        # lookup, equal leaves by `==` first; the real path (indices, for ignore_paths and
        # notes) is built only when ignore_paths asks for it, else the shown one stands in.
        ke = KIND_OF_TYPE.get(type(e)) or kind_of(e)
        ka = KIND_OF_TYPE.get(type(a)) or kind_of(a)
        if ke != ka:  # a different JSON type: each leaf of the reference there differs
            self.every_leaf(e, path, shown, DIFFERS)
            return
        if ke == "object":
            if not e:
                self.count(shown, EQUAL if not a else DIFFERS)
            if self.plain and e.keys() == a.keys():
                self.same_keys(e, a, shown)
                return
            real = self.ignored_path is not None
            counts, ignore, relaxed = self.counts, self.ignore, self.relaxed
            for key in (e if e.keys() == a.keys() else union_keys(e, a)):
                if ignore and key in ignore:
                    continue
                step = key_step(key)
                child_shown = shown + step
                child = path + step if real else child_shown
                if real and self.skipped(child):
                    continue
                x, y = e.get(key, MISSING), a.get(key, MISSING)
                if y is MISSING:
                    self.every_leaf(x, child, child_shown, ABSENT)
                elif x is MISSING:
                    self.every_leaf(y, child, child_shown, EXTRA)
                elif type(x) is type(y) and type(x) in SCALAR_TYPES:
                    # two scalars of one type: counted here, without a call per leaf
                    row = counts.get(child_shown)
                    if row is None:
                        row = counts[child_shown] = [0, 0, 0, 0]
                    equal = x == y or (relaxed and self.leaf_equal(kind_of(x), x, y))
                    row[EQUAL if equal else DIFFERS] += 1
                else:
                    self.leaf_walk(x, y, child, child_shown)
            return
        if ke == "array":
            if not e:
                self.count(shown, EQUAL if not a else DIFFERS)
            if self.plain and self.rule == "index":
                self.by_position(e, a, shown)
                return
            pairs, left_e, left_a = self.pair_items(e, a, path)
            real = self.ignored_path is not None
            for group, kind in ((pairs, None), (left_e, ABSENT), (left_a, EXTRA)):
                for item in group:
                    i = item[0] if kind is None else item
                    child = step_text(path, i) if real else None
                    if real and self.skipped(child):
                        continue
                    item_shown = self.item_shown(shown, i)
                    if kind is None:
                        self.leaf_walk(e[i], a[item[1]], child or item_shown, item_shown)
                    else:
                        self.every_leaf((e if kind == ABSENT else a)[i], child or item_shown,
                                        item_shown, kind)
            return
        equal = e == a or (self.relaxed and self.leaf_equal(ke, e, a))
        row = self.counts.get(shown)
        if row is None:
            row = self.counts[shown] = [0, 0, 0, 0]
        row[EQUAL if equal else DIFFERS] += 1

    # Without ignore_keys / ignore_paths (`plain`) the path shown is the path walked: the two
    # commonest shapes (objects with the same keys, arrays paired by position) take these
    # loops, with each child's path text made once per walker (`kids`), not once per row.
    def same_keys(self, e: dict, a: dict, shown: str) -> None:
        kids = self.kids.get(shown)
        if kids is None:
            kids = self.kids[shown] = {}
        counts, relaxed = self.counts, self.relaxed
        for key, x in e.items():
            child = kids.get(key)
            if child is None:
                child = kids[key] = shown + key_step(key)
            y = a[key]
            kind = type(x)
            if kind is type(y) and kind in SCALAR_TYPES:
                row = counts.get(child)
                if row is None:
                    row = counts[child] = [0, 0, 0, 0]
                if x == y or (relaxed and self.leaf_equal(kind_of(x), x, y)):
                    row[EQUAL] += 1
                else:
                    row[DIFFERS] += 1
            elif kind is dict and type(y) is dict and x and x.keys() == y.keys():
                self.same_keys(x, y, child)
            else:
                self.leaf_walk(x, y, child, child)

    def by_position(self, e: list, a: list, shown: str) -> None:
        k = min(len(e), len(a))
        if self.by_index:
            children = [step_text(shown, i) for i in range(max(len(e), len(a)))]
        else:
            star = self.stars.get(shown)
            if star is None:
                star = self.stars[shown] = shown + "[*]"
            children = [star] * max(len(e), len(a))
        for i in range(k):
            x, y = e[i], a[i]
            if type(x) is dict and type(y) is dict and x and x.keys() == y.keys():
                self.same_keys(x, y, children[i])
            else:
                self.leaf_walk(x, y, children[i], children[i])
        for i in range(k, len(e)):
            self.every_leaf(e[i], children[i], children[i], ABSENT)
        for j in range(k, len(a)):
            self.every_leaf(a[j], children[j], children[j], EXTRA)

    def every_leaf(self, value: Any, path: str, shown: str, kind: int) -> None:
        real = self.ignored_path is not None
        if isinstance(value, dict) and value:
            for key, item in value.items():
                if key in self.ignore:
                    continue
                step = key_step(key)
                child = path + step if real else shown + step
                if not (real and self.skipped(child)):
                    self.every_leaf(item, child, shown + step, kind)
        elif isinstance(value, list) and value:
            for i, item in enumerate(value):
                item_shown = self.item_shown(shown, i)
                child = step_text(path, i) if real else item_shown
                if not (real and self.skipped(child)):
                    self.every_leaf(item, child, item_shown, kind)
        else:
            self.count(shown, kind)
