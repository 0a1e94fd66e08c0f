"""A run scored across files (no Qt): the outputs of one file, the references of another, an
earlier run as the baseline, joined by id (runs.py) and scored by the one pipeline
(`pipeline.score_values`), the baseline's outputs in the same pass with this run's metrics,
options and thresholds; then what changed (run_summary.py).

`score_runs` returns a `RunsResult`: the joined rows, this run's `BatchResult` and summary
(`Tally`), the baseline's `BatchResult` and the `VariantChange` of every variant. The command
line writes it (core.output.runs_table), the Python API turns it into a DataFrame and the
reports read it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.datasets import Table
from matchlens.core.datasets.columns import ColumnValues
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_values
from matchlens.core.scoring.references import references_from_column
from matchlens.core.scoring.run_files import KeyedFile, Texts, answered, narrow, read_keyed
from matchlens.core.scoring.run_summary import VariantChange, compare_with_baseline
from matchlens.core.scoring.runs import (
    Joined,
    join_runs,
    renumber,
    take,
)
from matchlens.core.scoring.tally import Tally

BASELINE = "baseline"  # the variant name of the baseline's outputs in `RunsResult.baseline`
_SCORED_TOGETHER = "\x00baseline"  # never a SPEC a user can type


@dataclass(frozen=True)
class RunFiles:
    """The files of a run: its outputs (`run`), and where given the references and the
    baseline (with the SPEC of the baseline's output), all matched on `id`. The references and
    the baseline are whole tables or narrowed ones (run_files.KeyedFile: `read_run_files`
    reads them so, piece by piece)."""

    run: Table | KeyedFile
    id: str
    references: Table | KeyedFile | None = None
    baseline: Table | KeyedFile | None = None
    baseline_actual: str | None = None
    # False for a piece of a join made elsewhere (a Dask partition): sharing no id is fine
    require_common: bool = True

    def __post_init__(self) -> None:
        if self.baseline is not None and not self.baseline_actual:
            raise ValueError("a baseline needs the SPEC of its outputs (baseline_actual)")


def reference_specs(mapping: ColumnMapping) -> list[str]:
    """The SPECs a references file must resolve: the reference text's (none for a literal)."""
    return [] if mapping.expected_literal else [mapping.expected]


def baseline_specs(mapping: ColumnMapping, baseline_actual: str, with_references: bool
                   ) -> tuple[list[str], list[str]]:
    """(required, optional) SPECs of a baseline file: its outputs; without a references file
    also the run's reference SPEC, where the baseline has it (a row only the baseline has
    takes its reference from there)."""
    optional = [] if with_references or mapping.expected_literal else [mapping.expected]
    return [baseline_actual], optional


def read_run_files(run: Table, id_spec: str, mapping: ColumnMapping, *,
                   references: str | os.PathLike | None = None,
                   baseline: str | os.PathLike | None = None,
                   baseline_actual: str | None = None, answered_only: bool = False,
                   references_reading: dict | None = None,
                   baseline_reading: dict | None = None,
                   option_names: bool = True) -> RunFiles:
    """The run's references and baseline files read narrow (run_files.read_keyed: only the
    id and the SPECs `mapping` and `baseline_actual` need, piece by piece), ready for
    `score_runs`. `*_reading`: `read_table`'s options for that file (records, sheet, format,
    encoding). `answered_only`: the baseline is itself a joined scored table, whose rows
    with an empty output were references its run did not answer: they are left out.
    `option_names`: a message about a file names its own options (`--references-records`).

    DatasetError naming the file for an unreadable file, an unknown or unmatched SPEC, a row
    without an id or an id on two rows."""
    refs = base = None
    if references is not None:
        refs = read_keyed(references, id_spec, reference_specs(mapping),
                          reading=references_reading,
                          option_prefix="references" if option_names else None)
    if baseline is not None:
        if not baseline_actual:
            raise ValueError("a baseline needs the SPEC of its outputs (baseline_actual)")
        required, optional = baseline_specs(mapping, baseline_actual, references is not None)
        base = read_keyed(baseline, id_spec, required, optional, reading=baseline_reading,
                          option_prefix="baseline" if option_names else None)
        if answered_only:
            base = answered(base, baseline_actual)
    return RunFiles(run, id_spec, refs, base, baseline_actual)


@dataclass
class RunsResult:
    """Everything a joined run gives, one entry per joined row (runs.Joined's order)."""

    joined: Joined
    mapping: ColumnMapping
    result: BatchResult  # this run's variants
    tally: Tally  # this run's summary (the pass rate's denominator: every joined row)
    # the reference text of each row ("" with several references): a Sequence (run_files.Texts
    # over pyarrow, or a list); index it, slice it or iterate it as a list
    expected: Sequence[str | None]
    baseline: BatchResult | None = None  # one variant, BASELINE
    baseline_outputs: Sequence[str | None] | None = None  # a Texts, as `expected`
    changes: list[VariantChange] = field(default_factory=list)
    # rows with a reference and no output: no score, `_pass` false (a missing case is not a
    # passing case); only when the references come from their own file
    unanswered: np.ndarray | None = None

    @property
    def regressed_rows(self) -> int:
        """The most rows any variant regressed (the `--fail-on-regression` gate's count)."""
        return max((change.regressed_rows for change in self.changes), default=0)


def score_runs(files: RunFiles, mapping: ColumnMapping, jobs: Sequence[MetricJob]) -> RunsResult:
    """Join `files` by id and score them (see the module). DatasetError for a bad id (missing
    column, repeated, absent from a row, no id in common) or an unresolvable SPEC.

    Every file is narrowed first (run_files: its ids and the SPECs used, as pyarrow arrays),
    and the joined texts stay pyarrow arrays (`Texts`), made Python strings a piece at a
    time as they are scored. A baseline row whose output is the run's own (an answer that
    did not change) is not scored twice: it takes the first variant's scores."""
    refs = _narrowed(files.references, files.id, reference_specs(mapping))
    run = _narrowed(files.run, files.id, run_specs(mapping, refs is not None))
    base = None
    if files.baseline is not None:
        required, optional = baseline_specs(mapping, files.baseline_actual or "",
                                            refs is not None)
        base = _narrowed(files.baseline, files.id, required, optional)
    joined = join_runs(run, files.id, refs, base, require_common=files.require_common)
    n = len(joined)
    lines = _lines(joined, run, refs, base)
    references = None
    missing_groups: list[tuple[str, dict[int, str], np.ndarray]] = []
    if mapping.expected_literal:
        expected: Sequence[str | None] = Texts(pa.repeat(mapping.expected, n))
    elif mapping.expected_any:
        source, rows = (refs, joined.reference_rows) if refs is not None else \
            (run, joined.run_rows)
        lists = references_from_column(
            source, ColumnValues(source.values[mapping.expected].to_pylist(),
                                 source.reasons[mapping.expected]), mapping.expected)
        references = take(lists.lists, rows)
        expected = ["" if r is not None else None for r in references]
        missing_groups.append((f"no reference at {mapping.expected}",
                               renumber(lists.reasons, len(lists), rows),
                               np.array([r is None for r in references], dtype=bool)))
    else:
        source, rows = (refs, joined.reference_rows) if refs is not None else \
            (run, joined.run_rows)
        expected = Texts(source.values[mapping.expected], rows)
        reasons = renumber(source.reasons[mapping.expected], len(source), rows)
        if refs is None and base is not None and mapping.expected in base.values:
            expected = _fill_from_baseline(expected, reasons, base.values[mapping.expected],
                                           joined)
        missing_groups.append((_label("reference", mapping.expected), reasons,
                               expected.nulls()))
    if refs is not None:
        lacking = joined.reference_rows < 0
        reasons = _sentences(lacking & joined.in_run, lines, run, f"its id is not in {refs.label}")
        if base is not None:
            reasons.update(_sentences(lacking & ~joined.in_run, lines, base,
                                      f"its id is not in {refs.label}"))
        missing_groups.append((f"no reference for the id in {refs.label}", reasons, lacking))
    actuals = {spec: Texts(run.values[spec], joined.run_rows) for spec in mapping.variants}
    baseline_outputs = shared = None
    to_score: dict[str, Sequence[str | None]] = dict(actuals)
    if base is not None:
        outputs = base.values[files.baseline_actual or ""]
        baseline_outputs = Texts(outputs, joined.baseline_rows)
        shared = baseline_outputs.same_as(actuals[mapping.variants[0]]) \
            if references is None else np.zeros(n, dtype=bool)
        to_score[_SCORED_TOGETHER] = Texts(outputs, np.where(shared, -1, joined.baseline_rows))
    scored = score_values(expected, to_score, jobs, references=references)
    result = _only(scored, mapping.variants)
    tally = Tally(run.label, mapping.variants, list(jobs), unit=run.unit)
    tally.add_notes([*run.notes, *(refs.notes if refs is not None else [])])
    unanswered = None
    if refs is not None:
        unanswered = ~joined.in_run & (joined.reference_rows >= 0)
    missing = {}
    for spec, values in actuals.items():
        groups = list(missing_groups)
        groups.append((_label("output", spec),
                       renumber(run.reasons[spec], len(run), joined.run_rows),
                       joined.in_run & values.nulls()))
        if unanswered is not None:
            groups.append((f"no output for the id in {run.label}",
                           _sentences(unanswered, lines, refs, f"its id is not in {run.label}"),
                           unanswered))
        missing[spec] = groups
    tally.add(result, lines, missing)
    out = RunsResult(joined, mapping, result, tally, expected, unanswered=unanswered)
    if base is not None:
        out.baseline = _only(scored, [_SCORED_TOGETHER], rename=BASELINE)
        _copy_rows(result, mapping.variants[0], out.baseline, BASELINE, shared)
        out.baseline_outputs = baseline_outputs
        out.changes = compare_with_baseline(result, out.baseline, BASELINE,
                                            joined.in_baseline, joined.in_run)
    return out


def run_specs(mapping: ColumnMapping, with_references: bool) -> list[str]:
    """The SPECs a run file must resolve: every output's, and its references' unless they
    come from a file of their own (or are one literal text)."""
    own = [] if with_references or mapping.expected_literal else [mapping.expected]
    return list(dict.fromkeys([*mapping.variants, *own]))


def _narrowed(given: Table | KeyedFile | None, id_spec: str, specs: list[str],
              optional: Sequence[str] = ()) -> KeyedFile | None:
    if given is None or isinstance(given, KeyedFile):
        return given
    return narrow(given, id_spec, specs, optional)


def _fill_from_baseline(expected: Texts, reasons: dict[int, str], theirs: pa.ChunkedArray,
                        joined: Joined) -> Texts:
    """Without a references file the run's own references are used; a row only the baseline
    has takes the baseline file's reference at the same SPEC, where it has one."""
    from_base = Texts(theirs, joined.baseline_rows)
    gone = joined.in_baseline & ~joined.in_run
    if not gone.any():
        return expected
    filled = pc.if_else(pa.array(gone), from_base.block(0, len(from_base)),
                        expected.block(0, len(expected)))
    for i in np.flatnonzero(gone & ~from_base.nulls()).tolist():
        reasons.pop(i, None)
    return Texts(filled)


def _copy_rows(source: BatchResult, variant: str, target: BatchResult, target_variant: str,
               rows: np.ndarray | None) -> None:
    """`target`'s scores, statuses, messages and chosen references of `rows` taken from
    `source`'s `variant` (the same pairs, so the same outcome)."""
    if rows is None or not rows.any():
        return
    where = set(np.flatnonzero(rows).tolist())
    for job in source.jobs:
        mine, theirs = (variant, job.id), (target_variant, job.id)
        target.scores[theirs][rows] = source.scores[mine][rows]
        target.status[theirs][rows] = source.status[mine][rows]
        found = {i: text for i, text in source.messages.get(mine, {}).items() if i in where}
        if found:
            target.messages.setdefault(theirs, {}).update(found)
        if mine in source.refs and theirs in target.refs:
            target.refs[theirs][rows] = source.refs[mine][rows]


def _label(role: str, spec: str) -> str:
    return f"no {role} at {spec}" if spec.startswith("$") else f"no {role} in column {spec!r}"


def _lines(joined: Joined, run: Table, refs: KeyedFile | None, base: KeyedFile | None
           ) -> list[int]:
    """Each joined row's line: in the run, else in the references, else in the baseline."""
    lines = np.zeros(len(joined), dtype=np.int64)
    for table, rows in ((base, joined.baseline_rows), (refs, joined.reference_rows),
                        (run, joined.run_rows)):
        if table is None or rows is None:
            continue
        present = rows >= 0
        lines[present] = np.asarray(table.lines, dtype=np.int64)[rows[present]]
    return lines.tolist()


def _sentences(mask: np.ndarray, lines: list[int], table: Table | KeyedFile, why: str) -> dict[int, str]:
    """The reason of each row in `mask`, in words the summary groups (numbers aside)."""
    return {int(i): f"{table.label}, {table.unit} {lines[i]}: {why}"
            for i in np.flatnonzero(mask)}


def _only(result: BatchResult, variants: list[str], rename: str | None = None) -> BatchResult:
    """The columns of some variants of a BatchResult (renamed, for the baseline's)."""
    def name(variant: str) -> str:
        return rename if rename is not None else variant

    out = BatchResult(result.rows, [name(v) for v in variants], result.jobs, done=result.done)
    for (variant, metric_id) in result.keys():  # noqa: SIM118 - a method, not a dict
        if variant in variants:
            key = (name(variant), metric_id)
            out.scores[key] = result.scores[(variant, metric_id)]
            out.status[key] = result.status[(variant, metric_id)]
            out.messages[key] = result.messages.get((variant, metric_id), {})
            if (variant, metric_id) in result.refs:
                out.refs[key] = result.refs[(variant, metric_id)]
    return out
