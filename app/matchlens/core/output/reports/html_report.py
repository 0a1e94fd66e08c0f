"""The one-file HTML report: opens from disk in any browser, offline, with scripts disabled.

No external fonts, scripts, styles or images: the style sheet is inline, the plots are inline
SVG (svg.py), light and dark follow `prefers-color-scheme`, and print drops the filter box. The
one script only adds sorting (click a column head) and a filter over the worst rows; everything
is readable without it. Every text that came from data (cells, ids, column and file names) goes
through `escape.text()`: escaped, and control characters and lone surrogates shown as escapes, so no
element can come from data and the file is always valid UTF-8.
"""

from __future__ import annotations

from collections.abc import Sequence

import tomli_w

from matchlens.core.labels.calibration_report import COLUMNS, row_cells, verdict_sentence
from matchlens.core.output.reports.diff_markup import row_html
from matchlens.core.output.reports.escape import text
from matchlens.core.output.reports.html_regressions import regressions_html
from matchlens.core.output.reports.model import ReportData
from matchlens.core.output.reports.rows import number_columns
from matchlens.core.output.reports.svg import COLOURS, distribution_svg
from matchlens.core.output.summary import coverage, missing_notes, plural, problem_notes
from matchlens.core.results import threshold_text

STYLE = """
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#5f6368;--line:#d0d4da;
--del:#ffd7d5;--del-fg:#82071e;--ins:#ccffd8;--ins-fg:#055d20;--head:#f3f4f6;--accent:#0b57d0}
@media (prefers-color-scheme:dark){:root{--bg:#17181b;--fg:#e6e6e9;--muted:#a0a4ab;
--line:#3a3d44;--del:#5c1a1b;--del-fg:#ffb3ad;--ins:#173d24;--ins-fg:#a6f0b5;--head:#22242a;
--accent:#8ab4f8}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1200px;padding:16px;background:var(--bg);color:var(--fg);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:1.4em;margin:.2em 0;overflow-wrap:anywhere}h2{font-size:1.15em;margin:1.6em 0 .4em;
border-bottom:1px solid var(--line)}h3{font-size:1em;margin:1em 0 .3em}
.muted{color:var(--muted)}code,.diff,pre{font-family:ui-monospace,Menlo,Consolas,monospace}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:.3em 0;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--head)}td.n,th.n{text-align:right;white-space:nowrap}
th[data-sort]{cursor:pointer}
.diff{white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px;margin:.3em 0;
padding:6px;border:1px solid var(--line);border-radius:4px}
del{background:var(--del);color:var(--del-fg)}ins{background:var(--ins);color:var(--ins-fg);
text-decoration:none}
.row{margin:.8em 0;padding-top:.4em;border-top:1px dashed var(--line)}
.fail{color:var(--del-fg)}
svg.dist{width:100%;max-width:600px;height:auto;display:block}
svg .axis{stroke:var(--muted)}svg .threshold{stroke:var(--fg);stroke-dasharray:4 3}
svg .tick{fill:var(--muted);font-size:11px}
.key span{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 .8em;opacity:.7}
details>summary{cursor:pointer}
#filter{display:none}
@media print{#filter{display:none!important}body{max-width:none}details{display:block}
.row{break-inside:avoid}}
"""

# Sorting and filtering only: the page is complete without it. It reads no data of its own.
SCRIPT = """
(function(){
var f=document.getElementById('filter');f.style.display='block';
f.querySelector('input').addEventListener('input',function(e){
var q=e.target.value.toLowerCase();
document.querySelectorAll('.row').forEach(function(r){
r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';});});
document.querySelectorAll('th[data-sort]').forEach(function(th){
th.addEventListener('click',function(){
var t=th.closest('table'),b=t.tBodies[0],i=th.cellIndex,d=th.dataset.dir==='1'?-1:1;
th.dataset.dir=d===1?'1':'-1';
var rows=Array.prototype.slice.call(b.rows);
rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,
c=y.cells[i].dataset.v||y.cells[i].textContent,p=parseFloat(a),q=parseFloat(c);
if(!isNaN(p)&&!isNaN(q))return (p-q)*d;return a.localeCompare(c)*d;});
rows.forEach(function(r){b.appendChild(r);});});});
})();
"""


def render_html(data: ReportData) -> str:
    """The whole report as one HTML document."""
    tally, prov = data.tally, data.provenance
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width,initial-scale=1">',
           f"<title>MatchLens report: {text(tally.source)}</title>",
           f"<style>{STYLE}</style></head><body>",
           f"<h1>MatchLens report: {text(tally.source)}</h1>",
           f'<p class="muted">{plural(tally.rows, "row")}, {len(tally.variants)} '
           f'variant{"" if len(tally.variants) == 1 else "s"}, made {text(prov.created)} by '
           f"MatchLens {text(prov.version)}</p>"]
    out += _summary(data)
    out += _distributions(data)
    out += regressions_html(data.regressions)
    out += fields_section(data)
    out += _calibration(data)
    out += _worst(data)
    out += _provenance(data)
    out.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(out)


def table_html(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A sortable table of text cells (escaped here); number columns right-aligned, their
    head too (rows.number_columns)."""
    numbers = number_columns(rows)
    head = "".join(f'<th data-sort="1"{" class=n" if k in numbers else ""}>{text(h)}</th>'
                   for k, h in enumerate(header))
    body = "".join("<tr>" + "".join(f'<td{" class=n" if k in numbers else ""}>{text(c)}</td>'
                                    for k, c in enumerate(row)) + "</tr>" for row in rows)
    return (f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}'
            "</tbody></table></div>")


def _summary(data: ReportData) -> list[str]:
    tally = data.tally
    out = ["<h2>Summary</h2>"]
    for variant in tally.variants:
        per = tally.per_variant[variant]
        out.append(f"<h3>{text(variant)}: {text(coverage(per))}</h3>")
        header = ("metric", "threshold", "mean", "median", "pass rate", "passed", "failed",
                  "scored", "invalid", "errored", "missing")
        rows = []
        for job in tally.jobs:
            s = tally.summary(variant, job.id)
            rows.append((job.id, threshold_text(job.spec.direction, job.threshold),
                         _num(s.mean), _num(s.median, job.spec.integer),
                         "–" if s.pass_rate is None else f"{s.pass_rate:.1%}",
                         _count(s.passed), _count(s.failed), _count(s.scored),
                         _count(s.invalid), _count(s.errored), _count(s.missing)))
        out.append(table_html(header, rows))
        if tally.thresholded:
            out.append(f"<p><b>Overall: {tally.overall_pass_rate(variant):.1%}</b> of the "
                       f"{plural(per.rows, 'row')} pass every thresholded metric "
                       f"({per.passing:,} pass).</p>")
        else:
            out.append("<p>Overall: – (no metric has a threshold).</p>")
        out.append(f'<p class="muted">Mean and median over the scored rows; pass rates over '
                   f"all {plural(per.rows, 'row')}: a row without a score does not pass.</p>")
        notes = missing_notes(per) + [p for job in tally.jobs
                                      for p in problem_notes(per, job.id, tally.unit)]
        if notes:
            out.append("<ul>" + "".join(f"<li>why: {text(n)}</li>" for n in notes) + "</ul>")
    if tally.notes:
        out.append("<ul>" + "".join(f"<li>note: {text(n)}</li>" for n in tally.notes) + "</ul>")
    return out


def _num(value: float | None, integer: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if integer and float(value).is_integer() else f"{value:.3f}"


def _count(n: int | None) -> str:
    return "–" if n is None else f"{n:,}"


def _distributions(data: ReportData) -> list[str]:
    tally = data.tally
    out = ["<h2>Score distributions</h2>"]
    if len(tally.variants) > 1:
        out.append('<p class="key">' + "".join(
            f'<span style="background:{COLOURS[i % len(COLOURS)]}"></span>{text(v)}'
            for i, v in enumerate(tally.variants)) + "</p>")
    for job in tally.jobs:
        per = {v: tally.per_variant[v].metrics[job.id].values for v in tally.variants}
        out.append(f"<h3>{text(job.id)} <span class=muted>"
                   f"({text(threshold_text(job.spec.direction, job.threshold))})</span></h3>")
        out.append(distribution_svg(job.id, per, job.threshold, job.spec.integer))
    return out


def fields_section(data: ReportData) -> list[str]:
    """With JSON outputs (ReportData.fields, filled by the fields feature): the fields table."""
    section = data.fields
    if section is None:
        return []
    out = ["<h2>JSON fields</h2>"]
    if section.note:
        out.append(f"<p>{text(section.note)}</p>")
    out.append(table_html(section.header, section.rows))
    return out


def _calibration(data: ReportData) -> list[str]:
    if not data.calibration:
        return []
    out = ["<h2>Calibration against the labels</h2>"]
    for variant, reports in data.calibration.items():
        out.append(f"<h3>{text(variant)}</h3>")
        cells = [row_cells(r) for r in reports]
        rows = [tuple(c[key] for key, _l in COLUMNS) for c in cells]
        out.append(table_html([label for _key, label in COLUMNS], rows))
        out.append("<ul>" + "".join(f"<li>{text(verdict_sentence(r))}</li>" for r in reports)
                   + "</ul>")
    return out


def worst_heading(data: ReportData, group) -> str:
    """What a group of worst rows holds: all its failing rows, or the worst K of N."""
    failing = data.tally.summary(group.variant, group.metric).failed or 0
    if not failing:
        return "no row fails"
    if len(group.rows) >= failing:
        return "the failing row" if failing == 1 else f"all {failing:,} failing rows"
    return f"the worst {len(group.rows):,} of {failing:,} failing rows"


def _worst(data: ReportData) -> list[str]:
    if not data.worst:
        return []
    out = [f"<h2>Worst rows (up to {data.worst_n} failing rows per thresholded metric)</h2>",
           '<p id="filter"><label>Filter rows: <input type="search"></label></p>']
    for group in data.worst:
        job = next(j for j in data.tally.jobs if j.id == group.metric)
        threshold = threshold_text(job.spec.direction, group.threshold)
        out.append(f"<details open><summary><b>{text(group.metric)}</b> · {text(group.variant)}"
                   f" · {worst_heading(data, group)}</summary>")
        if not group.rows and not data.tally.summary(group.variant, group.metric).failed:
            out.append(f'<p class="muted">Every scored row meets {text(group.metric)} '
                       f"{text(threshold)}: nothing to show.</p>")
        out += [row_html(row) for row in group.rows]
        out.append("</details>")
    return out


def _provenance(data: ReportData) -> list[str]:
    prov = data.provenance
    roles = any(f.role for f in prov.inputs)
    out = ["<h2>Provenance</h2>", '<div class="scroll"><table><thead><tr>'
           + ("<th>role</th>" if roles else "")
           + '<th>file</th><th>SHA-256</th><th class="n">rows</th></tr></thead><tbody>']
    for f in prov.inputs:
        digest = f.sha256 or "– (standard input)"
        role = f"<td>{text(f.role)}</td>" if roles else ""
        out.append(f"<tr>{role}<td>{text(f.name)}</td><td><code>{text(digest)}</code></td>"
                   f"<td class=n>{f.rows:,}</td></tr>")
    out.append("</tbody></table></div><table><tbody>")
    rows = [("MatchLens", prov.version), ("made", prov.created),
            ("metrics", ", ".join(prov.metrics)),
            ("thresholds", ", ".join(f"{m} {'–' if t is None else f'{t:g}'}"
                                     for m, t in prov.thresholds.items()))]
    if prov.command:
        rows.append(("command", prov.command))
    out += [f"<tr><th>{k}</th><td>{text(v)}</td></tr>" for k, v in rows]
    out.append("</tbody></table>")
    if prov.options:
        out.append(f"<details><summary>options</summary><pre>{text(_toml(prov.options))}</pre>"
                   "</details>")
    return out


def _toml(options: dict) -> str:
    try:
        return tomli_w.dumps(options)
    except (TypeError, ValueError):
        return repr(options)
