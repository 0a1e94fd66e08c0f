"""`ReportOutputs`: the three report files one `matchlens score` run asks for (--html,
--markdown, --junit), fed in the scoring pass and written atomically at its end.

`feed(piece, result)` goes beside the scored table's writer; `finish(tally, ...)` builds the
`ReportData` (provenance, summary, distributions, calibration, worst rows) and writes each file
(core.atomic: a file appears whole or not at all; the JUnit file on a thread of its own, its
copy and flush to disk overlapping the rendering of the others). The optional sections — the
baseline's regressions and the JSON `fields` table — are passed in as plain dataclasses
(`regressions=`, `fields=` of `finish`); when json_distance is scored, the `fields` table is
counted in the pass itself (reports.fields_feed). `write_joined_reports` does the same for a
run joined across files (`--references`, `--baseline`), with the baseline's regressions
section.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from matchlens import __version__
from matchlens.core.atomic import atomic_writer
from matchlens.core.datasets.table import Table
from matchlens.core.errors import OutputError
from matchlens.core.output.reports.collect import ReportCollector
from matchlens.core.output.reports.fields_feed import FieldsFeed
from matchlens.core.output.reports.helper_work import sha256_of
from matchlens.core.output.reports.html_report import render_html
from matchlens.core.output.reports.markdown import render_markdown
from matchlens.core.output.reports.model import (
    FieldsSection,
    InputFile,
    Provenance,
    RegressionSection,
    ReportData,
)
from matchlens.core.output.reports.report_helper import ReportHelper
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.forked import can_fork
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.tally import Tally
from matchlens.core.text.redact import scrub

if TYPE_CHECKING:
    from matchlens.core.scoring.run_scoring import RunsResult


@dataclass(frozen=True)
class ReportPaths:
    html: Path | None = None
    markdown: Path | None = None
    junit: Path | None = None
    worst: int = 50

    @property
    def any(self) -> bool:
        return any(p is not None for p in (self.html, self.markdown, self.junit))


class Background:
    """`call(*args, **kwargs)` on a thread of its own; `result()` waits for it and raises what
    it raised."""

    def __init__(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self._error: BaseException | None = None
        self._value: Any = None

        def run() -> None:
            try:
                self._value = call(*args, **kwargs)
            except BaseException as err:  # noqa: BLE001 - handed to the waiting thread
                self._error = err

        self._thread = threading.Thread(target=run, name="matchlens-report", daemon=True)
        self._thread.start()

    def result(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def scrubbed(value: Any) -> Any:
    """Every string in a nested config scrubbed of keys."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub(str(k)): scrubbed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrubbed(v) for v in value]
    return value


class ReportOutputs:
    """The reports of one run: created before the pass, fed every piece, finished after."""

    def __init__(self, paths: ReportPaths, mapping: ColumnMapping, jobs: list[MetricJob],
                 *, source: str, id_column: str | None = None,
                 label_column: str | None = None, input_path: Path | None = None,
                 helper: bool = False) -> None:
        """`input_path`: the data file, hashed for the provenance while the run scores.
        `helper`: the hash and the JUnit testcases are worked out by a forked helper process
        where one can be started (report_helper.py: for `score`, whose own process is the
        run's critical path); else by this process."""
        self.paths = paths
        hashed = input_path if input_path is not None and paths.any and \
            input_path.is_file() else None
        self.helper: ReportHelper | None = None
        if helper and paths.any and can_fork():
            self.helper = ReportHelper(
                hashed, (list(mapping.variants), source) if paths.junit else None, jobs)
            if not self.helper.started:
                self.helper = None
        # else its SHA-256 on a thread while the run scores (hashing lets the GIL go): only
        # for a regular file, whose bytes a second reader cannot take from the run
        self._early = Background(sha256_of, hashed) \
            if hashed is not None and self.helper is None else None
        self._hashed = hashed
        self.created = datetime.now(UTC)
        self.junit = None
        feed = self.helper.remote if self.helper is not None else None
        if paths.junit and self.helper is None:
            # imported only here: with the helper, the run's process never loads pyarrow
            from matchlens.core.output.reports.junit import JunitWriter
            from matchlens.core.output.reports.junit_feed import JunitFeed

            self.junit = JunitWriter(mapping.variants, source)
            feed = JunitFeed(self.junit, list(jobs))
        drawn = bool(paths.html or paths.markdown)
        worst = paths.worst if drawn else 0
        # json_distance scored: the JSON fields table is counted in the same pass
        json_job = FieldsFeed.job_of(jobs) if drawn else None
        self.fields = None if json_job is None else FieldsFeed(mapping.variants, json_job)
        self._worst: Background | None = None  # the worst rows, worked out from pieces_done
        self.collector = ReportCollector(mapping, jobs, worst=worst, id_column=id_column,
                                         label_column=label_column, junit=feed,
                                         fields=self.fields)

    def feed(self, piece: Table, result: BatchResult,
             regressed: dict[str, np.ndarray] | None = None) -> None:
        self.collector.add(piece, result, regressed)

    def pieces_done(self) -> None:
        """Every piece is fed: the helper may write the JUnit file now, and the worst rows'
        readable diffs are worked out on a thread, while the run flushes its own table (a
        flush lets the GIL go); else `finish` does both."""
        if self.helper is not None:
            self.helper.finish(self.paths.junit, self._timestamp)
            if self._worst is None:
                self._worst = Background(self.collector.worst_rows)

    def finish(self, tally: Tally, *, input_path: Path | None, options: dict[str, Any],
               command: str = "", regressions: RegressionSection | None = None,
               fields: FieldsSection | None = None,
               inputs: tuple[InputFile, ...] | None = None) -> ReportData:
        """Build the report and write every file asked for; the data is returned (tests).
        `fields`, when not given, is the table counted in the pass (json_distance scored);
        `inputs`, when not given, is the one data file (`input_path`, hashed here)."""
        if fields is None and self.fields is not None:
            fields = self.fields.section()
        timestamp = self._timestamp
        junit = None
        if self.helper is not None:
            self.helper.finish(self.paths.junit, timestamp)  # written from now on, over there
        elif self.junit is not None and self.paths.junit:
            self.collector.finish_junit()  # before the worst rows: they share its diffs
            # its testcases are all spooled: copied and flushed to disk by the kernel (the GIL
            # let go) while the worst rows are diffed and the HTML and Markdown rendered
            junit = Background(self.junit.write, self.paths.junit, timestamp,
                               properties=self.collector.junit_properties())
        try:
            prov = Provenance(
                inputs=inputs or (InputFile(scrub(tally.source), self._sha256(input_path),
                                            tally.rows),),
                version=__version__, created=self.created.isoformat(timespec="seconds"),
                metrics=tuple(job.id for job in tally.jobs),
                thresholds={job.id: job.threshold for job in tally.jobs},
                options=scrubbed(options), command=scrub(command))
            worst = self.collector.worst_rows() if self._worst is None else \
                self._worst.result()
            data = ReportData(prov, tally, worst=worst,
                              calibration=self.collector.calibration(), regressions=regressions,
                              fields=fields, worst_n=self.paths.worst)
            if self.paths.html:
                _write(self.paths.html, render_html(data))
            if self.paths.markdown:
                _write(self.paths.markdown, render_markdown(data))
        finally:
            if junit is not None:
                junit.result()
            if self.helper is not None:
                self.helper.result(self.paths.junit)
        return data

    @property
    def _timestamp(self) -> str:
        return self.created.strftime("%Y-%m-%dT%H:%M:%S")

    def _sha256(self, path: Path | None) -> str | None:
        if path is None or path != self._hashed:
            return sha256_of(path)
        return self.helper.digest() if self.helper is not None else self._early.result()

    def close(self) -> None:
        """Let go of the JUnit spools and the helper (a run that failed or was interrupted)."""
        if self.junit is not None:
            self.junit.close()
        if self.helper is not None:
            self.helper.close()


def _write(path: Path, content: str) -> None:
    try:
        with atomic_writer(path) as handle:
            handle.write(content)
    except OSError as err:
        raise OutputError(f"{path}: cannot write ({err.strerror or err})") from None


def write_report_of_result(path: Path, table: Table, result: BatchResult,
                           mapping: ColumnMapping, options: dict[str, Any], *, worst: int = 50,
                           input_path: Path | None = None, markdown: bool = False
                           ) -> ReportData:
    """The HTML report of a result held whole (the window's File ▸ Export ▸ Report, with the
    thresholds on screen in `result.jobs`): the same report `score --html` writes. Only the
    rows scored so far are reported. `markdown`: the Markdown summary instead (`--markdown`)."""
    from matchlens.core.output.reports.regressions import result_rows  # see write_joined_reports

    done = result.done
    if done < result.rows:
        table = table.piece(0, done)
        result = result_rows(result, 0, done)
    tally = Tally.of(result, list(table.lines), source=table.label)
    tally.unit = table.unit
    label = mapping.label if mapping.label in table.columns else None
    ident = mapping.id if mapping.id in table.columns else None
    paths = ReportPaths(markdown=path, worst=worst) if markdown else \
        ReportPaths(html=path, worst=worst)
    outputs = ReportOutputs(paths, mapping, list(result.jobs),
                            source=table.label, id_column=ident, label_column=label)
    outputs.feed(table, result)
    return outputs.finish(tally, input_path=input_path, options=options,
                          command="the MatchLens window")



def write_joined_reports(paths: ReportPaths, runs: RunsResult, run: Table,
                         references: Table | None = None, baseline: Table | None = None, *,
                         options: dict[str, Any], command: str = "",
                         files: dict[str, Path | None] | None = None,
                         inputs: tuple[InputFile, ...] | None = None) -> ReportData:
    """The reports of a run joined across files (`score --references/--baseline --id`): the
    joined rows fed in pieces (reports.regressions), the baseline's section, and each file
    read named with its role and SHA-256 (`files`: role -> path, None for standard input;
    `inputs`, when given, names them instead: the window's join, whose `run` is the joined
    table)."""
    # imported here: the joined run's modules load pyarrow, which `score`'s own process (whose
    # helper writes the JUnit testcases) never needs
    from matchlens.core.output.reports.regressions import (
        ID_COLUMN,
        joined_pieces,
        joined_texts,
        regression_section,
    )

    texts = joined_texts(runs, run, references, baseline)
    outputs = ReportOutputs(paths, runs.mapping, list(runs.result.jobs), source=run.label,
                            id_column=ID_COLUMN)
    try:
        for piece, result, regressed in joined_pieces(runs, texts, run.label):
            outputs.feed(piece, result, regressed)
        section = None
        if baseline is not None:
            section = regression_section(runs, texts, scrub(baseline.label), paths.worst)
        where = files or {}
        inputs = inputs or tuple(
            InputFile(scrub(table.label), sha256_of(where.get(role)), len(table), role)
            for role, table in (("run", run), ("references", references),
                                ("baseline", baseline)) if table is not None)
        return outputs.finish(runs.tally, input_path=None, options=options, command=command,
                              regressions=section, inputs=inputs)
    finally:
        outputs.close()
