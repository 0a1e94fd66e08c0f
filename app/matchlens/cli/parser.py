"""The headless front door: argument parsing for every form, and `matchlens score`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from matchlens import __version__
from matchlens.cli.exit_codes import EXIT_USAGE

_COMMANDS = ("compare", "batch", "score", "calibrate", "diff", "fields")
HEADLESS = ("score", "calibrate", "diff", "fields")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as the contract says
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


class FormatChoices:
    """`--format`'s choices, read from the reader registry only when argparse looks at them
    (help, or a `--format` given): importing every reader module costs each start of the
    program, the window's included, ~30 ms it mostly does not need."""

    @staticmethod
    def ids() -> tuple[str, ...]:
        from matchlens.core.datasets.formats import format_ids

        return format_ids()

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids())

    def __contains__(self, value: object) -> bool:
        return value in self.ids()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="matchlens", description="See why an LLM output missed its reference.")
    parser.add_argument("--version", action="version", version=f"matchlens {__version__}")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="save the window as PNG once its work is done, then exit")
    parser.add_argument("--screenshot-size", type=_size, metavar="WxH",
                        help="the window's size for --screenshot (default 1440x900; try "
                             "1280x720, the smallest screen MatchLens is made for)")
    parser.add_argument("--config", type=Path, metavar="FILE.toml", help="thresholds and options")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    compare = sub.add_parser("compare", help="open the app on two UTF-8 text files")
    compare.add_argument("expected_file", type=Path)
    compare.add_argument("actual_file", type=Path)
    compare.add_argument("--json", action="store_true", help="treat both files as JSON")
    _gui_common(compare)

    batch = sub.add_parser("batch", help="open the app on the batch tab with DATA scored")
    batch.add_argument("data", type=Path, help=_FORMATS_HELP)
    batch.add_argument("--expected", metavar="SPEC", help=f"the reference: {_SPEC}")
    batch.add_argument("--actual", metavar="SPEC", action="append",
                       help="an output column or JSONPath; repeat for prompt variants")
    batch.add_argument("--label", metavar="COLUMN", help="a human pass/fail column (calibration)")
    _reading_options(batch)  # every reading option `score` takes
    _runs_options(batch, gate=False)  # and its joins, each file read by its own options
    _gui_common(batch)

    score = sub.add_parser(
        "score", help="score headless and write a scored table",
        epilog="exit codes: 0 done; 1 the --fail-under gate failed; 2 bad usage or bad input "
               "(one line naming the file, line and column); 70 an internal error (one line "
               "naming a crash report; never read it as a failed gate); 130 interrupted; "
               "143 terminated")
    _input_arguments(score)
    score.add_argument("--expected-any", metavar="SPEC",
                       help="several references per row: a column or JSONPath holding a JSON "
                            "array of texts; each metric keeps the best and writes <metric>_ref")
    score.add_argument("--actual", metavar="SPEC", action="append",
                       help="the output under test; repeat to score several variants (default: "
                            "the columns a sidecar --config records, or promptfoo's outputs)")
    score.add_argument("--metrics", metavar="a,b,c",
                       help="metric ids; 'all' = every metric that needs no network (default: "
                            "exact_match,contains,levenshtein_distance,levenshtein_similarity,"
                            "jaccard, plus local metrics the config gives a threshold)")
    score.add_argument("--config", type=Path, metavar="FILE.toml", dest="score_config",
                       help="thresholds and options: the file the app saves, or a sidecar")
    score.add_argument("--normalise", metavar="STEPS",
                       help="the normalisation of every text metric of the run: a preset "
                            "(squad), a step, or a JSON array of steps; --set ID.normalise=... "
                            "overrides it for one metric")
    score.add_argument("--set", metavar="ID.OPTION=VALUE", action="append", default=[],
                       dest="overrides",
                       help="one override, repeatable (levenshtein_similarity.threshold=0.8)")
    score.add_argument("-o", "--output", type=Path, metavar="OUT",
                       help=".csv or .jsonl (default: CSV on standard output)")
    score.add_argument("--fail-under", type=_rate, metavar="RATE",
                       help="exit 1 when the share of rows passing every thresholded metric is "
                            "below RATE (0-1)")
    _reading_options(score)
    _runs_options(score)
    score.add_argument("--base-url", metavar="URL",
                       help="the OpenAI-compatible endpoint for semantic_similarity (your API "
                            "key goes only to an endpoint you name: here, OPENAI_BASE_URL or "
                            "Settings; one from a --config file gets no key but one stored "
                            "for it)")
    score.add_argument("--quiet", action="store_true", help="no summary on standard error")
    _report_arguments(score)
    _calibrate_parser(sub)

    diff = sub.add_parser("diff", help="the compare view in a terminal: a readable inline diff "
                                       "and the scores (--json for scripts)")
    diff.add_argument("expected_file", type=Path)
    diff.add_argument("actual_file", type=Path)
    diff.add_argument("--words", action="store_true",
                      help="whole-word pieces only (no character-level typos)")
    diff.add_argument("--json", action="store_true",
                      help="print distance, edits, chunks and scores as JSON")
    diff.add_argument("--metrics", metavar="a,b,c",
                      help="metric ids, as for score (default: the five text metrics)")
    diff.add_argument("--config", type=Path, metavar="FILE.toml", dest="score_config",
                      help="thresholds and options (the file the app saves)")
    diff.add_argument("--set", metavar="ID.OPTION=VALUE", action="append", default=[],
                      dest="overrides", help="one override, repeatable")
    _fields_parser(sub)
    return parser


def _fields_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    fields = sub.add_parser("fields", help="which JSON fields are wrong, and how often")
    _input_arguments(fields)
    fields.add_argument("--actual", metavar="SPEC", action="append",
                        help="the output under test (JSON); repeat for several variants")
    fields.add_argument("--json", action="store_true",
                        help='print {"rows", "invalid", "fields": [...]} as JSON')
    fields.add_argument("-o", "--output", type=Path, metavar="fields.csv", help="write CSV")
    fields.add_argument("--by-index", action="store_true",
                        help="keep array indices in paths ($.items[2].price), not [*]")
    fields.add_argument("--config", type=Path, metavar="FILE.toml", dest="score_config",
                        help="json_distance's options (array_match, tolerances, ignore_paths)")
    fields.add_argument("--set", metavar="ID.OPTION=VALUE", action="append", default=[],
                        dest="overrides",
                        help="one override, repeatable (json_distance.array_match=unordered)")
    fields.add_argument("--quiet", action="store_true", help="no header on standard error")
    _reading_options(fields)
    _runs_options(fields, gate=False)


def _calibrate_parser(sub) -> None:  # noqa: ANN001 - argparse's private subparsers type
    cal = sub.add_parser("calibrate", help="the best threshold per metric against human labels")
    _input_arguments(cal)
    cal.add_argument("--actual", metavar="SPEC", action="append", required=True,
                     help="the output the labels judge; repeat for several variants")
    cal.add_argument("--label", metavar="COLUMN",
                     help="a column of human verdicts (pass/fail, true/false, 1/0, yes/no)")
    cal.add_argument("--labels", type=Path, metavar="FILE",
                     help="the labels the window saved (DATA.labels.csv, or in your data folder "
                          "when DATA's folder is read-only: calibrate prints where); over "
                          "--label's column when both are given")
    cal.add_argument("--id", metavar="COLUMN",
                     help="the id column that matches --labels lines to rows (default: guessed, "
                          "as the window does; else row numbers)")
    cal.add_argument("--metric", metavar="ID", action="append",
                     help="a metric to calibrate, repeatable or a,b,c (default: every local "
                          "metric with a threshold)")
    cal.add_argument("--config", type=Path, metavar="FILE.toml", dest="score_config",
                     help="thresholds and options (the current verdicts; options used to score)")
    cal.add_argument("--set", metavar="ID.OPTION=VALUE", action="append", default=[],
                     dest="overrides", help="one override, repeatable")
    cal.add_argument("-o", "--output", type=Path, metavar="thresholds.toml",
                     help="write the suggested thresholds as a config `score --config` reads")
    _reading_options(cal)


_SPEC = "a column name, or a JSONPath starting with $ (cells holding JSON are parsed)"
_FORMATS_HELP = ".csv, .tsv, .jsonl, .json, .parquet, .xlsx, .xls or .ods"


def _input_arguments(parser: argparse.ArgumentParser) -> None:
    """The data and its reference, as `score` and `calibrate` both take them."""
    parser.add_argument("data", type=Path, help=f"{_FORMATS_HELP}, or - for standard input")
    parser.add_argument("--expected", metavar="SPEC", help=f"the reference: {_SPEC}")
    parser.add_argument("--expected-literal", metavar="TEXT",
                        help="one fixed reference text for every row")


def _runs_options(parser: argparse.ArgumentParser, *, gate: bool = True,
                  own_reading: bool = True) -> None:
    """Several files joined by id: references, a baseline run (spec/cli.md § Several files);
    `gate`: with `--fail-on-regression` (not for `fields`, which has no verdicts);
    `own_reading`: with each file's own --references-*/--baseline-* reading options."""
    parser.add_argument("--id", metavar="SPEC", dest="id_spec",
                        help="the row key (a column or JSONPath) matching rows across files; a "
                             "column also names the rows in the reports (default: guessed)")
    parser.add_argument("--references", type=Path, metavar="FILE",
                        help="the expected values come from FILE (--expected is read there), "
                             "matched by --id")
    parser.add_argument("--baseline", type=Path, metavar="BASE",
                        help="an earlier run to compare with: a table from score -o (its "
                             "sidecar), or any data file with --baseline-actual")
    parser.add_argument("--baseline-actual", metavar="SPEC",
                        help="the column or JSONPath of BASE's outputs")
    if gate:
        parser.add_argument("--fail-on-regression", type=int, nargs="?", const=0,
                            default=None, metavar="N",
                            help="exit 1 when more than N rows regressed (default 0)")
    if own_reading:
        for role, name in (("references", "FILE"), ("baseline", "BASE")):
            _file_reading_options(parser, role, name)


def _file_reading_options(parser: argparse.ArgumentParser, role: str, name: str) -> None:
    """--references-records/-sheet/-format/-encoding (and --baseline-...): how to read that
    file when it is not read like DATA (its format comes from its name; its encoding is
    --encoding's unless given)."""
    group = parser.add_argument_group(f"reading {name} (--{role})")
    group.add_argument(f"--{role}-records", metavar="JSONPATH",
                       help=f"where the rows are inside {name} when it is a .json file")
    group.add_argument(f"--{role}-sheet", metavar="NAME", help=f"the sheet of {name} to read")
    group.add_argument(f"--{role}-format", choices=FormatChoices(), metavar="FORMAT",
                       help=f"{name}'s format when its name does not say")
    group.add_argument(f"--{role}-encoding", metavar="NAME",
                       help=f"{name}'s encoding (default: --encoding's)")


def _reading_options(parser: argparse.ArgumentParser) -> None:
    """How to read the input file, as `score` and `calibrate` both take it."""
    parser.add_argument("--encoding", metavar="NAME",
                        help="the input's encoding when it is not UTF-8 (e.g. cp1252, latin-1)")
    parser.add_argument("--delimiter", metavar="CHAR",
                        help="the CSV delimiter (default: detected)")
    parser.add_argument("--records", metavar="JSONPATH",
                        help="where the rows are inside a .json file ($.results.results for "
                             "promptfoo's output; default: the only array of objects)")
    parser.add_argument("--sheet", metavar="NAME",
                        help="the sheet of a spreadsheet to read (default: the first)")
    # A metavar, so argparse lists the choices only in the help text (it would otherwise
    # read them while building the parser, importing every reader).
    parser.add_argument("--format", choices=FormatChoices(), metavar="FORMAT",
                        help="the input's format when its name does not say (standard input: "
                             "csv unless this says): %(choices)s")


def _report_arguments(score: argparse.ArgumentParser) -> None:
    """`score --html/--markdown/--junit`: reports written in the same pass (spec § Reports)."""
    score.add_argument("--html", type=Path, metavar="FILE.html",
                       help="a one-file HTML report (offline, no scripts needed)")
    score.add_argument("--markdown", type=Path, metavar="FILE.md",
                       help="a Markdown summary for a pull request (under 60,000 characters)")
    score.add_argument("--junit", type=Path, metavar="FILE.xml",
                       help="JUnit XML for CI: a testcase per row, a failure per failing row")
    score.add_argument("--worst", type=_count, default=50, metavar="N",
                       help="rows shown per thresholded metric in the reports (default 50)")
    score.add_argument("--label", metavar="COLUMN", dest="label_column",
                       help="a human pass/fail column: the reports add a calibration table")


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def _gui_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--screenshot", type=Path, metavar="PNG", dest="sub_screenshot")
    parser.add_argument("--screenshot-size", type=_size, metavar="WxH",
                        dest="sub_screenshot_size")
    parser.add_argument("--config", type=Path, metavar="FILE.toml", dest="sub_config")


def _size(text: str) -> tuple[int, int]:
    width, x, height = text.lower().partition("x")
    if not (x and width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise argparse.ArgumentTypeError(f"a size as WIDTHxHEIGHT in pixels (1280x720), not "
                                         f"{text!r}")
    return int(width), int(height)


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a rate between 0 and 1, not {text}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace | int:
    """Parsed arguments; or an exit code when argparse already answered (--help, errors)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") and argv[0] not in _COMMANDS:
        argv.insert(0, "batch")  # `matchlens data.csv` (what a file manager runs) opens it
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    # `--screenshot`/`--config` may come before or after the sub-command.
    args.screenshot = getattr(args, "sub_screenshot", None) or args.screenshot
    args.screenshot_size = getattr(args, "sub_screenshot_size", None) or args.screenshot_size
    if args.command not in HEADLESS:
        args.config = getattr(args, "sub_config", None) or args.config
    else:  # `matchlens --config c.toml score ...` must not drop the config silently
        args.score_config = args.score_config or args.config
    return args


def run_score(args: argparse.Namespace) -> int:
    from matchlens.cli.crash import run_guarded

    if args.references is not None or args.baseline is not None:
        from matchlens.cli.runs import runs_command

        return run_guarded(runs_command, args)
    from matchlens.cli.score import score_command

    return run_guarded(score_command, args)


def run_calibrate(args: argparse.Namespace) -> int:
    from matchlens.cli.calibrate import calibrate_command
    from matchlens.cli.crash import run_guarded
    from matchlens.cli.stdout_guard import printing_guarded

    return run_guarded(printing_guarded(calibrate_command), args)


def run_fields(args: argparse.Namespace) -> int:
    from matchlens.cli.crash import run_guarded
    from matchlens.cli.fields import fields_command
    from matchlens.cli.stdout_guard import printing_guarded

    return run_guarded(printing_guarded(fields_command), args)


def run_diff(args: argparse.Namespace) -> int:
    from matchlens.cli.crash import run_guarded
    from matchlens.cli.diff import diff_command
    from matchlens.cli.stdout_guard import printing_guarded

    return run_guarded(printing_guarded(diff_command), args)  # `matchlens diff a b | head`


# What each headless form imports before it reads a row (numpy, every metric, the readers).
_MODULES = {
    "score": ("matchlens.cli.score", "matchlens.embeddings.metric",
              "matchlens.core.datasets.readers"),
    "calibrate": ("matchlens.cli.calibrate", "matchlens.embeddings.metric",
                  "matchlens.core.datasets.readers"),
    "diff": ("matchlens.cli.diff", "matchlens.embeddings.metric"),
    "fields": ("matchlens.cli.fields", "matchlens.core.datasets.readers"),
}


def preload(command: str) -> None:
    """Import what `command` runs with the cyclic garbage collector off, then freeze what was
    loaded: the imports allocate enough to set off ~55 collections (~10 ms of a 10k-row
    `score`) that walk modules, classes and functions living as long as the process and free
    nothing; frozen, a big file's later collections skip them too. Only for this process's own
    command line (matchlens.main): frozen, a test runner's garbage would stay for good. An
    import that fails here fails again inside the command, which reports it (run_guarded)."""
    import gc
    import importlib

    enabled = gc.isenabled()
    gc.disable()
    try:
        for name in _MODULES.get(command, ()):
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001, S112 - see the docstring
                continue
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def run_headless(args: argparse.Namespace) -> int:
    """`score`, `calibrate`, `diff` or `fields`: the forms that never load Qt."""
    runner = {"diff": run_diff, "calibrate": run_calibrate,
              "fields": run_fields}.get(args.command, run_score)
    return runner(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Headless-only entry (`score`, `diff`); the full entry point is matchlens.main."""
    args = parse_args(argv)
    if isinstance(args, int):
        return args
    if args.command not in HEADLESS:
        print("matchlens: this entry point only runs `score`, `calibrate` and `diff`",
              file=sys.stderr)
        return EXIT_USAGE
    return run_headless(args)
