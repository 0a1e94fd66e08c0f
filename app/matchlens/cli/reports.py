"""`matchlens score --html/--markdown/--junit`: the reports set up from the flags, fed the
scored pieces in the same pass as the table, and written at its end
(core.output.reports.outputs)."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from matchlens.core.datasets import guess_columns
from matchlens.core.datasets.table import Table
from matchlens.core.errors import ConfigError, OutputError
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.tally import Tally

if TYPE_CHECKING:
    from matchlens.core.output.reports.outputs import ReportOutputs, ReportPaths
    from matchlens.core.scoring.run_scoring import RunsResult


def report_paths(args: argparse.Namespace) -> ReportPaths | None:
    """The report files the flags ask for, or None; OutputError for a path that is a folder
    (checked before any row is scored)."""
    wanted = (getattr(args, "html", None), getattr(args, "markdown", None),
              getattr(args, "junit", None))
    if all(path is None for path in wanted):
        return None
    # only when asked: a plain run does not load the writers (tempfile, tomli_w, html)
    from matchlens.core.output.reports.outputs import ReportPaths

    paths = ReportPaths(*wanted, getattr(args, "worst", 50))
    for flag, path in (("--html", paths.html), ("--markdown", paths.markdown),
                       ("--junit", paths.junit)):
        if path is not None and Path(path).is_dir():
            raise OutputError(f"{path}: is a folder, not a file to write ({flag})")
    return paths


def check_flag_column(first: Table, flag: str, column: str | None) -> None:
    """A column a flag names (None: none named) that the file lacks is one sentence."""
    if column is not None and column not in first.columns:
        raise ConfigError(f"{first.label}: no column {column!r} for {flag} (the columns: "
                          f"{', '.join(first.columns[:12])}"
                          f"{', …' if len(first.columns) > 12 else ''})")


def start_reports(args: argparse.Namespace, first: Table, mapping: ColumnMapping,
                  jobs: list[MetricJob]) -> ReportOutputs | None:
    """The reports the flags ask for, or None. A bad --id/--label column or an output path
    that is a folder is one sentence now, before any row is scored."""
    paths = report_paths(args)
    if paths is None:
        return None
    from matchlens.core.output.reports.outputs import ReportOutputs

    # --id is the runs' row key (a column or a JSONPath): a column also names the report's rows
    id_spec = getattr(args, "id_spec", None)
    id_column = id_spec if id_spec and not id_spec.startswith("$") else None
    label_column = getattr(args, "label_column", None)
    for flag, column in (("--id", id_column), ("--label", label_column)):
        check_flag_column(first, flag, column)
    if id_column is None:
        id_column = guess_columns(list(first.columns)).get("id")
    data = getattr(args, "data", None)
    return ReportOutputs(paths, mapping, list(jobs), source=first.label,
                         id_column=id_column, label_column=label_column,
                         input_path=None if data is None or str(data) == "-" else Path(data),
                         helper=True)


def feeding(stream: Iterable[tuple[Table, BatchResult]], reports: ReportOutputs | None
            ) -> Iterator[tuple[Table, BatchResult]]:
    """The scored pieces, each handed to the reports first; after the last, the reports told
    (the JUnit file is written meanwhile)."""
    for piece, result in stream:
        if reports is not None:
            reports.feed(piece, result)
        yield piece, result
    if reports is not None:
        reports.pieces_done()


def finish_reports(reports: ReportOutputs | None, tally: Tally, input_path: Path | None,
                   options: dict) -> None:
    if reports is None:
        return
    reports.finish(tally, input_path=input_path, options=options,
                   command=shlex.join(["matchlens", *sys.argv[1:]]))


def write_run_reports(args: argparse.Namespace, runs: RunsResult, run: Table,
                      references: Table | None, baseline: Table | None,
                      options: dict) -> None:
    """The reports of a run joined across files (`--references`, `--baseline`, `--id`):
    core.output.reports.outputs.write_joined_reports with the flags' paths and files."""
    paths = report_paths(args)
    if paths is None:
        return
    from matchlens.core.output.reports.outputs import write_joined_reports

    write_joined_reports(paths, runs, run, references, baseline, options=options,
                         command=shlex.join(["matchlens", *sys.argv[1:]]),
                         files={"run": _file(args.data), "references": _file(args.references),
                                "baseline": _file(args.baseline)})


def _file(path: object) -> Path | None:
    return None if path is None or str(path) == "-" else Path(str(path))
