"""The plain-text summary `matchlens score` prints: means never hide errored or missing rows."""

from __future__ import annotations

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


def format_summary(result: BatchResult, reasons: list[str], source: str = "") -> str:
    lines = [f"{source}: {result.rows} rows scored" if source else f"{result.rows} rows"]
    for variant in result.variants:
        if len(result.variants) > 1:
            lines.append(f"[{variant}]")
        lines.append(f"  {'metric':<24}{'mean':>8}{'median':>8}{'pass rate':>11}  rows")
        for job in result.jobs:
            s = result.summary(variant, job.id)
            rate = "–" if s.pass_rate is None else f"{s.pass_rate:.1%}"
            counts = f"{s.scored} scored"
            for n, word in ((s.invalid, "invalid"), (s.errored, "errored"), (s.missing, "missing")):
                if n:
                    counts += f", {n} {word}"
            lines.append(f"  {job.id:<24}{_num(s.mean):>8}{_num(s.median, job.spec.integer):>8}"
                         f"{rate:>11}  {counts}")
        if any(job.threshold is not None for job in result.jobs):
            lines.append(f"  overall: {overall_pass_rate(result, variant):.1%} of rows pass every "
                         "thresholded metric")
        else:
            lines.append("  overall: – (no metric has a threshold; set one with "
                         "--set ID.threshold=VALUE)")
    for reason in reasons:
        lines.append(f"  note: {reason}")
    return "\n".join(lines)
