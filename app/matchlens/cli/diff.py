"""`matchlens diff`: the compare view in a terminal — one readable inline diff, then the scores.

The pair is compared by `core.diff.pair.compare_pair` (as in the window and `matchlens.compare`);
this module only renders it. On a terminal deletions are red and struck through, insertions green
(the compare view's colours); `NO_COLOR` (any non-empty value, see no-color.org) or a pipe gives
plain text with wdiff's markers, `[-deleted-]{+inserted+}`, which survive a CI log and `grep`.
Moved text (`core.diff.moves`) is marked at both places with its number, in cyan on a terminal:
`[~1~moved from here~]` where it was in the expected text, `{~1~moved to here~}` in the actual.
`--json` prints the exact `distance` and `edits` and the readable `chunks` (`core.diff.readable`)
with the scores; json_distance's entry lists every differing path (`fields`), and the text form
lists them under its line (up to 50, then a count).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import TextIO

from matchlens.cli import diff_large
from matchlens.cli.score import build_config, choose_metrics, load_network_metrics
from matchlens.cli.stdout_guard import stdout_as_utf8
from matchlens.core.diff.pair import compare_pair, metric_outcome, score_entry
from matchlens.core.diff.readable.chunks import ReadableDiff
from matchlens.core.metrics.json_walk import JsonDiff
from matchlens.core.metrics.registry import get_metric
from matchlens.core.results import Label, MetricResult, judge
from matchlens.core.text.textfile import read_text_file

_RED_STRUCK, _RED, _GREEN, _DIM = "\x1b[31;9m", "\x1b[31m", "\x1b[32m", "\x1b[2m"
_RESET = "\x1b[0m"
_CYAN_STRUCK, _CYAN = "\x1b[36;9m", "\x1b[36m"
_PLAIN_MARKS = ("[-", "-]", "{+", "+}")


def use_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set to anything."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def inline_diff(diff: ReadableDiff, colour: bool) -> str:
    """Both texts as one: equal text once, deleted then inserted text marked."""
    return "".join(_pieces(diff, colour))


def _pieces(diff: ReadableDiff, colour: bool) -> Iterator[str]:
    e, a = diff.expected, diff.actual
    # A moved piece is one whole chunk on each side (`core.diff.moves`): found by its start.
    moved_from = {m.exp_start: n for n, m in enumerate(diff.moves, 1)}
    moved_to = {m.act_start: n for n, m in enumerate(diff.moves, 1)}
    for chunk in diff.chunks:
        deleted = e[chunk.exp_start:chunk.exp_end]
        inserted = a[chunk.act_start:chunk.act_end]
        if chunk.op == "equal":
            yield deleted
            continue
        if deleted and chunk.op == "delete" and chunk.exp_start in moved_from:
            n = moved_from[chunk.exp_start]
            yield _mark(deleted, colour, _CYAN_STRUCK, (f"[~{n}~", "~]"))
        elif deleted:
            yield _mark(deleted, colour, _RED_STRUCK, _PLAIN_MARKS[:2])
        if inserted and chunk.op == "insert" and chunk.act_start in moved_to:
            n = moved_to[chunk.act_start]
            yield _mark(inserted, colour, _CYAN, (f"{{~{n}~", "~}"))
        elif inserted:
            yield _mark(inserted, colour, _GREEN, _PLAIN_MARKS[2:])


def _mark(text: str, colour: bool, style: str, plain: tuple[str, str]) -> str:
    if not colour:
        return f"{plain[0]}{text}{plain[1]}"
    # Re-open the style after each line break: terminals and CI logs reset it per line.
    return "\n".join(f"{style}{line}{_RESET}" if line else "" for line in text.split("\n"))


def score_lines(results: dict[str, MetricResult], colour: bool) -> list[str]:
    lines = []
    width = max((len(m) for m in results), default=0) + 2
    for metric_id, result in results.items():
        spec = get_metric(metric_id)
        if result.score is None:
            score = "–"
        elif spec.integer:
            score = f"{result.score:.0f}"
        else:
            score = f"{result.score:.2f}"
        label = f"{result.label!s:<6}"
        if colour and result.label in (Label.PASS, Label.FAIL):
            label = f"{_GREEN if result.label is Label.PASS else _RED}{label}{_RESET}"
        explanation = f"{_DIM}{result.explanation}{_RESET}" if colour else result.explanation
        lines.append(f"{metric_id:<{width}}{score:>8}  {label}  {explanation}")
        lines.extend(path_lines(result, width, colour))
    return lines


# The text form lists this many differing paths under a metric's line, then a count.
SHOWN_PATHS = 50


def path_lines(result: MetricResult, indent: int, colour: bool) -> list[str]:
    """json_distance's differing paths, one a line under its score line (all of them up to
    SHOWN_PATHS, then how many more)."""
    paths = [d for d in result.details if isinstance(d, JsonDiff)]
    pad = " " * indent
    lines = [f"{pad}{_DIM if colour else ''}{d.kind:<8} {d}{_RESET if colour else ''}"
             for d in paths[:SHOWN_PATHS]]
    if len(paths) > SHOWN_PATHS:
        lines.append(f"{pad}… and {len(paths) - SHOWN_PATHS} more differing paths "
                     "(--json lists every one)")
    return lines


def diff_command(args: argparse.Namespace) -> int:
    load_network_metrics()
    config = build_config(args)
    metric_ids = choose_metrics(args, config)
    expected = read_text_file(args.expected_file)
    actual = read_text_file(args.actual_file)
    if diff_large.too_long(expected, actual):  # the exact script is out of reach: lines
        return _diff_large(expected, actual, config, metric_ids, args.json)
    # One pair, then exit: the Python steps cost less than loading the compiled kernel would.
    compared = compare_pair(expected, actual, config, metric_ids, words=args.words,
                            compiled=False)
    diff, results = compared.diff, compared.results
    stdout_as_utf8()
    out = sys.stdout
    if args.json:
        data = diff.as_dict()
        data["scores"] = {m: score_entry(m, r) for m, r in results.items()}
        json.dump(data, out, ensure_ascii=False)
        out.write("\n")
        return 0
    colour = use_colour(out)
    text = inline_diff(diff, colour)
    out.write(text if text.endswith("\n") or not text else text + "\n")
    out.write("\n" + "\n".join(score_lines(results, colour)) + "\n")
    return 0


def _diff_large(expected: str, actual: str, config, metric_ids, as_json: bool) -> int:
    scores: dict[str, tuple | None] = {}
    for metric_id in metric_ids:
        if metric_id not in diff_large.LINEAR_METRICS:
            scores[metric_id] = None
            continue
        settings = config.settings(metric_id)
        result = judge(metric_outcome(metric_id, expected, actual, settings.options),
                       get_metric(metric_id).direction, settings.threshold)
        scores[metric_id] = (result.score, str(result.label))
    stdout_as_utf8()
    diff_large.write_large(sys.stdout, expected, actual, scores, as_json)
    return 0
