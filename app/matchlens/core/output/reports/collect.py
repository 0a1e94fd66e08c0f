"""`ReportCollector`: what the reports need, gathered while `score_stream` hands out the scored
pieces — never every row.

Per variant and thresholded metric a bounded heap keeps the `worst` lowest-scoring failing
rows (the highest for a lower-is-better metric; never a passing row) with their texts; the score distributions come from the
run's `Tally`; with a label column, the labels and scores (a number each a row, no text) for
the calibration table; with JUnit, every row's testcase goes to the writer's spool at once.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from matchlens.core.datasets import parse_label, resolve_column
from matchlens.core.datasets.table import Table
from matchlens.core.labels.calibration_report import MetricReport, calibrate_scores
from matchlens.core.metrics.registry import STATUS_SCORED
from matchlens.core.output.reports.fields_feed import METRIC, FieldsFeed
from matchlens.core.output.reports.helper_work import JoinedIds, joined_ids
from matchlens.core.output.reports.model import RowDiff, WorstRows
from matchlens.core.output.reports.report_helper import JunitRemote
from matchlens.core.output.reports.rows import (
    failing_sentence,
    fails,
    row_diff,
)
from matchlens.core.results import Direction
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.references import parse_references

if TYPE_CHECKING:
    from matchlens.core.output.reports.junit_feed import JunitFeed


class Cells(Sequence):
    """One column of a CSV piece's rows (lists of cells), a cell read when asked."""

    def __init__(self, rows: list[list[str]], at: int) -> None:
        self.rows, self.at = rows, at

    def __getitem__(self, i):  # type: ignore[override] - rows are read one by one
        if isinstance(i, slice):
            return [row[self.at] for row in self.rows[i]]
        return self.rows[i][self.at]

    def __len__(self) -> int:
        return len(self.rows)


@dataclass
class _Candidate:
    index: int
    line: int
    row_id: str | None
    expected: str | None
    actual: str | None
    scores: dict[str, float | None]


class ReportCollector:
    """Feed it every scored piece in order (`add`); `worst_rows()` and `calibration()` then
    give the report's sections. `junit`, when given, receives one testcase per row (a
    JunitFeed, or the report helper's JunitRemote)."""

    def __init__(self, mapping: ColumnMapping, jobs: list[MetricJob], *, worst: int = 50,
                 id_column: str | None = None, label_column: str | None = None,
                 junit: JunitFeed | JunitRemote | None = None,
                 fields: FieldsFeed | None = None) -> None:
        self.mapping = mapping
        self.fields = fields
        self.jobs = list(jobs)
        self.worst = max(0, worst)
        self.id_column = id_column
        self.label_column = label_column
        self.junit_feed = junit
        self.rows = 0
        self.thresholded = [job for job in self.jobs if job.threshold is not None]
        # (variant, metric) -> min-heap of (badness, -index, candidate): the root is the
        # least bad kept, so a worse row replaces it; ties keep the earlier row
        self._heaps: dict[tuple[str, str], list] = {
            (v, job.id): [] for v in mapping.variants for job in self.thresholded}
        self._labels: list[np.ndarray] = []
        self._scores: dict[tuple[str, str], list[np.ndarray]] = {
            (v, job.id): [] for v in mapping.variants for job in self.jobs}

    def add(self, table: Table, result: BatchResult,
            regressed: dict[str, np.ndarray] | None = None) -> None:
        """One scored piece; `regressed`, with a baseline: per variant the piece's rows that
        passed there and do not now (JUnit fails them saying so)."""
        n, start = result.rows, self.rows
        self.rows += n
        texts: dict[str, Sequence[str | None]] | None = None
        # the ids only for the JUnit testcases (the helper's: joined in one string)
        ids = None if self.junit_feed is None else self._ids(
            table, joined=isinstance(self.junit_feed, JunitRemote))
        for variant in self.mapping.variants:
            picks = set()
            for job in self.thresholded:
                picks.update(self._offer(variant, job, result, start))
            if self.junit_feed is not None:
                # the texts only while this variant's failing rows still get diffs
                if texts is None and self.junit_feed.wants_texts(variant):
                    texts = self._texts(table)
                self.junit_feed.add(variant, result, start, table, ids,
                                    partial(self._expected_row, texts, result),
                                    None if texts is None else texts[variant],
                                    None if regressed is None else regressed.get(variant))
            if picks:
                texts = texts or self._texts(table)
                self._fill(variant, picks, result, start, table, texts)
            if self.fields is not None:
                texts = texts or self._texts(table)
                expected = texts[""] if not self.mapping.expected_any else [
                    self._expected(texts, variant, row, result, METRIC) for row in range(n)]
                self.fields.add(variant, expected, texts[variant])
        if self.label_column is not None:
            values = resolve_column(table, self.label_column).values
            self._labels.append(np.fromiter(
                (-1 if (v := parse_label(t)) is None else int(v) for t in values),
                dtype=np.int8, count=n))
            for key, parts in self._scores.items():
                status = result.status[key]
                parts.append(np.where(status == STATUS_SCORED, result.scores[key], np.nan))

    def _offer(self, variant: str, job: MetricJob, result: BatchResult, start: int) -> list[int]:
        """Rows of this piece that enter the heap of (variant, metric), as piece rows."""
        if not self.worst:
            return []
        key = (variant, job.id)
        scores = result.scores[key]
        # only failing rows: a passing row is never among the worst, however few fail
        ok = (result.status[key] == STATUS_SCORED) & (result.verdicts(variant, job.id) == 0)
        badness = np.where(ok, -scores if job.spec.direction is Direction.MAX else scores,
                           -np.inf)
        heap = self._heaps[key]
        floor = heap[0][0] if len(heap) >= self.worst else -np.inf
        rows = np.flatnonzero(ok & (badness > floor))
        if rows.size > self.worst:  # the piece's own worst, earlier rows first among ties
            order = np.lexsort((rows, -badness[rows]))[: self.worst]
            rows = rows[order]
        entered = []
        for row in rows.tolist():
            item = (float(badness[row]), -(start + row), row)
            if len(heap) < self.worst:
                heapq.heappush(heap, item)
            elif item[:2] > heap[0][:2]:
                heapq.heapreplace(heap, item)
            else:
                continue
            entered.append(row)
        return entered

    def _fill(self, variant: str, picks: set[int], result: BatchResult, start: int,
              table: Table, texts: dict[str, Sequence[str | None]]) -> None:
        """Replace the piece-row placeholders of this piece's entries by their candidates."""
        made = {row: self._candidate(variant, row, result, start, table, texts)
                for row in picks}
        for job in self.thresholded:
            heap = self._heaps[(variant, job.id)]
            for i, (bad, neg, item) in enumerate(heap):
                if isinstance(item, int) and -neg - start == item and item in made:
                    heap[i] = (bad, neg, made[item])

    def _candidate(self, variant: str, row: int, result: BatchResult, start: int, table: Table,
                   texts: dict[str, Sequence[str | None]]) -> _Candidate:
        scores = {}
        for job in self.jobs:
            key = (variant, job.id)
            ok = result.status[key][row] == STATUS_SCORED
            scores[job.id] = float(result.scores[key][row]) if ok else None
        return _Candidate(start + row, table.lines[row], self._id_at(table, row),
                          self._expected(texts, variant, row, result), texts[variant][row],
                          scores)

    def _expected(self, texts: dict[str, Sequence[str | None]], variant: str, row: int,
                  result: BatchResult, metric: str | None = None) -> str | None:
        """The row's reference; with --expected-any the one `metric` (default: the first
        metric) found best."""
        cell = texts[""][row]
        if not self.mapping.expected_any or cell is None:
            return cell
        try:
            refs = parse_references(cell) or []
        except ValueError:
            return cell
        for job in self.jobs:  # the reference the first metric found best
            if metric is not None and job.id != metric:
                continue
            best = result.refs.get((variant, job.id))
            if best is not None and 0 <= best[row] < len(refs):
                return refs[int(best[row])]
        return refs[0] if refs else cell

    def _expected_row(self, texts: dict[str, Sequence[str | None]] | None,
                      result: BatchResult, variant: str, row: int) -> str | None:
        assert texts is not None, "the texts are read while diffs are given"
        return self._expected(texts, variant, row, result)

    def _texts(self, table: Table) -> dict[str, Sequence[str | None]]:
        """The piece's expected ("" key) and actual texts, resolved as the scoring did. Only a
        few rows' texts are read (the worst rows, the JUnit diffs): the columns of a CSV piece
        are read a cell at a time, when asked (the fields table reads them whole)."""
        if self.mapping.expected_literal:
            expected: Sequence[str | None] = [self.mapping.expected] * len(table)
        else:
            expected = self._column(table, self.mapping.expected)
        out = {"": expected}
        for variant in self.mapping.variants:
            out[variant] = self._column(table, variant)
        return out

    def _column(self, table: Table, spec: str) -> Sequence[str | None]:
        if (self.fields is None and table.is_delimited and isinstance(table.rows, list)
                and spec in table.column_index):
            # what resolve_column gives for a CSV piece's column, without making the list
            return Cells(table.rows, table.column_index[spec])
        return resolve_column(table, spec, require_match=False).values

    def _ids(self, table: Table, joined: bool = False) -> list | JoinedIds | None:
        """The piece's ids (None without an id column); `joined`: a CSV piece's as one string
        (report_helper.joined_ids: quick to send to the helper)."""
        if not self._has_ids(table):
            return None
        if table.is_delimited:  # cell_text of a CSV row is the cell: one pass, no call a row
            cells = map(itemgetter(table.column_index[self.id_column]), table.rows)
            if joined:
                return joined_ids(cells, len(table)) or self._ids(table)
            return list(cells)
        return [table.cell_text(i, self.id_column) for i in range(len(table))]

    def _id_at(self, table: Table, row: int) -> str | None:
        return table.cell_text(row, self.id_column) if self._has_ids(table) else None

    def _has_ids(self, table: Table) -> bool:
        return self.id_column is not None and self.id_column in table.columns

    def finish_junit(self) -> None:
        """Every row's testcase handed to the JUnit writer: the readable diffs still due
        (junit_feed works them out a few a piece) worked out now."""
        if self.junit_feed is not None:
            self.junit_feed.finish()

    def junit_properties(self) -> dict[str, dict[str, str]]:
        """Per variant, the JUnit testsuite's `matchlens.diffs` property (junit_feed)."""
        if self.junit_feed is None:
            return {}
        return self.junit_feed.properties(list(self.mapping.variants))

    def worst_rows(self) -> list[WorstRows]:
        """Per variant and thresholded metric, the kept rows worst first, with their diffs."""
        out = []
        for variant in self.mapping.variants:
            for job in self.thresholded:
                heap = sorted(self._heaps[(variant, job.id)], key=lambda h: (-h[0], -h[1]))
                rows = tuple(self._shown(variant, job, h[2]) for h in heap)
                out.append(WorstRows(variant, job.id, float(job.threshold), rows))
        return out

    def _shown(self, variant: str, job: MetricJob, c: _Candidate) -> RowDiff:
        failing = []
        for other in self.thresholded:
            score = c.scores.get(other.id)
            if score is not None and fails(score, float(other.threshold),
                                                  other.spec.direction):
                failing.append(failing_sentence(other.id, score, float(other.threshold),
                                                other.spec.direction, other.spec.integer))
        return row_diff(index=c.index, line=c.line, row_id=c.row_id, variant=variant,
                        expected=c.expected, actual=c.actual, scores=c.scores, failing=failing)

    def calibration(self) -> dict[str, list[MetricReport]]:
        """Per variant, each metric against the label column (empty without one)."""
        if self.label_column is None or not self._labels:
            return {}
        labels = np.concatenate(self._labels)
        out: dict[str, list[MetricReport]] = {}
        for variant in self.mapping.variants:
            out[variant] = [calibrate_scores(job.spec, np.concatenate(
                self._scores[(variant, job.id)]), labels, job.threshold)[0]
                for job in self.jobs]
        return out
