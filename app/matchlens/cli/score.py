"""`matchlens score`: read, score and write in pieces (streaming), summarise, gate — the same
core (`matchlens.core.scoring.pipeline`) the window and the Python API drive."""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import replace
from itertools import chain
from pathlib import Path

from matchlens.cli.crash import say
from matchlens.cli.stdout_guard import discard_stdout, stdout_as_utf8
from matchlens.core.atomic import together
from matchlens.core.config import Config, config_to_dict, load_config
from matchlens.core.datasets import iter_tables
from matchlens.core.errors import ConfigError, DatasetError, OutputError
from matchlens.core.metrics.registry import (
    DEFAULT_METRICS,
    all_metrics,
    get_metric,
    local_metric_ids,
)
from matchlens.core.output.scored_table import provenance, sidecar_path, write_sidecar
from matchlens.core.output.scored_writer import scored_writer
from matchlens.core.output.summary import format_summary
from matchlens.core.scoring.batch import BatchResult, MetricJob
from matchlens.core.scoring.pipeline import Mapping, score_stream
from matchlens.core.scoring.tally import Tally
from matchlens.core.text.redact import scrub

EXIT_OK, EXIT_GATE, EXIT_USAGE = 0, 1, 2


def load_network_metrics() -> None:
    """Register the embeddings metric when its package is importable (it imports openai lazily)."""
    with contextlib.suppress(ImportError):
        import matchlens.embeddings.metric  # noqa: F401


def build_config(args: argparse.Namespace) -> Config:
    config = load_config(args.score_config) if args.score_config else Config()
    if getattr(args, "normalise", None) is not None:  # every text metric; --set may refine one
        config = config.with_normalisation(args.normalise)
    for assignment in args.overrides:
        config = config.with_override(assignment)
    if getattr(args, "base_url", None):  # named on the command line: the key may go there
        config = config.with_endpoint(args.base_url)
    return config


def choose_metrics(args: argparse.Namespace, config: Config) -> list[str]:
    """--metrics as given (`all` = every local metric, combinable with more ids); else the
    metrics a scored table's sidecar names; else the five text metrics plus any local metric
    the config gates."""
    if args.metrics:
        names = [n.strip() for n in args.metrics.split(",") if n.strip()]
        if not names:
            raise ConfigError("--metrics is empty; give metric ids separated by commas")
        expanded: list[str] = []
        for name in names:
            if name == "all":
                expanded.extend(local_metric_ids())
            else:
                get_metric(name)  # raises a ConfigError listing the valid ids
                expanded.append(name)
        return list(dict.fromkeys(expanded))
    if config.metrics:
        return list(config.metrics)
    chosen = list(DEFAULT_METRICS)
    for spec in all_metrics():
        gated = spec.id in config.thresholds and config.thresholds[spec.id] is not None
        if gated and not spec.network and spec.id not in chosen:
            chosen.append(spec.id)
    return chosen


def make_jobs(metric_ids: list[str], config: Config) -> list[MetricJob]:
    jobs = []
    for metric_id in metric_ids:
        settings = config.settings(metric_id)
        jobs.append(MetricJob(get_metric(metric_id), settings.threshold, settings.options))
    return jobs


def _check_overrides_metrics(config: Config) -> None:
    for metric_id in [*config.thresholds, *config.options]:
        get_metric(metric_id)


# Rows read, scored and written at a time. While a forked worker scores one piece, the previous
# and the next are in memory too (core.pipeline): 50,000 keeps the peak of both processes where
# 100,000 pieces read one after the other had it (~330 MB PSS at 1M rows, bench_streaming.py).
CHUNK_ROWS = 50_000


def score_command(args: argparse.Namespace) -> int:
    """Read, score and write `args.data` piece by piece (`iter_tables` → `score_stream` →
    `scored_writer`): memory does not grow with the rows; the summary (a `Tally`) stays
    exact."""
    load_network_metrics()
    config = build_config(args)
    _check_overrides_metrics(config)
    metric_ids = choose_metrics(args, config)
    jobs = make_jobs(metric_ids, config)
    config = _check_network(jobs, config)
    if args.fail_under is not None and all(job.threshold is None for job in jobs):
        raise ConfigError("--fail-under needs at least one metric with a threshold "
                          "(set one with --set ID.threshold=VALUE or --config)")
    if args.output is not None and sidecar_path(args.output).is_dir():
        # checked first: failing on it after the table is written would leave out.csv behind
        raise OutputError(f"{sidecar_path(args.output)}: is a folder, not a file to write "
                          f"(the settings of {args.output} go there)")
    pieces = iter_tables(args.data, chunk_rows=CHUNK_ROWS, encoding=args.encoding,
                         delimiter=_delimiter(args.delimiter), records=args.records,
                         sheet=args.sheet, format=args.format)
    first = next(pieces)
    mapping = _mapping(args, first)
    tally = Tally(first.label, list(dict.fromkeys(mapping.actuals)), jobs, unit=first.unit)
    if args.output is None:
        stdout_as_utf8()
    stream = score_stream(chain([first], pieces), mapping, jobs, tally)
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
                expected = mapping.expected or (
                    f"any:{mapping.expected_any}" if mapping.expected_any
                    else f"literal:{mapping.expected_literal}")
                data = provenance(made, config_to_dict(config, metric_ids), source=args.data,
                                  expected=expected, model=config.model or None)
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
    replaced = getattr(sink, "replaced", 0)
    if replaced and not args.quiet:
        say(f"matchlens: {replaced} lone UTF-16 surrogate(s) in the text (JSON escapes "
            "such as \\ud800 without their pair) cannot be written as UTF-8; the CSV has "
            "U+FFFD in their place (a .jsonl output keeps them exactly)")
    if not args.quiet:
        with contextlib.suppress(OSError, ValueError):  # stderr closed or full: not an error
            print(scrub(format_summary(tally)), file=sys.stderr)
    return _gate(tally, args.fail_under)


def _input_path(data) -> Path | None:
    return None if str(data) == "-" else Path(data)


def _mapping(args: argparse.Namespace, first) -> Mapping:
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
    return Mapping(expected, actuals, literal, several)


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


def _check_network(jobs: list[MetricJob], config: Config) -> Config:
    """Fail early (exit 2) on a bad endpoint URL, and pin the endpoint and model a network
    metric will use into the config, so the sidecar records what made the scores."""
    network = [job for job in jobs if job.spec.network]
    if not network:
        return config
    from matchlens.embeddings.embed import file_endpoint_refusal
    from matchlens.embeddings.endpoint import resolve_endpoint

    endpoint = resolve_endpoint(network[0].options)  # ConfigError: a sentence, exit 2
    refusal = file_endpoint_refusal(endpoint)
    if refusal:
        raise ConfigError(f"semantic_similarity: {refusal}")
    # Recorded without user:password@ or a query (where credentials hide).
    return replace(config, base_url=endpoint.stored_url, model=endpoint.model)


def _delimiter(text: str | None) -> str | None:
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
