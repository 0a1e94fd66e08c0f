"""The report's JSON `fields` table, counted in the scoring pass: when `json_distance` is among
the run's metrics, every scored piece's reference and output texts are added to a `FieldTally`
(core.diff.json_fields) with json_distance's configured options, so the table agrees with the
metric on which array items pair up and when two values are equal; `section()` then gives the
`FieldsSection` the writers draw, cut to `PATHS` paths per variant (worst accuracy first).

One tally per variant: with --expected-any each variant's reference is the one the run picked
for it, so two variants may be compared against different references on the same row.
"""

from __future__ import annotations

from collections.abc import Sequence

from matchlens.core.diff.json_fields import COLUMNS, FieldTally, field_rows
from matchlens.core.output.reports.model import FieldsSection
from matchlens.core.scoring.batch import MetricJob

METRIC = "json_distance"
PATHS = 100  # paths shown per variant; the rest are counted in the section's note


class FieldsFeed:
    """Per-path counts of the run's JSON pairs, fed piece by piece (`add`)."""

    def __init__(self, variants: Sequence[str], job: MetricJob, *, paths: int = PATHS) -> None:
        self.paths = max(1, paths)
        self.tallies = {v: FieldTally([v], job.options) for v in dict.fromkeys(variants)}

    @staticmethod
    def job_of(jobs: Sequence[MetricJob]) -> MetricJob | None:
        """The run's json_distance job, or None when it is not scored."""
        return next((job for job in jobs if job.id == METRIC), None)

    def add(self, variant: str, expected: Sequence[str | None],
            actual: Sequence[str | None]) -> None:
        """One piece of one variant: `expected[i]` is row i's reference, `actual[i]` its
        output."""
        self.tallies[variant].add(expected, {variant: actual})

    def section(self) -> FieldsSection:
        """The table: per variant its worst `paths` paths; the note says what was compared and
        what was left out."""
        header = ("variant", *COLUMNS)
        rows: list[tuple[str, ...]] = []
        notes: list[str] = []
        for variant, tally in self.tallies.items():
            found = field_rows(tally)
            for row in found[: self.paths]:
                accuracy = row["accuracy"]
                rows.append((variant, row["path"], *(f"{row[k]:,}" for k in COLUMNS[1:6]),
                             "–" if accuracy is None else f"{accuracy:.1%}"))
            (summary,) = tally.summary()["variants"]
            note = f"{variant}: {summary['compared']:,} of {tally.rows:,} rows compared"
            if summary["invalid"]:
                reasons = "; ".join(f"{r['reason']} ({r['rows']:,})"
                                    for r in summary["reasons"][:3])
                note += f", {summary['invalid']:,} not compared ({reasons})"
            if len(found) > self.paths:
                note += (f"; the worst {self.paths:,} of {len(found):,} paths shown "
                         "(`matchlens fields` lists them all)")
            notes.append(note + ".")
        return FieldsSection(header, tuple(rows), note=" ".join(notes))
