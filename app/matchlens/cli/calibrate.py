"""`matchlens calibrate`: the best threshold per metric against human labels, headless.

The labels come from a label column of the data (`--label`), from the window's labels sidecar
(`--labels`), or both (the sidecar's changes over the column, as in the window). The numbers
are `core.calibration_report`'s, the same the window's Calibration tab shows; `-o` writes the
suggested thresholds as a config file `matchlens score --config` reads.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from matchlens.cli.exit_codes import EXIT_OK
from matchlens.cli.score import build_config, reading_options
from matchlens.cli.thresholds_source import source_line
from matchlens.core.config import Config, save_config
from matchlens.core.datasets import guess_columns, parse_label, read_table, resolve_column
from matchlens.core.errors import ConfigError, OutputError
from matchlens.core.labels.calibration_report import (
    COLUMNS,
    MetricReport,
    calibrate_scores,
    row_cells,
    verdict_sentence,
)
from matchlens.core.labels.location import saved_labels
from matchlens.core.labels.sidecar import read_sidecar
from matchlens.core.labels.store import Labels
from matchlens.core.metrics.registry import all_metrics, get_metric
from matchlens.core.output.summary import plural
from matchlens.core.results import threshold_text
from matchlens.core.scoring.mapping import ColumnMapping, check_mapping
from matchlens.core.scoring.pipeline import score_table
from matchlens.core.scoring.plan import make_jobs
from matchlens.embeddings.preflight import load_network_metrics


def choose_metrics(args: argparse.Namespace, config: Config) -> list[str]:
    """--metric as given (repeatable, commas allowed); else every local metric that has a
    threshold (its default or the config's), as the contract says."""
    if args.metric:
        names = [n.strip() for item in args.metric for n in item.split(",") if n.strip()]
        for name in names:
            get_metric(name)  # a ConfigError listing the valid ids
        return list(dict.fromkeys(names))
    return [spec.id for spec in all_metrics()
            if not spec.network and config.settings(spec.id).threshold is not None]


def label_codes(args: argparse.Namespace, table, variants: list[str]) -> dict[str, np.ndarray]:
    """Per variant: 1 pass, 0 fail, -1 none — from the label column, then the sidecar's changes."""
    if not args.label and not args.labels:
        saved = window_labels(args)
        hint = f"; the window saved labels of it in {saved}: --labels {saved}" if saved else ""
        raise ConfigError("give --label COLUMN (a pass/fail column of the data) or --labels "
                          f"FILE (the labels the window saved){hint}")
    base = None
    if args.label:
        texts = resolve_column(table, args.label).values
        base = np.fromiter((-1 if (v := parse_label(t)) is None else int(v) for t in texts),
                           dtype=np.int8, count=len(texts))
        given = [t for t in texts if t is not None and t.strip()]
        if given and not (base >= 0).any():  # a column of something else: no numbers to give
            shown = ", ".join(repr(t) for t in list(dict.fromkeys(given))[:3])
            raise ConfigError(f"{table.label}: column {args.label!r} holds no pass/fail label "
                              f"(it holds {shown}…); labels are pass/fail, true/false, 1/0, "
                              "yes/no, good/bad or ✓/✗")
    id_column = args.id or guess_columns(table.columns)["id"]
    ids = resolve_column(table, id_column).values if id_column else None
    labels = Labels(len(table), variants, base, ids, path=None)  # never written here
    if args.labels:
        entries = read_sidecar(args.labels)
        labels.load(entries)
        if entries and not labels.changes():
            raise ConfigError(f"{args.labels}: none of its {len(entries):,} lines matches a row "
                              f"and an --actual column of {args.data} (its variants: "
                              f"{', '.join(sorted({e.variant or '(every)' for e in entries}))})")
    return {v: np.array(labels.codes(v)) for v in variants}


def window_labels(args: argparse.Namespace) -> Path | None:
    """The labels file the window saved for DATA (beside it, or in the user's data folder when
    its folder is read-only); None for standard input or when there is none."""
    return None if str(args.data) == "-" else saved_labels(args.data)


def calibrate_command(args: argparse.Namespace) -> int:
    load_network_metrics()
    if bool(args.expected) == (args.expected_literal is not None):
        raise ConfigError("give --expected SPEC (a column or $.json.path) or --expected-literal "
                          "TEXT, one of the two")
    args.thresholds_of_data = True  # without --config, the dataset's own (thresholds_source)
    config = build_config(args)
    metric_ids = choose_metrics(args, config)
    if not metric_ids:
        raise ConfigError("no metric to calibrate: name one with --metric ID")
    if args.output is not None and args.output.suffix.lower() != ".toml":
        raise ConfigError(f"-o {args.output}: the thresholds file is TOML (name it .toml)")
    table = read_table(args.data, **reading_options(args))
    literal = args.expected_literal is not None
    mapping = ColumnMapping(args.expected_literal if literal else args.expected,
                            tuple(args.actual), expected_literal=literal)
    check_mapping(table, mapping)  # an unknown column before the labels are read
    codes = label_codes(args, table, mapping.variants)
    unwritten = f"; {args.output} was not written" if args.output is not None else ""
    if not any((c >= 0).any() for c in codes.values()):  # before any scoring (or request)
        raise ConfigError(f"{table.label}: no row has a label ({labels_given(args)}), so there "
                          f"is nothing to calibrate{unwritten}")
    jobs = make_jobs(metric_ids, config)
    result, _ = score_table(table, mapping, jobs)
    reports: dict[str, list[MetricReport]] = {}
    for variant in result.variants:
        reports[variant] = [
            calibrate_scores(job.spec, result.scores[(variant, job.id)], codes[variant],
                             job.threshold)[0] for job in jobs]
    why = unscored_reasons(result.messages, codes)
    if why and all(r.data.n == 0 for rows in reports.values() for r in rows):
        (variant, metric), reason = next(iter(why.items()))  # a server down: say that, not
        raise ConfigError(f"{table.label}: no labelled row has a {metric} score: "  # "0 rows"
                          f"{reason.rstrip('.')}{unwritten}")
    said = source_line(args)
    if said:
        print(said)
    print(format_reports(reports, codes, source=table.label, why=why))
    for note in table.notes:  # renamed header cells, the sheet or array the rows came from
        print(f"  note: {note}")
    saved = window_labels(args) if not args.labels else None
    if saved is not None:  # found, but only counted when asked: the same command, the same numbers
        print(f"  note: the window saved labels of {args.data} in {saved}; add --labels "
              f"{saved} to count them")
    if args.output is not None:
        chosen, said = suggested_config(config, reports)
        try:
            save_config(chosen, args.output, metric_ids)
        except OSError as err:  # a full disk, a folder that is gone: a sentence, not exit 70
            raise OutputError(f"{args.output}: cannot write ({err.strerror or err})") from None
        print(f"Wrote {args.output}: {'; '.join(said)}. `matchlens score --config "
              f"{args.output}` reads it.", file=sys.stderr)
    return EXIT_OK


def suggested_config(config: Config, reports: dict[str, list[MetricReport]]
                     ) -> tuple[Config, list[str]]:
    """The config with each metric's suggested threshold, and a sentence per metric saying
    what was written. With several variants, the first variant's (a config file holds one
    threshold per metric). A metric that does no better than passing every row keeps its
    threshold: writing its "best" (often one that passes everything) would quietly turn the
    gate off."""
    said = []
    for r in next(iter(reports.values())):
        now = threshold_text(r.spec.direction, r.threshold)
        if r.best is not None and r.best.useful:
            config = config.with_threshold(r.spec.id, r.best.threshold)
            said.append(f"{r.spec.id} {threshold_text(r.spec.direction, r.best.threshold)}")
        else:
            said.append(f"{r.spec.id} kept at {now} (no useful threshold)")
    return config, said


def labels_given(args: argparse.Namespace) -> str:
    """Where the labels were looked for, as a person reads it."""
    words = "pass/fail, true/false, 1/0, yes/no, good/bad or ✓/✗"
    if args.labels:
        return f"none of {args.labels} matches a row"
    if args.label:
        return f"column {args.label!r} holds no {words}"
    return f"give --label COLUMN (a column of {words}) or --labels FILE"


def unscored_reasons(messages: dict[tuple[str, str], dict[int, str]],
                     codes: dict[str, np.ndarray]) -> dict[tuple[str, str], str]:
    """(variant, metric) -> why its first labelled row without a score has none."""
    why = {}
    for (variant, metric), by_row in messages.items():
        labelled = codes.get(variant)
        for row, sentence in sorted(by_row.items()):
            if labelled is not None and labelled[row] >= 0:
                why[(variant, metric)] = sentence
                break
    return why


def format_reports(reports: dict[str, list[MetricReport]], codes: dict[str, np.ndarray],
                   source: str, why: dict[tuple[str, str], str] | None = None) -> str:
    """A table per variant, then one sentence per metric; denominators stated, and why the
    labelled rows without a score have none."""
    out = []
    for variant, rows in reports.items():
        c = codes[variant]
        n, passed, failed = len(c), int((c == 1).sum()), int((c == 0).sum())
        head = f"{source}" + (f" [{variant}]" if len(reports) > 1 else "")
        out.append(f"{head}: {plural(n, 'row')}, {passed + failed:,} labelled ({passed:,} pass, "
                   f"{failed:,} fail), {n - passed - failed:,} without a label")
        cells = [row_cells(r) for r in rows]
        widths = {key: max(len(title), *(len(c[key]) for c in cells)) for key, title in COLUMNS}
        out.append(("  " + "  ".join(f"{title:<{widths[key]}}" for key, title in COLUMNS))
                   .rstrip())
        for c in cells:
            out.append(("  " + "  ".join(f"{c[key]:<{widths[key]}}" for key, _ in COLUMNS))
                       .rstrip())
        for r in rows:
            out.append(f"  {verdict_sentence(r)}")
            if r.data.no_score:
                have = "has" if r.data.no_score == 1 else "have"
                out.append(f"    ({plural(r.data.no_score, 'labelled row')} {have} no "
                           f"{r.spec.id} score and {'is' if have == 'has' else 'are'} left out)")
                reason = (why or {}).get((variant, r.spec.id))
                if reason:
                    out.append(f"    why: {reason}")
        warning = rows[0].data.warning() if rows else None
        if warning:
            out.append(f"  note: {warning}")
    return "\n".join(out)
