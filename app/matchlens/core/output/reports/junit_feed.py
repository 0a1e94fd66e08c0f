"""`JunitFeed`: a scored piece's rows as JUnit testcases, built column by column for a 1M-row
run — which rows pass, fail (and with which message) or have no score, decided with numpy; the
testcases joined by pyarrow (junit.joined_testcases) and handed to the `JunitWriter` as one
buffer a piece.

Python work a row is only for the rows that need their own text: the first JUNIT_DIFFS
(failing_codes) failing rows of each variant (their readable diff is the failure's body), the
rows without a score, and the rows a baseline says regressed. Every other failing row shares its message with
the rows failing the same metrics with the same scores (few distinct values), and the body
saying where the cut is.

Which rows get a diff is decided as the pieces come; the diffs themselves are worked out a
few at a time (DIFFS_PER_PIECE a piece), the pieces waiting for theirs held in memory (and
the pieces after them, so the testcases keep their order: names and codes, ~20 bytes a row)
— up to HELD_BYTES, past which every diff still due is worked out at once. Spread so, the diffs run while the scoring worker
has work of its own, rather than all with the first piece while it waits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from matchlens.core.datasets.table import Table
from matchlens.core.output.reports import failing_codes
from matchlens.core.output.reports.failing_codes import (
    combination_codes,
    dense_codes,
    failing_rows,
    scored_rows,
    text_keys,
)
from matchlens.core.output.reports.junit import (
    JunitWriter,
    failure_tail,
    joined_testcases,
    name_column,
    passed_tail,
    skipped_tail,
    string_array,
    xml_attr,
    xml_text,
)
from matchlens.core.output.reports.rows import failing_sentence, plain_diff, report_chunks, shown
from matchlens.core.scoring.batch import BatchResult, MetricJob

DIFFS_PROPERTY = "matchlens.diffs"
REGRESSED_SAYS = "regressed: passed every thresholded metric in the baseline"
_NO_FAIL = -1e308  # in the grid of failing scores: this metric does not fail the row
DIFFS_PER_PIECE = 100  # readable diffs worked out per variant each time a piece comes
HELD_BYTES = 32 << 20  # of a variant's pieces held waiting for diffs (names, codes), at most

# (variant, row of the piece) -> the row's reference text, as the scoring resolved it
ExpectedOf = Callable[[str, int], "str | None"]


class Diff:
    """A failure's body to come: the readable diff of a row's texts (as shown: scrubbed,
    cut), worked out when `text()` is first asked."""

    __slots__ = ("actual", "expected")

    def __init__(self, expected: str | None, actual: str | None) -> None:
        self.expected, self.actual = expected, actual

    def text(self) -> str:
        e, _ = shown(self.expected)
        a, _ = shown(self.actual)
        return plain_diff(e, a, report_chunks(e, a))


@dataclass
class HeldPiece:
    """A piece's testcases waiting for diffs: the row endings are `head` (passed, and one a
    failure message) then `tails`, where `tails[at]` is None for each (at, classname,
    escaped message, Diff) of `due`."""

    names: pa.Array
    head: pa.Array
    tails: list[str | None]
    codes: np.ndarray
    counts: tuple[int, int, int]  # tests, failures, skipped
    due: list[tuple[int, str, str, Diff]] = field(default_factory=list)


def no_diff_text() -> str:
    """The body of a failing testcase past the cut (short: a 1M-row run has 700,000)."""
    cut = failing_codes.JUNIT_DIFFS
    return f"(no diff past the first {cut:,} failing rows: see {DIFFS_PROPERTY})"


class JunitFeed:
    """One testcase per row and variant, fed piece by piece (`add`) into `writer`."""

    def __init__(self, writer: JunitWriter, jobs: list[MetricJob]) -> None:
        self.writer = writer
        self.jobs = list(jobs)
        self.thresholded = [job for job in self.jobs if job.threshold is not None]
        self._sentences: dict[tuple[str, float], str] = {}
        self._escaped: dict[str, str] = {}  # failing sentence -> xml_attr of it
        self._diffs: dict[str, int] = {}  # variant -> failing rows given a diff
        self._undiffed: dict[str, int] = {}  # variant -> failing rows past the cut
        self._held: dict[str, list[HeldPiece]] = {}  # variant -> pieces waiting, in order

    def wants_texts(self, variant: str) -> bool:
        """Whether this variant's failing rows still get readable diffs (the texts needed)."""
        return self._diffs.get(variant, 0) < failing_codes.JUNIT_DIFFS

    def add(self, variant: str, result: BatchResult, start: int, table: Table,
            ids: list | None, expected: ExpectedOf, actual: list | None,
            regressed: np.ndarray | None = None) -> None:
        """This piece's testcases of `variant`; a regressed row is a failure whose message
        starts by saying so. `actual` (the variant's texts) and `expected` are read only while
        the variant's failing rows get diffs."""
        n = result.rows
        scored = scored_rows(result, variant, self.thresholded or self.jobs)
        verdicts = {job.id: result.verdicts(variant, job.id) for job in self.thresholded}
        failing = failing_rows(verdicts.values(), scored)
        cls = xml_attr(variant)
        head = string_array([passed_tail(cls)])  # then one ending a failure message
        tails: list[str | None] = []  # then these: skipped rows, rows with their own text
        codes = np.zeros(n, dtype=np.int32)
        # row -> (message, body) of a failure that has a text of its own (not escaped yet)
        own: dict[int, tuple[str, str]] = {}
        rows = np.flatnonzero(failing)
        which = np.zeros(0, dtype=np.int64)
        said: list[list[str]] = []
        codes_of: list[np.ndarray] = []
        first = np.zeros(0, dtype=np.int64)

        def message_of(k: int) -> str:  # of combination k (not escaped)
            at = int(first[k])
            return "; ".join(s[c[at]] for s, c in zip(said, codes_of, strict=True) if s[c[at]])

        if rows.size:
            # one message per distinct combination of failing sentences (few: 0.01 steps)
            for job in self.thresholded:
                code, sentences = self.sentence_codes(
                    job, result.scores[(variant, job.id)][rows], verdicts[job.id][rows] == 0)
                codes_of.append(code)
                said.append(sentences)
            first, which = combination_codes(codes_of)
            codes[rows] = len(head) + which
            head = pa.concat_arrays([head, self.failure_ends(cls, said, codes_of, first)])
            given = self.bodies(variant, rows[:failing_codes.JUNIT_DIFFS].tolist(), expected,
                                actual, failing=int(rows.size))
            for row, k, body in zip(rows[:len(given)].tolist(), which[:len(given)].tolist(),
                                    given, strict=True):
                own[row] = (message_of(k), body)
        skipped = {row: f"no score ({table.unit} {table.lines[row]})"
                   for row in np.flatnonzero(~scored).tolist()}
        failures = int(rows.size)
        if regressed is not None and regressed.any():
            for row in np.flatnonzero(regressed).tolist():
                if failing[row]:
                    message, body = own.get(row) or (
                        message_of(int(which[np.searchsorted(rows, row)])), no_diff_text())
                else:
                    message = f"no score now ({table.unit} {table.lines[row]})"
                    # past the cut (texts no longer read) the body says where to look
                    body = (self.bodies(variant, [row], expected, actual)
                            or [no_diff_text()])[0]
                    failures += 1
                own[row] = (f"{REGRESSED_SAYS}; {message}", body)
                skipped.pop(row, None)
        for row, why in skipped.items():
            codes[row] = len(head) + len(tails)
            tails.append(skipped_tail(cls, xml_attr(why)))
        due = []
        for row, (said_of_row, body) in own.items():
            codes[row] = len(head) + len(tails)
            if isinstance(body, Diff):
                due.append((len(tails), cls, xml_attr(said_of_row), body))
                tails.append(None)
            else:
                tails.append(failure_tail(cls, xml_attr(said_of_row), xml_text(body)))
        names = name_column(ids, start, n)
        held = self._held.setdefault(variant, [])
        if not held and not due:  # nothing waits: written now
            self.writer.add_block(variant, joined_testcases(names, _endings(head, tails), codes),
                                  n, failures, len(skipped))
            return
        held.append(HeldPiece(names, head, tails, codes, (n, failures, len(skipped)), due))
        waiting = sum(piece.names.nbytes + piece.codes.nbytes for piece in held)
        self.work(variant, DIFFS_PER_PIECE if waiting <= HELD_BYTES else None)

    def work(self, variant: str, budget: int | None) -> None:
        """Work out up to `budget` (None: all) of the variant's diffs still due, in order, and
        write the pieces held before them that are complete."""
        held = self._held.get(variant, [])
        while held:
            piece = held[0]
            while piece.due and (budget is None or budget > 0):
                at, cls, message, body = piece.due.pop()
                piece.tails[at] = failure_tail(cls, message, xml_text(body.text()))
                if budget is not None:
                    budget -= 1
            if piece.due:
                return
            held.pop(0)
            self.writer.add_block(variant, joined_testcases(
                piece.names, _endings(piece.head, piece.tails), piece.codes), *piece.counts)

    def finish(self) -> None:
        """Every diff still due worked out and its pieces written (before the writer's
        `write`)."""
        for variant in list(self._held):
            self.work(variant, None)

    def failure_ends(self, cls: str, said: list[list[str]], codes_of: list[np.ndarray],
                     first: np.ndarray) -> pa.Array:
        """failure_tail of each combination of failing sentences (the one of row `first[k]`),
        with the body past the cut: made column by column (pyarrow) from the sentences
        escaped once each — escaping goes character by character, so the joined escapes
        are the join's escape."""
        columns = []
        for sentences, code in zip(said, codes_of, strict=True):
            escaped = string_array([self.escaped(x) for x in sentences])
            present = np.fromiter((bool(x) for x in sentences), dtype=bool,
                                  count=len(sentences))
            escaped = pa.LargeStringArray.from_buffers(
                len(sentences), escaped.buffers()[1], escaped.buffers()[2],
                pa.py_buffer(np.packbits(present, bitorder="little")))
            picks = np.ascontiguousarray(code[first], dtype=np.int64)
            columns.append(pc.take(escaped, pa.Int64Array.from_buffers(
                pa.int64(), len(picks), [None, pa.py_buffer(picks)])))
        before, between, after, nothing = string_array([
            f'" classname="{cls}"><failure message="', "; ",
            f'" type="threshold">{xml_text(no_diff_text())}</failure></testcase>\n', ""])
        messages = pc.binary_join_element_wise(*columns, between, null_handling="skip")
        return pc.binary_join_element_wise(before, messages, after, nothing)

    def escaped(self, sentence: str) -> str:
        """xml_attr of a failing sentence, remembered (the same few come back each piece)."""
        out = self._escaped.get(sentence)
        if out is None:
            if len(self._escaped) > 100_000:
                self._escaped.clear()
            out = self._escaped[sentence] = xml_attr(sentence)
        return out

    def sentence_codes(self, job: MetricJob, scores: np.ndarray, fails: np.ndarray
                       ) -> tuple[np.ndarray, list[str]]:
        """Each row's failing sentence of `job` as a code into the distinct sentences ("" for a
        row this metric does not fail): scores are many (fractions), sentences few. Coded by
        the number each score is written as (failing_codes), sorted only where it cannot be."""
        at = np.flatnonzero(fails)
        keys = text_keys(scores[at], float(job.threshold), job.spec.integer)
        if keys is None:
            values, inverse = np.unique(np.where(fails, scores, _NO_FAIL), return_inverse=True)
            index: dict[str, int] = {}
            of_value = np.array([index.setdefault(
                "" if value == _NO_FAIL else self.sentence(job, value), len(index))
                for value in values.tolist()], dtype=np.int64)
            return of_value[inverse.reshape(-1)], list(index)
        number, first = dense_codes(keys)
        codes = np.zeros(len(scores), dtype=np.int64)
        codes[at] = number + 1
        return codes, ["", *(self.sentence(job, value) for value in scores[at[first]].tolist())]

    def sentence(self, job: MetricJob, score: float) -> str:
        """failing_sentence, remembered: scores take few distinct values (0.01 steps, counts)."""
        key = (job.id, score)
        said = self._sentences.get(key)
        if said is None:
            if len(self._sentences) > 100_000:
                self._sentences.clear()
            said = failing_sentence(job.id, score, float(job.threshold), job.spec.direction,
                                    job.spec.integer)
            self._sentences[key] = said
        return said

    def bodies(self, variant: str, rows: list[int], expected: ExpectedOf,
               actual: list | None, failing: int | None = None) -> list[Diff]:
        """The readable diffs (`[-…-]{+…+}`, texts scrubbed; worked out later: Diff) of those
        of `rows` among the first JUNIT_DIFFS failing rows of a variant — the others are
        counted (`failing`: how many `rows` stand for, when given only its first ones), their
        body says where to look. A readable diff costs ~0.1-0.6 ms a pair: for every failing
        row of a 1M-row run that is minutes, more than the scoring itself (bench_reports.py)."""
        count = len(rows) if failing is None else failing
        done = self._diffs.get(variant, 0)
        given = max(0, min(len(rows), failing_codes.JUNIT_DIFFS - done))
        if given:
            self._diffs[variant] = done + given
        if count > given:
            self._undiffed[variant] = self._undiffed.get(variant, 0) + count - given
        if given and actual is None:
            raise ValueError("the texts are read while diffs are given")
        return [Diff(expected(variant, row), actual[row]) for row in rows[:given]]

    def properties(self, variants: list[str]) -> dict[str, dict[str, str]]:
        """Per variant, the `matchlens.diffs` property: how many failing testcases carry a
        readable diff, and where the cut is when some do not."""
        out = {}
        for variant in variants:
            given, left = self._diffs.get(variant, 0), self._undiffed.get(variant, 0)
            if not left:
                said = f"a readable diff in every failing testcase ({given:,})"
            else:
                said = (f"a readable diff in the first {given:,} of {given + left:,} failing "
                        f"testcases (the cut: {failing_codes.JUNIT_DIFFS:,} per variant, to keep "
                        f"a 1M-row "
                        f"run fast); the other {left:,} say so in their body")
            out[variant] = {DIFFS_PROPERTY: said}
        return out


def _endings(head: pa.Array, tails: list[str | None]) -> pa.Array:
    """A piece's row endings: `head`, then `tails` (every diff due worked out)."""
    return pa.concat_arrays([head, string_array(tails)]) if tails else head
