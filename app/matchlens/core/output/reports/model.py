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
    """One data file the run read: its name as given, its SHA-256 (None for standard input)
    and its row count."""

    name: str
    sha256: str | None
    rows: int


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
    """One row a baseline run passed and this run fails (or the reverse): hook for the
    baseline feature, which fills `ReportData.regressions`."""

    row: RowDiff
    baseline_actual: str
    baseline_chunks: tuple[Chunk, ...]
    baseline_scores: dict[str, float | None]


@dataclass(frozen=True)
class RegressionSection:
    """A baseline comparison: counts, and the regressed rows (up to --worst)."""

    baseline: str  # the baseline run's file name
    regressed: int
    improved: int
    rows: tuple[Regression, ...]


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
