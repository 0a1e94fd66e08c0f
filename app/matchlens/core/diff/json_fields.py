"""Which JSON fields are wrong, and how often: per leaf path, across many pairs, how many times
the reference has it (`expected`) and whether the output's value is `equal`, `differs`, is
`missing`, or the output has a leaf the reference lacks (`extra`).

The pairs are walked by json_distance's own walk (`core.metrics.json_leaf_walk.LeafWalker`, leaf
mode), with the metric's options, so `fields` and `json_distance` always agree on which array
items correspond and on when two values are equal. `FieldTally` adds rows one at a time and
keeps only the counts per path (memory follows the data's shape, not its length);
`field_rows` gives the table (`matchlens fields`, `matchlens.fields`, reports).

A pair where a side is not JSON is not walked: it is counted under its side and the parser's
reason ("the output is not JSON: Expecting value at line 1 column 1").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matchlens.core.metrics.json_distance import InvalidJson, parse_for
from matchlens.core.metrics.json_leaf_walk import LeafWalker

COLUMNS = ("path", "expected", "equal", "differs", "missing", "extra", "accuracy")
_SIDE_NAME = {"expected": "reference", "actual": "output"}
# A text with fewer brackets than this cannot nest deep enough to exhaust the stack in the
# walk: it is walked straight into the totals; a deeper one is walked apart first, so a
# RecursionError half-way leaves no half-counted pair behind.
_SHALLOW = 200
# json_distance never nests deeper than this either (Python's default recursion limit).
_TOO_DEEP = "the pair is nested too deeply to compare"


@dataclass
class VariantFields:
    """One output column's counts: per path [equal, differs, missing, extra]."""

    counts: dict[str, list[int]] = field(default_factory=dict)
    compared: int = 0
    invalid: int = 0
    reasons: Counter = field(default_factory=Counter)  # "the output is not JSON: …" -> rows
    # with FieldTally(track_rows=True): per path, the rows (0-based) where it is not equal
    wrong_rows: dict[str, list[int]] = field(default_factory=dict)


class FieldTally:
    """Per-path counts over rows added with `add`; `variants` are the output columns."""

    def __init__(self, variants: Sequence[str], options: Mapping[str, Any] | None = None, *,
                 by_index: bool = False, track_rows: bool = False) -> None:
        self.options = dict(options or {})
        # the window filters its table to the rows where a path is wrong: each pair is then
        # walked apart and its wrong paths noted under its row (slower; `fields` skips it)
        self.track_rows = track_rows
        self.walker = LeafWalker(self.options, by_index=by_index)  # validates the options now
        self.variants = {v: VariantFields() for v in dict.fromkeys(variants)}
        self.rows = 0
        self.invalid_rows = 0  # rows invalid in at least one variant
        self.notes: Counter = Counter()

    def add(self, expected: Sequence[str | None], actuals: Mapping[str, Sequence[str | None]]
            ) -> None:
        """Count `len(expected)` rows; `actuals[v][i]` is variant v's output of row i."""
        columns = [(self.variants[v], actuals[v]) for v in self.variants]
        for i, e_text in enumerate(expected):
            e_value, e_reason = self.parse(e_text, "expected")
            bad_row = False
            for tally, column in columns:
                a_value, a_reason = self.parse(column[i], "actual")
                if e_reason is None and a_reason is None:
                    if self.track_rows:
                        reason = self.walk_tracked(e_value, a_value, tally, self.rows + i)
                    else:
                        reason = self.walk(e_value, a_value, e_text, column[i], tally.counts)
                    if reason is None:
                        tally.compared += 1
                        continue
                    tally.reasons[reason] += 1
                for reason in (e_reason, a_reason):
                    if reason is not None:
                        tally.reasons[reason] += 1
                tally.invalid += 1
                bad_row = True
            self.invalid_rows += bad_row
        self.rows += len(expected)

    def parse(self, text: str | None, side: str) -> tuple[Any, str | None]:
        if text is None:
            return None, f"the {_SIDE_NAME[side]} is missing"
        try:
            value, note = parse_for(text, side, self.options)
        except InvalidJson as err:
            return None, f"the {_SIDE_NAME[side]} is not JSON: {err.reason}"
        if note:
            self.notes[f"the {_SIDE_NAME[side]} JSON was taken from prose"] += 1
        return value, None

    def walk(self, e: Any, a: Any, e_text: str, a_text: str, counts: dict[str, list[int]]
             ) -> str | None:
        """Count the pair's leaves into `counts`; the reason when it cannot be walked."""
        walker = self.walker
        shallow = _brackets(e_text) < _SHALLOW and _brackets(a_text) < _SHALLOW
        target = counts if shallow else {}
        try:
            walker.leaves(e, a, target)
        except RecursionError:
            return _TOO_DEEP
        finally:
            for note in walker.notes:
                self.notes[note.split(": ", 1)[-1]] += 1
            walker.notes.clear()
        if not shallow:
            for path, row in target.items():
                into = counts.setdefault(path, [0, 0, 0, 0])
                for k in range(4):
                    into[k] += row[k]
        return None

    def walk_tracked(self, e: Any, a: Any, tally: VariantFields, row: int) -> str | None:
        """As `walk`, noting `row` under every path of the pair that is not equal."""
        apart: dict[str, list[int]] = {}
        try:
            self.walker.leaves(e, a, apart)
        except RecursionError:
            return _TOO_DEEP
        finally:
            self.walker.notes.clear()
        counts, wrong = tally.counts, tally.wrong_rows
        for path, found in apart.items():
            into = counts.setdefault(path, [0, 0, 0, 0])
            for k in range(4):
                into[k] += found[k]
            if found[1] or found[2] or found[3]:
                wrong.setdefault(path, []).append(row)
        return None

    def part(self) -> dict[str, Any]:
        """The counts as plain data (a forked child sends them back): `merge_part` adds them
        to another tally of the same variants, as if its rows had been added there."""
        return {"rows": self.rows, "invalid_rows": self.invalid_rows, "notes": self.notes,
                "variants": {v: (t.counts, t.compared, t.invalid, t.reasons)
                             for v, t in self.variants.items()}}

    def merge_part(self, part: Mapping[str, Any]) -> None:
        """Add a `part()` of rows that follow this tally's (not for `track_rows`)."""
        self.rows += part["rows"]
        self.invalid_rows += part["invalid_rows"]
        self.notes.update(part["notes"])
        for variant, (counts, compared, invalid, reasons) in part["variants"].items():
            into = self.variants[variant]
            for path, row in counts.items():
                mine = into.counts.get(path)
                if mine is None:
                    into.counts[path] = list(row)
                else:
                    for k in range(4):
                        mine[k] += row[k]
            into.compared += compared
            into.invalid += invalid
            into.reasons.update(reasons)

    def summary(self) -> dict[str, Any]:
        """{"rows", "invalid", "variants": [{"variant", "compared", "invalid", "reasons"}],
        "notes"}: the header `fields` prints."""
        return {
            "rows": self.rows, "invalid": self.invalid_rows,
            "variants": [{"variant": v, "compared": t.compared, "invalid": t.invalid,
                          "reasons": [{"reason": r, "rows": n}
                                      for r, n in t.reasons.most_common()]}
                         for v, t in self.variants.items()],
            "notes": [{"note": note, "rows": n} for note, n in self.notes.most_common()],
        }


def _brackets(text: str) -> int:
    return text.count("[") + text.count("{")


def field_rows(tally: FieldTally) -> list[dict[str, Any]]:
    """The `fields` table, one dict per (variant, path): variant, path, expected, equal,
    differs, missing, extra, accuracy (equal / expected; None when expected is 0). Variants in
    their order; within one, worst accuracy first (ties: most wrong first, then path), paths
    only the output has (no accuracy) last, most frequent first."""
    rows = []
    for variant, tally_v in tally.variants.items():
        block = []
        for path, (equal, differs, missing, extra) in tally_v.counts.items():
            expected = equal + differs + missing
            accuracy = equal / expected if expected else None
            block.append({"variant": variant, "path": path, "expected": expected,
                          "equal": equal, "differs": differs, "missing": missing,
                          "extra": extra, "accuracy": accuracy})
        block.sort(key=_worst_first)
        rows.extend(block)
    return rows


def _worst_first(row: dict[str, Any]) -> tuple:
    wrong = row["differs"] + row["missing"] + row["extra"]
    if row["accuracy"] is None:
        return (1, 0.0, -wrong, row["path"])
    return (0, row["accuracy"], -wrong, row["path"])


def pair_fields(expected: Any, actual: Any, options: Mapping[str, Any] | None = None, *,
                by_index: bool = True) -> dict[str, str]:
    """Each leaf path of one parsed pair and its kind (equal / differs / missing / extra), as
    `fields` counts it: the compare view's and the tests' view of one pair."""
    counts: dict[str, list[int]] = {}
    LeafWalker(options or {}, by_index=by_index).leaves(expected, actual, counts)
    names = ("equal", "differs", "missing", "extra")
    return {path: ", ".join(f"{n} {names[k]}" if n > 1 else names[k]
                            for k, n in enumerate(row) if n)
            for path, row in counts.items()}


def side_by_side(rows: Sequence[dict[str, Any]]) -> tuple[list[str], list[tuple[str, dict]]]:
    """`field_rows`' blocks laid side by side: (the variants in their order, one (path, {variant:
    row}) per path), paths in the first variant's order (worst first), then the paths only
    later variants have, in the order they come. A variant without the path has no entry."""
    variants: list[str] = []
    by_path: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        if row["variant"] not in variants:
            variants.append(row["variant"])
        by_path.setdefault(row["path"], {})[row["variant"]] = row
    return variants, list(by_path.items())
