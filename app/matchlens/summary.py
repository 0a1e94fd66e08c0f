"""The plain-text summary `matchlens score` prints: means never hide errored or missing rows."""

from __future__ import annotations

from collections.abc import Sequence

from matchlens.core.batch import BatchResult


def overall_pass_rate(result: BatchResult, variant: str) -> float:
    """Share of all rows passing every thresholded metric (rows with no score do not pass)."""
    if result.rows == 0:
        return 0.0
    return float(result.row_passes(variant).sum()) / result.rows


def _num(value: float | None, integer: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if integer and float(value).is_integer() else f"{value:.3f}"


def problem_notes(result: BatchResult, variant: str, metric_id: str,
                  lines: Sequence[int] | None = None, limit: int = 3) -> list[str]:
    """Why rows errored or were invalid: each distinct sentence once, with its row count and
    first line, most frequent first (a dead endpoint is one line, not 10,000)."""
    messages = result.messages.get((variant, metric_id), {})
    if not messages:
        return []
    groups: dict[str, list[int]] = {}
    for row in sorted(messages):
        groups.setdefault(messages[row], []).append(row)
    ranked = sorted(groups.items(), key=lambda item: (-len(item[1]), item[1][0]))
    out = []
    for message, rows in ranked[:limit]:
        first = rows[0]
        where = f"line {lines[first]}" if lines is not None and first < len(lines) \
            else f"row {first + 1}"
        count = f"{len(rows)} rows, the first at {where}" if len(rows) > 1 else where
        out.append(f"{metric_id}: {message} ({count})")
    if len(ranked) > limit:
        more = len(ranked) - limit
        out.append(f"{metric_id}: and {more} other reason{'' if more == 1 else 's'}")
    return out


def format_summary(result: BatchResult, reasons: list[str], source: str = "",
                   lines: Sequence[int] | None = None) -> str:
    out = [f"{source}: {result.rows} rows scored" if source else f"{result.rows} rows"]
    for variant in result.variants:
        problems: list[str] = []
        if len(result.variants) > 1:
            out.append(f"[{variant}]")
        out.append(f"  {'metric':<24}{'mean':>8}{'median':>8}{'pass rate':>11}  rows")
        for job in result.jobs:
            s = result.summary(variant, job.id)
            rate = "–" if s.pass_rate is None else f"{s.pass_rate:.1%}"
            counts = f"{s.scored} scored"
            for n, word in ((s.invalid, "invalid"), (s.errored, "errored"), (s.missing, "missing")):
                if n:
                    counts += f", {n} {word}"
            out.append(f"  {job.id:<24}{_num(s.mean):>8}{_num(s.median, job.spec.integer):>8}"
                       f"{rate:>11}  {counts}")
            problems.extend(problem_notes(result, variant, job.id, lines))
        if any(job.threshold is not None for job in result.jobs):
            out.append(f"  overall: {overall_pass_rate(result, variant):.1%} of rows pass every "
                       "thresholded metric")
        else:
            out.append("  overall: – (no metric has a threshold; set one with "
                       "--set ID.threshold=VALUE)")
        out.extend(f"  why: {p}" for p in problems)
    out.extend(f"  note: {reason}" for reason in reasons)
    return "\n".join(out)
