"""`matchlens score`: read, score and write in pieces (streaming), summarise, gate — the same
core (`matchlens.core.scoring.pipeline`) the window and the Python API drive."""

from __future__ import annotations

import argparse
import contextlib
import sys
from itertools import chain
from pathlib import Path

from matchlens.cli.crash import say
from matchlens.cli.exit_codes import EXIT_GATE, EXIT_OK
from matchlens.cli.reports import check_flag_column, feeding, finish_reports, start_reports
from matchlens.cli.stdout_guard import discard_stdout, stdout_as_utf8
from matchlens.cli.thresholds_source import config_path, source_line
from matchlens.core.atomic import together
from matchlens.core.config import Config, config_to_dict, load_config
from matchlens.core.datasets import iter_tables
from matchlens.core.errors import ConfigError, DatasetError, OutputError
from matchlens.core.output.scored_table import provenance, sidecar_path, write_sidecar
from matchlens.core.output.scored_writer import scored_writer
from matchlens.core.output.summary import format_summary
from matchlens.core.scoring import plan
from matchlens.core.scoring.batch import BatchResult
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.pipeline import score_stream
from matchlens.core.scoring.tally import Tally
from matchlens.core.text.redact import scrub
from matchlens.embeddings.preflight import load_network_metrics, pin_endpoint


def build_config(args: argparse.Namespace) -> Config:
    """The config the flags shape (`score`, `calibrate`, `diff`): the --config file, then
    --normalise, each --set, and --base-url (core.scoring.plan.shape_config)."""
    path = config_path(args)  # --config, else the thresholds saved for the dataset
    config = load_config(path) if path else Config()
    return plan.shape_config(config, normalise=getattr(args, "normalise", None),
                             overrides=args.overrides, base_url=getattr(args, "base_url", None))


def choose_metrics(args: argparse.Namespace, config: Config) -> list[str]:
    """The metrics --metrics names, else the default ones, for `score` and `diff`
    (core.scoring.plan.choose_metrics)."""
    return plan.choose_metrics(args.metrics, config)


def reading_options(args: argparse.Namespace) -> dict:
    """How to read the input, from the flags `score` and `calibrate` share."""
    return {"encoding": args.encoding, "delimiter": parse_delimiter(args.delimiter),
            "records": args.records, "sheet": args.sheet, "format": args.format}


# Rows read, scored and written at a time. While a forked worker scores one piece, the previous
# and the next are in memory too (core.pipeline): 50,000 keeps the peak of both processes where
# 100,000 pieces read one after the other had it (~330 MB PSS at 1M rows, bench_streaming.py).
CHUNK_ROWS = 50_000


def score_command(args: argparse.Namespace) -> int:
    """Read, score and write `args.data` piece by piece (`iter_tables` → `score_stream` →
    `scored_writer`): memory does not grow with the rows; the summary (a `Tally`) stays
    exact."""
    load_network_metrics()
    args.thresholds_of_data = True  # without --config, the dataset's own (thresholds_source)
    planned = plan.make_plan(build_config(args), args.metrics, pin=pin_endpoint)
    jobs, config, metric_ids = planned.jobs, planned.config, planned.metric_ids
    if args.fail_under is not None and all(job.threshold is None for job in jobs):
        raise ConfigError("--fail-under needs at least one metric with a threshold "
                          "(set one with --set ID.threshold=VALUE or --config)")
    if args.output is not None and sidecar_path(args.output).is_dir():
        # checked first: failing on it after the table is written would leave out.csv behind
        raise OutputError(f"{sidecar_path(args.output)}: is a folder, not a file to write "
                          f"(the settings of {args.output} go there)")
    pieces = iter_tables(args.data, chunk_rows=CHUNK_ROWS, **reading_options(args))
    first = next(pieces)
    mapping = mapping_from_args(args, first)
    id_spec = getattr(args, "id_spec", None)
    if id_spec and not id_spec.startswith("$"):  # recorded for a later --baseline: it must be
        check_flag_column(first, "--id", id_spec)
    tally = Tally(first.label, mapping.variants, jobs, unit=first.unit)
    if args.output is None:
        stdout_as_utf8()
    reports = start_reports(args, first, mapping, jobs)
    try:  # the reports' spools and helper process go however the run ends
        stream = feeding(score_stream(chain([first], pieces), mapping, jobs, tally), reports)
        sink = None
        try:
            # The table and its sidecar are renamed into place together, or neither (atomic.py).
            with together():
                with scored_writer(args.output, _input_path(args.data)) as sink:
                    for piece, result in stream:
                        sink.write(piece, result)
                        # let go before the next piece is read (score_stream reads it meanwhile)
                        del piece, result
                if args.output is not None:
                    made = BatchResult.empty(0, tally.variants, jobs)
                    data = provenance(made, config_to_dict(config, metric_ids), source=args.data,
                                      expected=mapping.recorded, model=config.model or None)
                    if getattr(args, "id_spec", None):  # a later --baseline joins on it
                        data["matchlens"]["id"] = args.id_spec
                    write_sidecar(args.output, data)
            if args.output is None:
                sys.stdout.flush()  # a pipe closed early fails here, not in the exit-time flush
        except BrokenPipeError:  # the reader of standard output stopped early (`| head`)
            discard_stdout()
            for _ in stream:  # the summary and the gate still count every row
                pass
        except OSError as err:  # only standard output gets here: files raise OutputError
            discard_stdout()  # the exit-time flush would fail the same way
            raise OutputError(f"standard output: cannot write the table "
                              f"({err.strerror or err})") from None
        finish_reports(reports, tally, _input_path(args.data), config_to_dict(config, metric_ids))
    finally:
        if reports is not None:
            reports.close()
    replaced = getattr(sink, "replaced", 0)
    if replaced and not args.quiet:
        say(f"matchlens: {replaced} lone UTF-16 surrogate(s) in the text (JSON escapes "
            "such as \\ud800 without their pair) cannot be written as UTF-8; the CSV has "
            "U+FFFD in their place (a .jsonl output keeps them exactly)")
    if not args.quiet:
        with contextlib.suppress(OSError, ValueError):  # stderr closed or full: not an error
            said = source_line(args)
            print(scrub(f"{said}\n" if said else "") + scrub(format_summary(tally)),
                  file=sys.stderr)
    return _gate(tally, args.fail_under)


def _input_path(data) -> Path | None:
    return None if str(data) == "-" else Path(data)


def mapping_from_args(args: argparse.Namespace, first) -> ColumnMapping:
    """The columns to compare: the command line's; where it omits them, a sidecar given as
    --config (it records the columns that made the table); else the output columns the
    format names (promptfoo's prompts/providers)."""
    expected, literal, actuals = args.expected, args.expected_literal, list(args.actual or [])
    several = getattr(args, "expected_any", None)
    given = [flag for flag, value in (("--expected", expected), ("--expected-literal", literal),
                                      ("--expected-any", several)) if value is not None]
    if len(given) > 1:
        raise ConfigError(f"give {' or '.join(given)}, not both" if len(given) == 2 else
                          f"give one of {', '.join(given)}, not all three")
    recorded = sidecar_columns(args.score_config) if args.score_config else None
    if not given and recorded is not None:
        expected, literal, several = recorded[0]
    if not actuals and recorded is not None:
        actuals = recorded[1]
    if not actuals and first.variants:
        actuals = list(first.variants)
    if not expected and literal is None and several is None:
        raise ConfigError("missing --expected SPEC (a column or $.json.path), --expected-literal "
                          "or --expected-any")
    if not actuals:
        raise ConfigError("missing --actual SPEC (the output column or $.json.path to score)")
    if literal is not None:
        return ColumnMapping(literal, tuple(actuals), expected_literal=True)
    if several is not None:
        return ColumnMapping(several, tuple(actuals), expected_any=True)
    return ColumnMapping(expected, tuple(actuals))


def sidecar_columns(path: Path
                    ) -> tuple[tuple[str | None, str | None, str | None], list[str]] | None:
    """((expected, expected literal, expected-any), actuals) a scored table's sidecar records,
    or None for a thresholds file (which records no columns). load_config has already vetted
    the file."""
    import tomllib  # only with --config: a plain run parses no TOML

    try:
        with open(path, "rb") as handle:
            table = tomllib.load(handle).get("matchlens")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    if not isinstance(table, dict):
        return None
    expected = table.get("expected")
    actual = table.get("actual")
    if not isinstance(expected, str) or not isinstance(actual, list) or \
            not all(isinstance(a, str) for a in actual):
        return None
    if expected.startswith("literal:"):
        return (None, expected.removeprefix("literal:"), None), actual
    if expected.startswith("any:"):  # several references a row (--expected-any)
        return (None, None, expected.removeprefix("any:")), actual
    return (expected, None, None), actual


def parse_delimiter(text: str | None) -> str | None:
    """--delimiter: one character, or `\\t` / `tab` for a tab."""
    if text is None:
        return None
    value = {"\\t": "\t", "tab": "\t"}.get(text, text)
    if len(value) != 1:
        raise ConfigError(f"--delimiter must be one character, not {text!r}")
    return value


def _gate(tally: Tally, fail_under: float | None) -> int:
    if fail_under is None:
        return EXIT_OK
    worst = min(tally.overall_pass_rate(v) for v in tally.variants)
    if worst < fail_under:
        say(f"matchlens: pass rate {worst:.1%} is below --fail-under {fail_under:.1%}")
        return EXIT_GATE
    return EXIT_OK


__all__ = ["score_command", "DatasetError", "Path"]
