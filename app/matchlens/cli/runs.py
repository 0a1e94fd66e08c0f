"""`matchlens score` across files: `--references FILE`, `--baseline BASE` (with its sidecar or
`--baseline-actual`), joined by `--id`; the summary with what changed, and the
`--fail-on-regression [N]` gate. Every file is read piece by piece, keeping only its ids and
the values the join and the scoring need (the run's own rows are read a second time, in pieces,
to write them: the joined table begins with the run's rows in its order); standard input, which
can be read once only, is read whole. The references and the baseline are read by
core.scoring.run_scoring.read_run_files, each with its own reading options
(`--references-records`, `--baseline-sheet`...)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from matchlens.cli.crash import say
from matchlens.cli.exit_codes import EXIT_GATE, EXIT_OK
from matchlens.cli.reports import report_paths, write_run_reports
from matchlens.cli.score import build_config, mapping_from_args, reading_options
from matchlens.cli.stdout_guard import discard_stdout, stdout_as_utf8
from matchlens.core.atomic import together
from matchlens.core.config import config_to_dict
from matchlens.core.datasets import iter_tables, read_table
from matchlens.core.errors import ConfigError, OutputError
from matchlens.core.output.baseline_file import choose_baseline
from matchlens.core.output.runs_table import write_runs
from matchlens.core.output.scored_table import provenance, write_sidecar
from matchlens.core.output.summary import format_summary
from matchlens.core.scoring import plan
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.run_files import read_keyed
from matchlens.core.scoring.run_scoring import read_run_files, run_specs, score_runs
from matchlens.core.scoring.run_summary import format_changes
from matchlens.core.text.redact import scrub
from matchlens.embeddings.preflight import load_network_metrics, pin_endpoint


def runs_command(args: argparse.Namespace) -> int:
    """Join, score, write, summarise and gate (see the module)."""
    load_network_metrics()
    planned = plan.make_plan(build_config(args), args.metrics, pin=pin_endpoint)
    jobs, config = planned.jobs, planned.config
    choice = (choose_baseline(args.baseline, args.baseline_actual)
              if args.baseline is not None else None)
    base_actual = choice.actual if choice else None
    id_spec = args.id_spec or (choice.recorded_id if choice else None)
    if not id_spec:
        raise ConfigError("--references and --baseline match rows by a key: give --id SPEC "
                          "(the column or JSONPath holding each row's id)")
    if args.fail_on_regression is not None and args.baseline is None:
        raise ConfigError("--fail-on-regression needs --baseline (the run to compare with)")
    report_paths(args)  # a report path that is a folder: one sentence before the work
    options = reading_options(args)
    first = _first_piece(args.data, options)
    whole = read_table(args.data, **options) if first is None else None
    mapping = mapping_from_args(args, first or whole)
    run = whole if whole is not None else \
        read_keyed(args.data, id_spec, run_specs(mapping, args.references is not None),
                   reading=options)
    files = read_run_files(run, id_spec, mapping, references=args.references,
                           baseline=args.baseline, baseline_actual=base_actual,
                           answered_only=bool(choice and choice.joined),
                           references_reading=file_reading(args, "references"),
                           baseline_reading=file_reading(args, "baseline"))
    runs = score_runs(files, mapping, jobs)
    if args.output is None:
        stdout_as_utf8()
    try:
        pieces = whole if whole is not None else iter_tables(args.data, **options)
        _write(args, runs, pieces, id_spec, config, planned.metric_ids, mapping, jobs)
    except BrokenPipeError:  # the reader of standard output stopped early (`| head`)
        discard_stdout()
    except OSError as err:  # only standard output gets here: files raise OutputError
        discard_stdout()
        raise OutputError(f"standard output: cannot write the table "
                          f"({err.strerror or err})") from None
    write_run_reports(args, runs, files.run, files.references, files.baseline,
                      config_to_dict(config, planned.metric_ids))
    if not args.quiet:
        text = format_summary(runs.tally)
        if runs.changes:
            text += "\n" + format_changes(runs.changes, str(args.baseline))
        with contextlib.suppress(OSError, ValueError):
            print(scrub(text), file=sys.stderr)
    code = EXIT_OK
    if args.fail_under is not None:
        worst = min(runs.tally.overall_pass_rate(v) for v in runs.tally.variants)
        if worst < args.fail_under:
            say(f"matchlens: pass rate {worst:.1%} is below --fail-under {args.fail_under:.1%}")
            code = EXIT_GATE
    if args.fail_on_regression is not None and runs.regressed_rows > args.fail_on_regression:
        say(f"matchlens: {runs.regressed_rows:,} rows regressed, more than "
            f"--fail-on-regression {args.fail_on_regression}")
        code = EXIT_GATE
    return code


def _first_piece(data, options: dict):  # noqa: ANN001 - a path or "-"
    """The first rows of a regular file (its columns, the outputs its format names), whose
    rows are then read twice, narrow to join and score, in pieces to write; None for
    standard input or a pipe, which can be read once only: that run is read whole."""
    if str(data) == "-" or not os.path.isfile(data):
        return None
    with contextlib.closing(iter_tables(data, chunk_rows=1_000, **options)) as pieces:
        return next(pieces, None)


def file_reading(args: argparse.Namespace, role: str) -> dict:
    """How to read the references or the baseline file: its own --<role>-records, -sheet and
    -format (never DATA's: another file has its own layout; its format comes from its name),
    its own --<role>-encoding, else --encoding."""
    own = {option: getattr(args, f"{role}_{option}", None)
           for option in ("records", "sheet", "format", "encoding")}
    own["encoding"] = own["encoding"] or args.encoding
    return own


def _write(args, runs, run, id_spec, config, metric_ids, mapping, jobs) -> None:
    """The joined table and, for a file, its sidecar (renamed into place together)."""
    with together():
        write_runs(args.output, runs, run, id_spec,
                   write=None if args.output is not None else sys.stdout.write)
        if args.output is not None:
            made = BatchResult.empty(0, mapping.variants, jobs)
            data = provenance(made, config_to_dict(config, metric_ids),
                              source=args.data, expected=mapping.recorded,
                              model=config.model or None)
            data["matchlens"]["id"] = id_spec
            if args.references is not None:
                data["matchlens"]["references"] = str(args.references)
            if args.baseline is not None:
                data["matchlens"]["baseline"] = str(args.baseline)
            write_sidecar(args.output, data)
    if args.output is None:
        sys.stdout.flush()  # a pipe closed early fails here, not in the exit-time flush
