"""`matchlens fields`: which JSON fields are wrong, and how often, across a dataset.

Reads DATA as `score` does (the same reading options, streamed piece by piece), compares each
row's reference and output with json_distance's walk and options (`--config`, `--set
json_distance.array_match=unordered`), and writes one row per leaf path, worst accuracy first:
CSV on standard output or to `-o`, or `--json` `{"rows", "invalid", "fields": [...]}`. The header
on standard error says how many rows were compared and why the others were not. With
`--references` / `--baseline` the files are joined by `--id` as `score` joins them, and the
baseline's block (variant `baseline`) follows this run's.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from itertools import chain
from typing import Any

from matchlens.cli.runs import file_reading
from matchlens.cli.score import build_config, reading_options
from matchlens.cli.stdout_guard import stdout_as_utf8
from matchlens.core.atomic import atomic_writer
from matchlens.core.datasets import iter_tables, read_table
from matchlens.core.datasets.columns import check_columns
from matchlens.core.diff.json_fields import COLUMNS, FieldTally, field_rows
from matchlens.core.errors import ConfigError
from matchlens.core.output.baseline_file import answered_only, choose_baseline
from matchlens.core.output.csv_text import formula_safe
from matchlens.core.scoring.fields import count_fields
from matchlens.core.scoring.fields_runs import count_joined_fields
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.run_scoring import RunFiles
from matchlens.core.text.redact import scrub

CHUNK_ROWS = 50_000


def fields_command(args: argparse.Namespace) -> int:
    config = build_config(args)
    options = config.settings("json_distance").options
    mapping = fields_mapping(args.expected, getattr(args, "expected_literal", None),
                             args.actual)
    if getattr(args, "references", None) is not None or getattr(args, "baseline", None) \
            is not None:
        tally = joined_tally(args, mapping, options)
    else:
        pieces = iter_tables(args.data, chunk_rows=CHUNK_ROWS, **reading_options(args))
        first = next(pieces)
        # every column named that is not there, in one sentence (not only the first looked up)
        check_columns(first, [None if mapping.expected_literal else mapping.expected,
                              *mapping.variants])
        tally = count_fields(chain([first], pieces), mapping, options, by_index=args.by_index)
    rows = field_rows(tally)
    several = len(tally.variants) > 1
    if args.output is not None:
        with atomic_writer(args.output, newline="") as handle:
            write_csv(handle, rows, several)
    if args.json:
        stdout_as_utf8()
        json.dump(json_document(tally, rows, several), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.output is None:
        stdout_as_utf8()
        write_csv(sys.stdout, rows, several)
    if not args.quiet:
        print(scrub(header(tally)), file=sys.stderr)
    return 0


def joined_tally(args: argparse.Namespace, mapping: ColumnMapping, options: dict
                 ) -> FieldTally:
    """`--references` / `--baseline`: the files read whole and joined by `--id` as `score`
    joins them (core.scoring.fields_runs), the baseline a variant of its own."""
    choice = (choose_baseline(args.baseline, args.baseline_actual)
              if args.baseline is not None else None)
    id_spec = args.id_spec or (choice.recorded_id if choice else None)
    if not id_spec:
        raise ConfigError("--references and --baseline match rows by a key: give --id SPEC "
                          "(the column or JSONPath holding each row's id)")
    run = read_table(args.data, **reading_options(args))
    # each other file as `score` reads it: its own --references-*/--baseline-* options, its
    # format from its name, --encoding unless it has its own
    refs = (read_table(args.references, **file_reading(args, "references"))
            if args.references is not None else None)
    base = (read_table(args.baseline, **file_reading(args, "baseline"))
            if args.baseline is not None else None)
    if base is not None and choice is not None and choice.joined:
        base = answered_only(base, choice.actual)
    files = RunFiles(run, id_spec, refs, base, choice.actual if choice else None)
    tally, _joined = count_joined_fields(files, mapping, options, by_index=args.by_index)
    return tally


def fields_mapping(expected: str | None, literal: str | None, actuals: list[str] | None
                   ) -> ColumnMapping:
    if expected is not None and literal is not None:
        raise ConfigError("give --expected or --expected-literal, not both")
    if expected is None and literal is None:
        raise ConfigError("missing --expected SPEC (a column or $.json.path) or "
                          "--expected-literal")
    if not actuals:
        raise ConfigError("missing --actual SPEC (the output column or $.json.path)")
    if literal is not None:
        return ColumnMapping(literal, tuple(actuals), expected_literal=True)
    return ColumnMapping(expected, tuple(actuals))


def write_csv(handle: Any, rows: list[dict], several: bool) -> None:
    columns = (("variant",) if several else ()) + COLUMNS
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[c]) for c in columns])


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value else "0"
    return formula_safe(str(value))


def json_document(tally: FieldTally, rows: list[dict], several: bool) -> dict[str, Any]:
    """`{"rows", "invalid", "fields"}` (cli.md), with the reasons and, for several variants,
    each variant's counts."""
    summary = tally.summary()
    fields = [row if several else {k: v for k, v in row.items() if k != "variant"}
              for row in rows]
    doc: dict[str, Any] = {"rows": summary["rows"], "invalid": summary["invalid"],
                           "fields": fields}
    if several:
        doc["variants"] = summary["variants"]
    else:
        doc["reasons"] = summary["variants"][0]["reasons"]
    if summary["notes"]:
        doc["notes"] = summary["notes"]
    return doc


def header(tally: FieldTally) -> str:
    """"200 rows: 185 compared, 15 invalid (12 where the output is not JSON: …; 3 where the
    reference is missing)",
    once per variant when there are several."""
    lines = []
    for variant in tally.summary()["variants"]:
        name = f"{variant['variant']}: " if len(tally.variants) > 1 else ""
        line = f"{name}{tally.rows:,} rows: {variant['compared']:,} compared"
        if variant["invalid"]:
            why = "; ".join(f"{r['rows']:,} where {r['reason']}"
                            for r in variant["reasons"][:5])
            more = len(variant["reasons"]) - 5
            why += f"; {more} other reasons" if more > 0 else ""
            line += f", {variant['invalid']:,} invalid ({why})"
        lines.append(line)
    for note in tally.summary()["notes"][:3]:
        lines.append(f"{note['rows']:,} rows: {note['note']}")
    return "\n".join(lines)


def csv_text(rows: list[dict], several: bool) -> str:
    """The CSV `fields` writes, as one text (tests, reports)."""
    buffer = io.StringIO()
    write_csv(buffer, rows, several)
    return buffer.getvalue()
