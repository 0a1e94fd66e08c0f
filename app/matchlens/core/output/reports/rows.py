"""One row as reports show it: its texts cut for show, its readable chunks (the same chunks
`matchlens diff --json` gives), the wdiff-style plain text of the diff, and the sentence naming
a failing metric (`levenshtein_similarity 0.42 < 0.70`)."""

from __future__ import annotations

from collections.abc import Iterable

from matchlens.core.diff.readable.chunks import Chunk, readable_diff
from matchlens.core.output.reports.model import RowDiff
from matchlens.core.results import Direction
from matchlens.core.text.redact import scrub

# A cell is shown up to this many characters (a 1 MB output would make a 1 MB report row and
# an edit script far longer than anyone reads); the row says it was cut.
CELL_CHARS = 2_000

PLAIN_MARKS = ("[-", "-]", "{+", "+}")


def shown(text: str | None) -> tuple[str, bool]:
    """The text as a report holds it: scrubbed of keys, cut to CELL_CHARS; and whether cut."""
    if text is None:
        return "", False
    cut = len(text) > CELL_CHARS
    return scrub(text[:CELL_CHARS] if cut else text), cut


def score_text(score: float, integer: bool) -> str:
    return f"{score:.0f}" if integer and float(score).is_integer() else f"{score:.2f}"


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
    chunks = readable_diff(e, a).chunks
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
