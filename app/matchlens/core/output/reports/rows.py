"""One row as reports show it: its texts cut for show, its readable chunks (the same chunks
`matchlens diff --json` gives), the wdiff-style plain text of the diff, and the sentence naming
a failing metric (`levenshtein_similarity 0.42 < 0.70`); and which table columns hold numbers
(right-aligned in the HTML and the Markdown)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from matchlens.core.diff.readable.chunks import Chunk, readable_diff
from matchlens.core.output.reports.model import RowDiff
from matchlens.core.results import Direction
from matchlens.core.text.redact import scrub

# Pairs whose chunks are remembered: a run's JUnit bodies (the first 1,000 failing rows of each
# of a few variants) and then its worst rows, which are often among those first rows (ties keep
# the earlier row); at most ~2 × CELL_CHARS characters and their chunks each.
_REMEMBERED = 4096


@lru_cache(maxsize=_REMEMBERED)
def report_chunks(expected: str, actual: str) -> tuple[Chunk, ...]:
    """The readable chunks of a shown pair (`matchlens diff --json`'s chunks), remembered for
    the pairs diffed last (the worst rows of the HTML report share the diffs of the JUnit
    bodies). Always by the Python steps (`compiled=False`, the same chunks): a shown cell is
    at most CELL_CHARS long, and a report diffs a few thousand pairs at most, where loading the
    compiled kernel (numba) would cost more than every diff of the report together."""
    return tuple(readable_diff(expected, actual, compiled=False).chunks)


# A cell is shown up to this many characters (a 1 MB output would make a 1 MB report row and
# an edit script far longer than anyone reads); the row says it was cut.
CELL_CHARS = 2_000

PLAIN_MARKS = ("[-", "-]", "{+", "+}")

# a number as the reports write one: a count (1,234), a score (0.42, -0.013), a rate (42.0%), a
# share (12/40), a threshold (≥ 0.70), an interval (+0.01 to +0.05), a p-value (p = 0.031)
_NUMBER = re.compile(r"(?:[<>≤≥=] |p [<=] )?[-+−]?[\d,]*\.?\d+(?:e[-+]?\d+)?%?"
                     r"(?:(?:/| to )[-+−]?[\d,]*\.?\d+%?)?")
_NONE = {"–", "-", "", "no threshold"}  # a cell without a number


def number_columns(rows: Sequence[Sequence[str]]) -> set[int]:
    """The columns whose every cell is a number (or – for none), with at least one number."""
    if not rows:
        return set()
    out = set()
    for k in range(len(rows[0])):
        cells = [str(row[k]).strip() for row in rows if k < len(row)]
        if any(c not in _NONE for c in cells) and all(
                c in _NONE or _NUMBER.fullmatch(c) for c in cells):
            out.add(k)
    return out


def shown(text: str | None) -> tuple[str, bool]:
    """The text as a report holds it: scrubbed of keys, cut to CELL_CHARS; and whether cut."""
    if text is None:
        return "", False
    cut = len(text) > CELL_CHARS
    return scrub(text[:CELL_CHARS] if cut else text), cut


def score_text(score: float, integer: bool) -> str:
    return f"{score:.0f}" if integer and float(score).is_integer() else f"{score:.2f}"


def fails(score: float, threshold: float, direction: Direction) -> bool:
    """Whether a score is on the failing side of its threshold."""
    return score < threshold if direction is Direction.MAX else score > threshold


def failing_sentence(metric: str, score: float, threshold: float, direction: Direction,
                     integer: bool) -> str:
    """'levenshtein_similarity 0.42 < 0.70' (higher is better), 'levenshtein_distance 5 > 3';
    whole numbers on both sides read as such ('exact_match 0 < 1')."""
    sign = "<" if direction is Direction.MAX else ">"
    whole = integer or (float(score).is_integer() and float(threshold).is_integer())
    return f"{metric} {score_text(score, whole)} {sign} {score_text(threshold, whole)}"


def row_diff(*, index: int, line: int, row_id: str | None, variant: str, expected: str | None,
             actual: str | None, scores: dict[str, float | None],
             failing: Iterable[str] = ()) -> RowDiff:
    """A row with its readable diff, over the texts as shown (scrubbed, cut)."""
    e, e_cut = shown(expected)
    a, a_cut = shown(actual)
    chunks = report_chunks(e, a)
    return RowDiff(index=index, line=line, row_id=None if row_id is None else scrub(row_id),
                   variant=variant, expected=e, actual=a, chunks=tuple(chunks),
                   scores=dict(scores), failing=tuple(failing), cut=e_cut or a_cut)


def plain_diff(expected: str, actual: str, chunks: Iterable[Chunk]) -> str:
    """Both texts as one with wdiff's markers, `[-deleted-]{+inserted+}` (CI logs, `grep`)."""
    out: list[str] = []
    for c in chunks:
        deleted, inserted = expected[c.exp_start:c.exp_end], actual[c.act_start:c.act_end]
        if c.op == "equal":
            out.append(deleted)
            continue
        if deleted:
            out.append(f"{PLAIN_MARKS[0]}{deleted}{PLAIN_MARKS[1]}")
        if inserted:
            out.append(f"{PLAIN_MARKS[2]}{inserted}{PLAIN_MARKS[3]}")
    return "".join(out)
