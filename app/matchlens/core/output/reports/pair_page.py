"""One pair's diff for sharing (the compare view's Copy diff and Save diff as HTML): the
chunks the view draws, as wdiff-style plain text (`[-…-]{+…+}`), as an HTML fragment styled
inline (a clipboard carries no style sheet), and as a one-file page with the report's style
(light and dark, offline, no script)."""

from __future__ import annotations

from matchlens.core.diff.readable.chunks import Chunk
from matchlens.core.diff.span_table import KIND_DELETE, KIND_INSERT, SpanTable
from matchlens.core.output.reports.diff_markup import diff_html
from matchlens.core.output.reports.escape import text
from matchlens.core.output.reports.html_report import STYLE
from matchlens.core.output.reports.rows import plain_diff

_DEL = "background:#ffd7d5;color:#82071e"
_INS = "background:#ccffd8;color:#055d20;text-decoration:none"


def chunks_of_table(table: SpanTable, expected: str, actual: str) -> list[Chunk]:
    """The view's spans (changes only, in order) with the equal text between them: chunks that
    rebuild both texts. ValueError when the table is not of these texts."""
    if table.lengths not in ((-1, -1), (len(expected), len(actual))):
        raise ValueError("the highlight is not of these texts (still computing)")
    out: list[Chunk] = []
    e_at = a_at = 0
    for kind, (e1, e2), (a1, a2) in zip(table.kind.tolist(), table.exp.tolist(),
                                        table.act.tolist(), strict=True):
        if e1 < e_at or a1 < a_at or e1 - e_at != a1 - a_at:
            raise ValueError("the highlight's spans are out of order")
        if e1 > e_at:
            out.append(Chunk("equal", e_at, e1, a_at, a1))
        op = "insert" if kind == KIND_INSERT else "delete" if kind == KIND_DELETE else "replace"
        out.append(Chunk(op, e1, e2, a1, a2))
        e_at, a_at = e2, a2
    if len(expected) - e_at != len(actual) - a_at:
        raise ValueError("the highlight does not cover the texts")
    if e_at < len(expected):
        out.append(Chunk("equal", e_at, len(expected), a_at, len(actual)))
    return out


def pair_plain(expected: str, actual: str, chunks: list[Chunk]) -> str:
    return plain_diff(expected, actual, chunks)


def pair_fragment(expected: str, actual: str, chunks: list[Chunk]) -> str:
    """The diff as HTML with inline styles, for the clipboard."""
    body = diff_html(expected, actual, chunks, deleted_attrs=f' style="{_DEL}"',
                     inserted_attrs=f' style="{_INS}"')
    return f'<pre style="white-space:pre-wrap">{body}</pre>'


def pair_page(expected: str, actual: str, chunks: list[Chunk], title: str = "Diff") -> str:
    """A one-file HTML page: the inline diff, then both texts."""
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{text(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{text(title)}</h1>",
        f'<div class="diff">{diff_html(expected, actual, chunks)}</div>',
        "<h2>Expected</h2>", f'<div class="diff">{text(expected)}</div>',
        "<h2>Actual</h2>", f'<div class="diff">{text(actual)}</div>',
        "</body></html>"])
