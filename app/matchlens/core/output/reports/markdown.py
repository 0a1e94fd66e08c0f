"""The report as GitHub-flavoured Markdown for a pull-request comment: the summary table per
variant, the regression counts (with a baseline) and the worst rows' ids — always under
`LIMIT` characters (GitHub refuses a comment over 65,536), however many variants, metrics or
rows: what does not fit is counted in a last line pointing to the HTML report.

Cells are made inert: `|` and Markdown punctuation escaped, `<`/`>`/`&` as entities, line breaks
and control characters as spaces, each cell cut to `CELL` characters.
"""

from __future__ import annotations

import re

from matchlens.core.output.reports.model import ReportData
from matchlens.core.output.summary import coverage, plural
from matchlens.core.results import threshold_text
from matchlens.core.scoring.run_summary import LABELS
from matchlens.core.text.redact import scrub

LIMIT = 60_000
CELL = 80
FIELD_ROWS = 30  # JSON fields paths per variant (the HTML shows more)
_RESERVE = 400  # room kept for the closing line
_SPACE = re.compile("[\x00-\x1f\x7f\u2028\u2029\ud800-\udfff]+")
_PUNCT = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def cell(value: object, cut: int = CELL) -> str:
    """A value as one inert table cell (cut to `cut` characters; 0: not cut)."""
    s = _SPACE.sub(" ", scrub(str(value))).strip()
    if cut and len(s) > cut:
        s = s[: cut - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _PUNCT.sub(r"\\\1", s)


def render_markdown(data: ReportData) -> str:
    tally = data.tally
    blocks: list[list[str]] = [[f"## MatchLens: {cell(tally.source)}",
                                f"{plural(tally.rows, 'row')}, "
                                f"{len(tally.variants)} variant"
                                f"{'' if len(tally.variants) == 1 else 's'}"]]
    for variant in tally.variants:
        per = tally.per_variant[variant]
        lines = ["", f"### {cell(variant)}: {cell(coverage(per))}", "",
                 "| metric | threshold | mean | median | pass rate | scored | missing |",
                 "|---|---:|---:|---:|---:|---:|---:|"]
        for job in tally.jobs:
            s = tally.summary(variant, job.id)
            rate = "–" if s.pass_rate is None else f"{s.pass_rate:.1%}"
            lines.append(f"| {cell(job.id)} | "
                         f"{cell(threshold_text(job.spec.direction, job.threshold))} | "
                         f"{_num(s.mean)} | {_num(s.median)} | {rate} | {s.scored:,} | "
                         f"{s.missing + s.invalid + s.errored:,} |")
        if tally.thresholded:
            lines += ["", f"**{tally.overall_pass_rate(variant):.1%}** of the "
                          f"{plural(per.rows, 'row')} pass every thresholded metric "
                          f"({per.passing:,} pass); a row without a score does not pass."]
        blocks.append(lines)
    blocks += _regressions(data)
    blocks += _fields(data)
    for group in data.worst:
        failing = tally.summary(group.variant, group.metric).failed or 0
        if group.rows:
            which = ("The failing row" if failing == 1 else f"All {failing:,} failing rows"
                     if len(group.rows) >= failing
                     else f"Worst {len(group.rows):,} of {failing:,} failing rows")
            blocks.append(["", f"<details><summary>{which} by "
                               f"{cell(group.metric)} ({cell(group.variant)})</summary>", "",
                           _ids([r.name for r in group.rows]), "",
                           "</details>"])
        elif not failing:
            blocks.append(["", f"No row fails {cell(group.metric)} "
                               f"({cell(group.variant)})."])
    return _fit(blocks)


def _regressions(data: ReportData) -> list[list[str]]:
    """With a baseline: per variant the counts per metric (the summary's numbers) and the
    regressed rows' ids, worst first."""
    section = data.regressions
    if section is None:
        return []
    blocks = [["", f"### Against the baseline {cell(section.baseline)}"]]
    for v in section.variants:
        head = f"{cell(v.variant)}: " if len(section.variants) > 1 else ""
        lines = ["", f"**{head}{plural(v.regressed, 'row')} regressed** (passed before, fail "
                     f"now); {v.improved:,} improved.", "",
                 "| metric | " + " | ".join(LABELS) + " | mean Δ | 95% CI | sign test |",
                 "|---|" + "---:|" * (len(LABELS) + 3)]
        lines += [f"| {cell(m.metric)} | "
                  + " | ".join(f"{m.counts.get(label, 0):,}" for label in LABELS)
                  + f" | {m.delta_text} | {m.interval_text} | {m.p_text} |"
                  for m in v.metrics]
        blocks.append(lines)
        if v.rows:
            which = ("The regressed row" if v.regressed == 1 else
                     f"All {v.regressed:,} regressed rows" if len(v.rows) >= v.regressed
                     else f"Worst {len(v.rows):,} of {v.regressed:,} regressed rows")
            blocks.append(["", f"<details><summary>{which}</summary>", "",
                           _ids([r.row.name for r in v.rows]), "", "</details>"])
    return blocks


def _fields(data: ReportData) -> list[list[str]]:
    """The JSON fields table (json_distance scored): one block per variant, so a long one is
    left out whole rather than cut, its first `FIELD_ROWS` paths (worst first)."""
    section = data.fields
    if section is None:
        return []
    blocks = [["", "### JSON fields", "", cell(section.note, cut=0)]] if section.note else [
        ["", "### JSON fields"]]
    by_variant: dict[str, list[tuple[str, ...]]] = {}
    for row in section.rows:
        by_variant.setdefault(row[0], []).append(row)
    for variant, rows in by_variant.items():
        lines = ["", f"<details><summary>{cell(variant)}: {plural(len(rows), 'path')}"
                     "</summary>", "",
                 "| " + " | ".join(cell(h) for h in section.header[1:]) + " |",
                 "|---|" + "---:|" * (len(section.header) - 2)]
        lines += ["| " + " | ".join(cell(c) for c in row[1:]) + " |"
                  for row in rows[:FIELD_ROWS]]
        if len(rows) > FIELD_ROWS:
            lines += ["", f"{len(rows) - FIELD_ROWS:,} more paths in the HTML report."]
        blocks.append([*lines, "", "</details>"])
    return blocks


def _fit(blocks: list[list[str]]) -> str:
    """Whole blocks in order while they fit under LIMIT (a table or a <details> is never cut
    in two); then one line counting the blocks left out."""
    out: list[str] = []
    size = 0
    for b, block in enumerate(blocks):
        need = sum(len(line) + 1 for line in block)
        if size + need > LIMIT - _RESERVE:
            rest = len(blocks) - b
            out += ["", f"… {rest} more section{'' if rest == 1 else 's'} left out to stay under "
                        f"{LIMIT:,} characters: see the HTML report (`matchlens score --html`)."]
            break
        out += block
        size += need
    return "\n".join(out) + "\n"


def _ids(names: list[str], budget: int = 4_000) -> str:
    """The ids as code spans, up to `budget` characters, then how many more."""
    shown: list[str] = []
    size = 0
    for name in names:
        piece = f"`{_code(name)}`"
        if size + len(piece) > budget:
            return ", ".join(shown) + f" and {len(names) - len(shown):,} more"
        shown.append(piece)
        size += len(piece) + 2
    return ", ".join(shown)


def _code(value: str) -> str:
    """An id inside backticks: no backtick or line break can end it early."""
    s = _SPACE.sub(" ", scrub(value)).replace("`", "'")
    s = s.replace("<", "&lt;")  # inside <details>, GitHub renders HTML
    return s[: CELL - 1] + "…" if len(s) > CELL else s


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"
