"""Which rows the table shows, in which order: filter, search and sort over arrays (no Qt).

The table model holds one index array (`order`); this module computes it. Score columns sort
with a numpy argsort (~0.1 s at a million rows); text columns and search are Python loops
(~0.3–1.3 s at a million rows), which is why the model runs big tables through a worker.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from matchlens.core.metrics.registry import STATUS_SCORED, MetricSpec
from matchlens.core.scoring.batch import verdict_array
from matchlens.core.scoring.stats import bar_mask

# Row verdict codes for the selected variant (over the metrics that have a threshold).
ROW_PASS = 1
ROW_FAIL = 0  # at least one metric fails its threshold
ROW_PROBLEM = 2  # no failure, but a thresholded metric has no score (errored, invalid, missing)
ROW_NONE = -1  # no thresholded metric, or the row is not scored yet

FILTER_ALL = "all"
FILTER_FAILING = "failing"  # every row that does not pass (the core's rule: no score, no pass)
FILTER_ERRORS = "errors"  # any metric errored, invalid or missing
FILTER_FAIL_PREFIX = "fail:"  # "fail:<metric_id>": that metric fails or has no score
# "bin:<metric_id>:<index>:<last 0|1>:<lo>:<hi>": the rows a histogram bar counts (bar_mask)
FILTER_BIN_PREFIX = "bin:"


def bin_filter(metric_id: str, index: int, lo: float, hi: float, last: bool) -> str:
    return f"{FILTER_BIN_PREFIX}{metric_id}:{index}:{int(last)}:{lo!r}:{hi!r}"
FILTER_ROWS_PREFIX = "rows:"  # "rows:<name>": the rows of ViewData.row_masks[<that key>]


@dataclass(frozen=True)
class ViewSpec:
    sort: str | None = None  # "#", "id", "expected", "actual", "score:<id>", "verdict"
    descending: bool = False
    filter: str = FILTER_ALL
    search: str = ""


@dataclass
class ViewData:
    """A snapshot of the selected variant's columns; the arrays are shared, never copied."""

    done: int  # rows scored so far; rows past it have no verdict yet
    ids: Sequence[str | None] | None
    expected: Sequence[str | None]
    actual: Sequence[str | None]
    scores: Mapping[str, np.ndarray]
    status: Mapping[str, np.ndarray]
    specs: Mapping[str, MetricSpec]
    thresholds: Mapping[str, float | None]
    # "id" / "expected" / "actual" -> each row's rank in its column's text order (equal texts
    # share a rank), when computed: a text sort is then an integer argsort (~40 ms a million).
    ranks: Mapping[str, np.ndarray] = field(default_factory=dict)
    # filter key ("rows:…") -> the rows it keeps (the Fields view: rows where a path is wrong)
    row_masks: Mapping[str, np.ndarray] = field(default_factory=dict)
    # other numeric columns by their key ("delta:<metric_id>"), sorted as scores are
    values: Mapping[str, np.ndarray] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return len(self.expected)


def row_codes(data: ViewData) -> np.ndarray:
    """ROW_PASS / ROW_FAIL / ROW_PROBLEM / ROW_NONE for every row."""
    n = data.rows
    fail = np.zeros(n, dtype=bool)
    no_score = np.zeros(n, dtype=bool)
    gated = False
    for metric_id, spec in data.specs.items():
        threshold = data.thresholds.get(metric_id)
        if threshold is None:
            continue
        gated = True
        verdicts = verdict_array(data.scores[metric_id], spec, threshold)
        fail |= verdicts == 0
        no_score |= verdicts == -1
    codes = np.where(fail, ROW_FAIL, np.where(no_score, ROW_PROBLEM, ROW_PASS)).astype(np.int8)
    if not gated:
        codes[:] = ROW_NONE
    codes[data.done:] = ROW_NONE
    return codes


def failing_mask(data: ViewData) -> np.ndarray:
    codes = row_codes(data)
    return (codes == ROW_FAIL) | (codes == ROW_PROBLEM)


def filter_mask(data: ViewData, which: str) -> np.ndarray | None:
    """Rows kept by the filter (None = all rows)."""
    if which == FILTER_ALL:
        return None
    if which == FILTER_FAILING:
        return failing_mask(data)
    scored_part = np.arange(data.rows) < data.done
    if which == FILTER_ERRORS:
        bad = np.zeros(data.rows, dtype=bool)
        for metric_id in data.specs:
            bad |= data.status[metric_id] != STATUS_SCORED
        return bad & scored_part
    if which.startswith(FILTER_FAIL_PREFIX):
        metric_id = which[len(FILTER_FAIL_PREFIX):]
        threshold = data.thresholds.get(metric_id)
        if threshold is None:
            return (data.status[metric_id] != STATUS_SCORED) & scored_part
        verdicts = verdict_array(data.scores[metric_id], data.specs[metric_id], threshold)
        return (verdicts != 1) & scored_part
    if which.startswith(FILTER_BIN_PREFIX):
        metric_id, index, last, lo, hi = which[len(FILTER_BIN_PREFIX):].split(":")
        return bar_mask(data.specs[metric_id], data.scores[metric_id], int(index), float(lo),
                        float(hi), last == "1") & scored_part
    if which.startswith(FILTER_ROWS_PREFIX):
        mask = data.row_masks.get(which)
        return np.zeros(data.rows, dtype=bool) if mask is None else mask
    raise ValueError(f"unknown filter {which!r}")


SEARCH_SLICE = 65_536  # rows a search turns into Python ints at a time


def search_hits(data: ViewData, rows: np.ndarray, needle: str) -> np.ndarray:
    """The rows (of `rows`) whose id, expected or actual text contains `needle`.

    Smart case, as in ripgrep: all-lowercase needles match any case.
    """
    fold = needle == needle.lower()
    columns = [c for c in (data.ids, data.expected, data.actual) if c is not None]
    # a slice of rows at a time: a million Python ints at once were 36 MB more in the window
    step = SEARCH_SLICE
    found = []
    for k in range(0, len(rows), step):
        part = rows[k:k + step]
        lo = int(part[0]) if len(part) else 0
        if len(part) and int(part[-1]) - lo == len(part) - 1:
            # consecutive rows (no filter): each column's slice at once, which a column store
            # decodes in one go instead of a cell per call
            texts = [c[lo:lo + len(part)] for c in columns]
            at = part.tolist()
            where = range(len(part))
        else:
            texts, at, where = columns, part.tolist(), part.tolist()
        if fold:
            hits = [r for r, i in zip(at, where, strict=True)
                    if any(needle in (t[i] or "").lower() for t in texts)]
        else:
            hits = [r for r, i in zip(at, where, strict=True)
                    if any(needle in (t[i] or "") for t in texts)]
        found.append(np.array(hits, dtype=np.int64))
    return np.concatenate(found) if found else np.zeros(0, np.int64)


def sort_rows(data: ViewData, rows: np.ndarray, key: str, descending: bool,
              cancel: Callable[[], bool] | None = None) -> np.ndarray:
    """`rows` reordered by a column; stable, rows without a score last either way."""
    if key == "#":
        return rows[::-1] if descending else rows
    if key.startswith("score:") or key in data.values:
        values = data.values[key] if key in data.values else data.scores[key[len("score:"):]]
        values = values[rows]
        return rows[np.argsort(-values if descending else values, kind="stable")]
    if key == "verdict":
        codes = row_codes(data)[rows]
        # fail, problem, pass, none — the rows that need attention first
        rank = np.choose(codes + 1, [3, 0, 2, 1])
        return rows[np.argsort(-rank if descending else rank, kind="stable")]
    column = {"id": data.ids, "expected": data.expected, "actual": data.actual}[key]
    if column is None:
        return rows
    ranks = data.ranks.get(key)
    if ranks is not None:
        picked = ranks[rows]
    else:
        try:
            texts = text_array(column, rows, cancel)
        except UnicodeEncodeError:  # a lone surrogate (JSON's "\ud800"): Python's own order
            picked = dense_ranks([column[i] for i in rows.tolist()])
        else:
            if not descending:
                return rows[np.argsort(texts, kind="stable")]
            # Stable descending (equal texts keep file order): sort reversed, reverse back.
            backwards = np.argsort(texts[::-1], kind="stable")
            return rows[(len(texts) - 1 - backwards)[::-1]]
    # dense ranks: negated, a stable sort keeps equal texts in file order
    return rows[np.argsort(-picked if descending else picked, kind="stable")]


def text_array(column: Sequence[str | None], rows: np.ndarray,
               cancel: Callable[[], bool] | None = None) -> np.ndarray:
    """The texts of `rows` as a numpy StringDType array (None as "").

    numpy sorts StringDType without holding the GIL (Python's sorted() holds it for the whole
    C sort: ~0.9 s at a million rows, a frozen window). Converting holds it too, so it is done
    in small slices (each a ~1 ms hold).
    """
    out = np.empty(len(rows), dtype=np.dtypes.StringDType())
    step = 4096
    for k in range(0, len(rows), step):  # filled in place: no big concatenation at the end
        if cancel is not None and cancel():
            raise Superseded
        out[k:k + step] = [column[i] or "" for i in rows[k:k + step].tolist()]
    return out


def text_ranks(column: Sequence[str | None], cancel: Callable[[], bool] | None = None
               ) -> np.ndarray:
    """Each row's rank in the column's text order (None as ""), equal texts sharing a rank.

    numpy sorts without the GIL; gathering the sorted texts (`texts[order]`) and comparing
    neighbours as StringDType hold it for ~1 s a million rows, so that part walks Python
    strings in slices instead (each a ~1 ms hold).
    """
    n = len(column)
    try:
        order = np.argsort(text_array(column, np.arange(n), cancel), kind="stable")
    except UnicodeEncodeError:  # numpy strings are UTF-8: no lone surrogates
        return dense_ranks(column)
    new = np.empty(n, dtype=bool)
    previous: str | None = None
    step = 4096
    for k in range(0, n, step):
        if cancel is not None and cancel():
            raise Superseded
        # slice by slice: a million Python ints at once would wake the cyclic collector, whose
        # full passes hold the GIL for 0.1 s and more
        texts = [column[i] or "" for i in order[k:k + step].tolist()]
        new[k:k + len(texts)] = [t != p for t, p in zip(texts, [previous, *texts[:-1]],
                                                         strict=True)]
        previous = texts[-1]
        time.sleep(0)  # background work: let the window have the GIL between slices
    ranks = np.empty(n, dtype=rank_dtype(n))
    ranks[order] = np.cumsum(new) - 1
    return ranks


def rank_dtype(rows: int) -> type[np.integer]:
    """The ranks' integer type: 4 bytes a row up to 2**31 rows (a window keeps one array a
    text column, so a million rows of four columns is 16 MB less)."""
    return np.int32 if rows < 2**31 else np.int64


def string_ranks(texts: np.ndarray) -> np.ndarray:
    """Dense ranks of a StringDType array, all in numpy (it holds the GIL throughout: for a
    process with no window to share it with)."""
    ranks = np.empty(len(texts), dtype=rank_dtype(len(texts)))
    if not len(texts):
        return ranks
    order = np.argsort(texts, kind="stable")
    ordered = texts[order]
    new = np.empty(len(texts), dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    ranks[order] = np.cumsum(new) - 1
    return ranks


def dense_ranks(column: Sequence[str | None]) -> np.ndarray:
    """text_ranks in one go, in Python's own string order (so it agrees with sorting the texts
    themselves): for texts numpy cannot hold (lone surrogates), and in the scoring child."""
    texts = [t or "" for t in column]
    order = sorted(range(len(texts)), key=texts.__getitem__)
    in_order, rank, previous = [], -1, None
    for i in order:
        if texts[i] != previous:
            rank, previous = rank + 1, texts[i]
        in_order.append(rank)
    ranks = np.empty(len(texts), dtype=rank_dtype(len(texts)))
    ranks[order] = in_order
    return ranks


class Superseded(Exception):
    """A newer sort/filter request replaced this one."""


def compute_order(data: ViewData, spec: ViewSpec,
                  cancel: Callable[[], bool] | None = None) -> np.ndarray | None:
    """The row indices to show, or None for "every row in file order" (no array needed)."""
    mask = filter_mask(data, spec.filter)
    if mask is None and not spec.search and spec.sort in (None, "#") and not spec.descending:
        return None
    rows = np.flatnonzero(mask) if mask is not None else np.arange(data.rows)
    if spec.search:
        rows = search_hits(data, rows, spec.search)
    if cancel is not None and cancel():
        raise Superseded
    if spec.sort:
        rows = sort_rows(data, rows, spec.sort, spec.descending, cancel)
    return rows.astype(np.int64, copy=False)
