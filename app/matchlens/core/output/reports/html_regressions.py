"""The HTML report's baseline section: per variant the counts per metric (the change labels,
the mean delta with its interval and the sign test: the numbers of the command's summary) and
the regressed rows, worst first, each as three readable texts — the reference, the baseline's
output diffed against it, this output diffed against it."""

from __future__ import annotations

from matchlens.core.output.reports.diff_markup import diff_html, row_head, scores_text
from matchlens.core.output.reports.escape import text
from matchlens.core.output.reports.model import (
    Regression,
    RegressionSection,
    VariantRegressions,
)
from matchlens.core.output.summary import plural
from matchlens.core.scoring.run_summary import LABELS


def regressions_html(section: RegressionSection | None) -> list[str]:
    if section is None:
        return []
    out = ["<h2>Against the baseline</h2>",
           f"<p>Baseline <b>{text(section.baseline)}</b>, rescored with this run's metrics and "
           "thresholds. A row <i>regressed</i> when it passed every thresholded metric in the "
           "baseline and does not now.</p>"]
    for variant in section.variants:
        out += _variant(variant, section.worst_n, len(section.variants) > 1)
    return out


def _variant(v: VariantRegressions, worst_n: int, named: bool) -> list[str]:
    head = f"{text(v.variant)}: " if named else ""
    out = [f"<h3>{head}{plural(v.regressed, 'row')} regressed (passed before, fail now); "
           f"{v.improved:,} improved</h3>",
           '<div class="scroll"><table><thead><tr><th data-sort="1">metric</th>'
           + "".join(f'<th data-sort="1" class="n">{label}</th>' for label in LABELS)
           + '<th data-sort="1" class="n">mean Δ</th><th class="n">95% CI</th>'
           '<th data-sort="1" class="n">rows compared</th><th class="n">sign test</th>'
           "</tr></thead><tbody>"]
    for m in v.metrics:
        cells = [f"<td>{text(m.metric)}</td>"]
        cells += [f"<td class=n>{m.counts.get(label, 0):,}</td>" for label in LABELS]
        cells += [f"<td class=n>{m.delta_text}</td>", f"<td class=n>{m.interval_text}</td>",
                  f"<td class=n>{m.n:,}</td>", f"<td class=n>{m.p_text}</td>"]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    out.append("<ul class=muted>" + "".join(f"<li>{text(m.metric)}: {text(m.sentence)}</li>"
                                           for m in v.metrics) + "</ul>")
    if v.rows:
        which = ("the regressed row" if v.regressed == 1 else
                 f"all {v.regressed:,} regressed rows" if len(v.rows) >= v.regressed
                 else f"the worst {len(v.rows):,} of {v.regressed:,} (--worst {worst_n})")
        out.append(f"<details open><summary><b>Regressed rows</b> · {which}, worst first"
                   "</summary>")
        out += [_regression(r) for r in v.rows]
        out.append("</details>")
    return out


def _regression(item: Regression) -> str:
    row = item.row
    scores = f"now {scores_text(row.scores)}; baseline {scores_text(item.baseline_scores)}"
    reference = item.baseline_expected
    parts = [f'<div class="row">{row_head(row, scores)}',
             '<div class="muted">reference</div>',
             f'<div class="diff">{text(row.expected)}</div>',
             '<div class="muted">baseline output (against the reference'
             f'{"" if reference is None else " it matched best, below"})</div>']
    if reference is not None:
        parts.append(f'<div class="diff">{text(reference)}</div>')
    base_expected = row.expected if reference is None else reference
    base_diff = diff_html(base_expected, item.baseline_actual, item.baseline_chunks)
    parts += [f'<div class="diff">{base_diff}</div>',
              '<div class="muted">this output (against the reference)</div>',
              f'<div class="diff">{diff_html(row.expected, row.actual, row.chunks)}</div>',
              "</div>"]
    return "".join(parts)
