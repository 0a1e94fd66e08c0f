"""Readable diffs as HTML, the one place they are marked up: the report's worst and regressed
rows, the compare view's Copy diff / Save diff as HTML and `matchlens.compare` in Jupyter.

`diff_html` writes the chunks (the same chunks `matchlens diff --json` gives) as one inline
text: equal text once, deleted text in `<del>`, inserted text in `<ins>`; callers without a
style sheet (a clipboard, a notebook) pass inline attributes. Every text goes through
`escape.text()`: escaped, scrubbed of keys, invisible characters shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from matchlens.core.diff.readable.chunks import Chunk
from matchlens.core.output.reports.escape import text
from matchlens.core.output.reports.model import RowDiff
from matchlens.core.output.reports.rows import score_text


def diff_html(expected: str, actual: str, chunks: Iterable[Chunk], *, deleted_attrs: str = "",
              inserted_attrs: str = "") -> str:
    """The readable chunks as one inline diff; `*_attrs` are added to the `<del>`/`<ins>` tags
    as given (trusted markup: a style, a title), e.g. `' style="…"'`."""
    out = []
    for c in chunks:
        deleted, inserted = expected[c.exp_start:c.exp_end], actual[c.act_start:c.act_end]
        if c.op == "equal":
            out.append(text(deleted))
            continue
        if deleted:
            out.append(f"<del{deleted_attrs}>{text(deleted)}</del>")
        if inserted:
            out.append(f"<ins{inserted_attrs}>{text(inserted)}</ins>")
    return "".join(out)


def scores_text(scores: dict[str, float | None]) -> str:
    """'exact_match 0, levenshtein_similarity 0.42' (– for no score)."""
    return ", ".join(f"{m} {'–' if s is None else score_text(s, float(s).is_integer())}"
                     for m, s in scores.items())


def row_head(row: RowDiff, scores: str | None = None) -> str:
    """A shown row's first line: its name, line, scores, failing metrics, and whether cut."""
    failing = "".join(f'<span class="fail"> · {text(f)}</span>' for f in row.failing)
    cut = ' <span class="muted">(texts cut for show)</span>' if row.cut else ""
    return (f"<b>{text(row.name)}</b> <span class=\"muted\">(line {row.line:,}) "
            f"{text(scores if scores is not None else scores_text(row.scores))}</span>"
            f"{failing}{cut}")


def row_html(row: RowDiff) -> str:
    """A worst row: its head and its diff against the reference."""
    return (f'<div class="row">{row_head(row)}'
            f'<div class="diff">{diff_html(row.expected, row.actual, row.chunks)}</div></div>')
