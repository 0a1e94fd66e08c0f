"""What a report shows, as plain dataclasses the writers read (no scoring, no files here).

`ReportData` is the whole report: provenance, the run's `Tally` (summary and distributions),
the worst rows per thresholded metric, the calibration reports when labels were mapped, and two
optional sections other features fill in: `regressions` (a baseline run's regressed and
improved rows) and `fields` (the per-path table of JSON outputs). A writer draws a section only
when it is there, so those features add data, not writer code paths of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matchlens.core.diff.readable.chunks import Chunk
from matchlens.core.labels.calibration_report import MetricReport
from matchlens.core.scoring.tally import Tally


@dataclass(frozen=True)
class InputFile:
    """One data file the run read: its name as given, its SHA-256 (None for standard input),
    its row count and, when the run joins files, what it gave."""

    name: str
    sha256: str | None
    rows: int
    role: str = ""  # "run", "references", "baseline" when a run joins several files


@dataclass(frozen=True)
class Provenance:
    """What made the run: never a key (every string is scrubbed before it gets here)."""

    inputs: tuple[InputFile, ...]
    version: str
    created: str  # ISO 8601, UTC
    metrics: tuple[str, ...]
    thresholds: dict[str, float | None]
    options: dict[str, Any]  # the config as the sidecar records it
    command: str = ""  # the command line, scrubbed


@dataclass(frozen=True)
class RowDiff:
    """One row shown with its readable diff: the texts (cut for show) and their chunks."""

    index: int  # 0-based row of the data
    line: int  # where the row is in its file (`unit`)
    row_id: str | None  # the id column's value, if any
    variant: str
    expected: str
    actual: str
    chunks: tuple[Chunk, ...]
    scores: dict[str, float | None]  # every metric of the row (None: no score)
    failing: tuple[str, ...] = ()  # "levenshtein_similarity 0.42 < 0.70", one per failing metric
    cut: bool = False  # the texts were cut to CELL_CHARS for show

    @property
    def name(self) -> str:
        """The row as reports name it: its id, else 'row N' (N counting data rows from 1)."""
        return self.row_id if self.row_id not in (None, "") else f"row {self.index + 1}"


@dataclass(frozen=True)
class WorstRows:
    """The lowest-scoring rows of one thresholded metric of one variant, worst first."""

    variant: str
    metric: str
    threshold: float
    rows: tuple[RowDiff, ...]


@dataclass(frozen=True)
class Regression:
    """One row a baseline run passed and this run fails: `row` is this output against the
    reference (its scores now), `baseline_*` the baseline's output against the same reference
    and its scores then."""

    row: RowDiff
    baseline_actual: str
    baseline_chunks: tuple[Chunk, ...]
    baseline_scores: dict[str, float | None]
    # with --expected-any, the reference the baseline's output was diffed against when it is
    # not the one this output was (None: the same reference)
    baseline_expected: str | None = None


@dataclass(frozen=True)
class MetricChangeCounts:
    """One metric of one variant against the baseline, as the command's summary says it: rows
    per change label (run_summary.LABELS, in order), the mean delta (this − baseline) with its
    interval over the rows both runs scored, and the paired sign test."""

    metric: str
    counts: dict[str, int]
    n: int  # rows with both scores
    mean_delta: float | None
    ci_low: float | None
    ci_high: float | None
    confidence: float
    p_value: float
    sentence: str  # the summary's own sentence

    @property
    def delta_text(self) -> str:
        return _signed(self.mean_delta)

    @property
    def interval_text(self) -> str:
        if self.ci_low is None or self.ci_high is None:
            return "–"
        return f"{_signed(self.ci_low)} to {_signed(self.ci_high)}"

    @property
    def p_text(self) -> str:
        return "p < 0.001" if self.p_value < 0.001 else f"p = {self.p_value:.3f}"


def _signed(value: float | None) -> str:
    return "–" if value is None else f"{value:+.3f}"


@dataclass(frozen=True)
class VariantRegressions:
    """One variant against the baseline: its metrics, its regressed and improved row counts and
    the regressed rows, worst first (up to --worst)."""

    variant: str
    regressed: int
    improved: int
    metrics: tuple[MetricChangeCounts, ...]
    rows: tuple[Regression, ...]


@dataclass(frozen=True)
class RegressionSection:
    """A baseline comparison (filled by reports.regressions from a run joined across files)."""

    baseline: str  # the baseline run's file name
    variants: tuple[VariantRegressions, ...]
    worst_n: int = 50

    @property
    def regressed(self) -> int:
        """The most rows any variant regressed (the --fail-on-regression gate's count)."""
        return max((v.regressed for v in self.variants), default=0)


@dataclass(frozen=True)
class FieldsSection:
    """The `fields` table of JSON outputs: a header, rows of cells and a note saying what was
    compared and what was left out (filled by reports.fields_feed when json_distance is
    scored)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass
class ReportData:
    provenance: Provenance
    tally: Tally
    worst: list[WorstRows] = field(default_factory=list)
    calibration: dict[str, list[MetricReport]] = field(default_factory=dict)  # per variant
    regressions: RegressionSection | None = None  # baseline hook (runs issue)
    fields: FieldsSection | None = None  # JSON fields hook (fields issue)
    worst_n: int = 50
