"""The plain-text summary `matchlens score` prints: means never hide errored or missing rows.

Both denominators are stated: "80 rows: 39 scored, 41 missing (no reference at
$.reference[0])"; the mean and median are over the scored rows, the pass rate over all rows (a
row without a score does not pass). Each distinct reason a row has no score is one `why:` line
with its count and the first place it happens.
"""

from __future__ import annotations

from matchlens.core.scoring.tally import Reason, Tally, VariantTally


def plural(n: int, word: str) -> str:
    """'1 row', '2 rows', '10,000 rows'."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _num(value: float | None, integer: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if integer and float(value).is_integer() else f"{value:.3f}"


def coverage(tally: VariantTally) -> str:
    """'39 scored, 41 missing (no reference at $.reference[0])', or 'all scored'."""
    missing = tally.rows - tally.with_values
    if not missing:
        return "all scored" if tally.rows else "nothing to score"
    groups = sorted(tally.missing_by_label().items(), key=lambda item: -item[1])
    if len(groups) == 1:
        why = f" ({groups[0][0]})"
    elif groups:
        why = " (" + "; ".join(f"{count:,} {label}" for label, count in groups[:4]) + ")"
    else:
        why = ""
    return f"{tally.with_values:,} scored, {missing:,} missing{why}"


def _first(reason: Reason, unit: str) -> str:
    if reason.count == 1:
        return f"{unit} {reason.first_line}"
    return f"{plural(reason.count, 'row')}, the first at {unit} {reason.first_line}"


def problem_notes(tally: VariantTally, metric_id: str, unit: str = "line",
                  limit: int = 3) -> list[str]:
    """Why rows errored or were invalid: each distinct sentence once, with its row count and
    first line, most frequent first (a dead endpoint is one line, not 10,000)."""
    problems = tally.metrics[metric_id].problems
    ranked = sorted(problems.items(), key=lambda item: (-item[1].count, item[1].first_line))
    out = [f"{metric_id}: {message} ({_first(reason, unit)})"
           for message, reason in ranked[:limit]]
    if len(ranked) > limit:
        more = len(ranked) - limit
        out.append(f"{metric_id}: and {more} other reason{'' if more == 1 else 's'}")
    return out


def missing_notes(tally: VariantTally, limit: int = 5) -> list[str]:
    """Why rows have no value to score: one line per distinct reason, with its count and the
    first row's own sentence (file, line, column), most frequent first."""
    ranked = sorted(tally.missing.items(), key=lambda item: (-item[1].count,
                                                             item[1].first_line))
    out = [f"{plural(reason.count, 'row')} {'has' if reason.count == 1 else 'have'} {label}; "
           f"{'the first: ' if reason.count > 1 else ''}{reason.detail}"
           for (label, _kind), reason in ranked[:limit]]
    if len(ranked) > limit:
        rest = sum(reason.count for _key, reason in ranked[limit:])
        out.append(f"{plural(rest, 'more row')} for {len(ranked) - limit} other reasons")
    return out


def format_summary(tally: Tally) -> str:
    several = len(tally.variants) > 1
    head = f"{tally.source}: {plural(tally.rows, 'row')}"
    first = tally.per_variant[tally.variants[0]]
    out = [f"{head}, {len(tally.variants)} variants" if several else f"{head}: {coverage(first)}"]
    for variant in tally.variants:
        per = tally.per_variant[variant]
        if several:
            out.append(f"[{variant}] {coverage(per)}")
        out.append(f"  {'metric':<24}{'mean':>8}{'median':>8}{'pass rate':>11}  rows")
        problems: list[str] = []
        for job in tally.jobs:
            s = tally.summary(variant, job.id)
            rate = "–" if s.pass_rate is None else f"{s.pass_rate:.1%}"
            counts = f"{s.scored} scored"
            for n, word in ((s.invalid, "invalid"), (s.errored, "errored"), (s.missing, "missing")):
                if n:
                    counts += f", {n} {word}"
            out.append(f"  {job.id:<24}{_num(s.mean):>8}{_num(s.median, job.spec.integer):>8}"
                       f"{rate:>11}  {counts}")
            problems.extend(problem_notes(per, job.id, tally.unit))
        if tally.thresholded:
            passing = per.passing
            out.append(f"  overall: {tally.overall_pass_rate(variant):.1%} of the "
                       f"{plural(per.rows, 'row')} pass every thresholded metric "
                       f"({passing:,} {'passes' if passing == 1 else 'pass'})")
        else:
            out.append("  overall: – (no metric has a threshold; set one with "
                       "--set ID.threshold=VALUE)")
        out.append(f"  (mean and median over the scored rows; pass rates over all "
                   f"{plural(per.rows, 'row')}: a row without a score does not pass)")
        out.extend(f"  why: {p}" for p in missing_notes(per))
        out.extend(f"  why: {p}" for p in problems)
    out.extend(f"  note: {note}" for note in tally.notes)
    return "\n".join(out)


def summary_dict(tally: Tally, partitions: int = 1) -> dict:
    """The same summary as data (the Python API's `attrs["matchlens"]`, and the combined
    summary of `matchlens.dask`): the numbers this module prints, unrounded."""
    variants = {}
    why = []
    for variant in tally.variants:
        per = tally.per_variant[variant]
        metrics = {}
        for job in tally.jobs:
            s = tally.summary(variant, job.id)
            metrics[job.id] = {
                "threshold": job.threshold, "direction": str(job.spec.direction),
                "rows": s.rows, "scored": s.scored, "invalid": s.invalid,
                "errored": s.errored, "missing": s.missing, "mean": s.mean,
                "median": s.median, "passed": s.passed, "failed": s.failed,
                "pass_rate": s.pass_rate}
            for message, reason in per.metrics[job.id].problems.items():
                why.append({"variant": variant, "metric": job.id, "message": message,
                            **_place(reason, tally.unit, partitions > 1)})
        variants[variant] = {
            "rows": per.rows, "scored": per.with_values, "missing": per.rows - per.with_values,
            "missing_reasons": [{"label": label, "detail": reason.detail,
                                 **_place(reason, tally.unit, partitions > 1)}
                                for (label, _kind), reason in per.missing.items()],
            "passed": per.passing if tally.thresholded else None,
            "pass_rate": tally.overall_pass_rate(variant) if tally.thresholded else None,
            "metrics": metrics}
    why.sort(key=lambda w: (-w["rows"], w.get("partition", 0), w[tally.unit]))
    return {"source": tally.source, "rows": tally.rows, "partitions": partitions,
            "metrics": [job.id for job in tally.jobs], "variants": variants, "why": why,
            "notes": list(tally.notes)}


def _place(reason: Reason, unit: str, parted: bool) -> dict:
    """How many rows, and where the first is ("line" or "row" N; for a table scored in parts,
    also the part, N then counting from that part's start)."""
    place = {"rows": reason.count, unit: reason.first_line}
    if parted:
        place["partition"] = reason.partition
    return place
