"""Readable chunks: the two texts cut into few, word-aligned pieces a person reads at a glance.

A minimal Levenshtein edit script is not what people read: "such as glucose." against "like
glucose and starch." is drawn as `su[ch] as gl[u]c[o]s[e]` because matching scattered letters
is cheaper than matching the word " glucose". Diff tools fix this with a second, *readable*
alignment; this module builds one from the exact script in four steps, each modelled on a known
rule (Google's diff-match-patch `diff_cleanupSemantic`, Ratcliff/Obershelp's longest-block-first
matching, and the word-aligned inline diffs of VS Code and GitHub):

1. Semantic merge (diff-match-patch's rule): an equality no longer than the edits on both sides
   of it is noise, so it is absorbed into one change with its neighbours. Long equalities (the
   bulk of two similar texts) are kept, so the rest of the work is proportional to the changes,
   not to the texts. Whitespace-only changes and equalities holding a line break are not
   merged ("a + b" against "a+b" is two deleted spaces, not " + b" replaced by "+b").
2. Word extension: a change whose edge falls inside a word grows to the word's edge (merging
   with the next change when the equality between is one word fragment).
   (`readable_regions` holds steps 1 and 2, `readable_pieces` steps 3 and 4.)
3. Anchors: inside each change, the longest run of whole words common to both sides becomes an
   equality, then the same on each side of it (Ratcliff/Obershelp on word units, weighted by
   characters), with the separators both sides share around it. That is what finds " glucose"
   above, and "42" in "The answer is 42." against "42".
4. Typos: a piece whose own edit distance is at most `TYPO_EDITS` is drawn character by
   character (one chunk per word), so "recieve" → "receive" shows `ie`→`ei`, not the word.

Then touching pieces of a change are one chunk (`[-The E-]{+e+}iffel`, not `[-The-][- E-]{+e+}`),
except a whitespace-only piece beside a change of another kind, and differing whitespace at the
very start or end of the texts is a piece of its own: "Hello.\n" against "Hello. It is nice."
inserts a sentence and drops the final newline (which the view can mark as ignorable), rather
than replacing a newline by a sentence.

Chunks always reassemble both texts (equal + delete = expected, equal + insert = actual), and
they are a different alignment from the exact script: their own edit count can exceed the
distance (50 against 49 on the pair above). The distance and the unit `edits` therefore always
come from the exact script; `chunk_edits` gives a chunk's own unit edits (the hover list).

Diff-match-patch itself (the PyPI package, checked) leaves the pair above as one deletion and one
insertion; its Myers core aligns the scattered letters too, so it is not used here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.moves import Move, chunks_around_moves, find_moves
from matchlens.core.diff.readable.pieces import (
    OPS,
    TYPO_EDITS,
    Chunk,
    op_of,
    write_change,
    write_equal,
)
from matchlens.core.diff.readable.regions import extend_to_words, merge_semantic
from matchlens.core.metrics.levenshtein import prepare
from matchlens.core.text import edit_script
from matchlens.core.text.edit_script import rest_opcodes, score_hint
from matchlens.core.text.word_edges import word_masks

__all__ = ["OPS", "Chunk", "Move", "ReadableDiff", "chunk_edits", "chunks_and_moves",
           "chunks_from_opcodes",
           "exact_edits", "exact_opcodes", "readable_diff"]


@dataclass(frozen=True)
class ReadableDiff:
    """A pair's readable chunks and its exact distance (see `readable_diff`)."""

    expected: str
    actual: str
    chunks: tuple[Chunk, ...]
    distance: int
    case_sensitive: bool = True
    # Pieces moved from one place to the other (`core.diff.moves`): each a whole deleted chunk
    # on the expected side and a whole inserted chunk on the actual side.
    moves: tuple[Move, ...] = ()

    def changes(self) -> list[Chunk]:
        """The chunks that are not equal: what the highlight draws and navigation walks."""
        return [c for c in self.chunks if c.op != "equal"]

    def edits(self) -> list[Chunk]:
        """The exact Levenshtein edit script, one entry per unit edit (len == distance): each
        a Chunk of one character replaced, deleted or inserted."""
        return exact_edits(self.expected, self.actual, case_sensitive=self.case_sensitive)

    def chunk_edits(self, chunk: Chunk) -> list[Chunk]:
        return chunk_edits(self.expected, self.actual, chunk,
                           case_sensitive=self.case_sensitive)

    def as_dict(self) -> dict[str, object]:
        """`distance`, `edits`, `chunks` and `moves` as `matchlens diff --json` prints them."""
        return {"distance": self.distance, "edits": [e.as_dict() for e in self.edits()],
                "chunks": [c.as_dict() for c in self.chunks],
                "moves": [m.as_dict() for m in self.moves]}


def readable_diff(expected: str, actual: str, *, case_sensitive: bool = True,
                  words: bool = False, compiled: bool | None = None) -> ReadableDiff:
    """The readable chunks of a pair and its exact Levenshtein distance.

    With `case_sensitive=False` both are computed on case-folded copies (same lengths, so the
    offsets hold for the originals) and case-only differences sit inside equal chunks. With
    `words=True` every change is whole words (no character-level typos). `compiled`: see
    `chunks_from_opcodes`.
    """
    e_cmp, a_cmp = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    ops = exact_opcodes(e_cmp, a_cmp)
    distance = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")
    moves, chunks = chunks_and_moves(e_cmp, a_cmp, ops, words=words, compiled=compiled)
    return ReadableDiff(expected, actual, tuple(chunks), distance, case_sensitive,
                        tuple(moves))


def chunks_and_moves(e: str, a: str, ops: Sequence[tuple[str, int, int, int, int]], *,
                     words: bool = False, compiled: bool | None = None,
                     script: Callable[[str, str], Sequence] | None = None
                     ) -> tuple[list[Move], list[Chunk]]:
    """The moves between `e` and `a` and the readable chunks around them: without moves the
    chunks of `ops`; with moves, each moved piece a chunk of its own and the rest diffed
    without them (`core.diff.moves`) by `script` (default: exact for short texts, anchored for
    long ones, `text.anchored_script`)."""
    moves = find_moves(e, a, ops)
    if not moves:
        return [], chunks_from_opcodes(e, a, ops, words=words, compiled=compiled)

    def chunker(e_rest: str, a_rest: str) -> list[Chunk]:
        # Only the chunks' layout: the distance and each move's edits come from `ops`, so
        # long texts are re-diffed between anchors, not whole once more.
        return chunks_from_opcodes(e_rest, a_rest, (script or rest_opcodes)(e_rest, a_rest),
                                   words=words, compiled=compiled)

    return moves, chunks_around_moves(e, a, moves, chunker, Chunk)


def exact_opcodes(e: str, a: str) -> list[tuple[str, int, int, int, int]]:
    """rapidfuzz's minimal edit script as (tag, i1, i2, j1, j2) runs (tags as in difflib),
    shared with the distance metrics through `edit_script`."""
    return edit_script.opcodes(e, a)


def exact_edits(expected: str, actual: str, *, case_sensitive: bool = True,
                exp_offset: int = 0, act_offset: int = 0) -> list[Chunk]:
    """The unit edits of the minimal script, offsets shifted by the given amounts."""
    e, a = prepare(expected, case_sensitive), prepare(actual, case_sensitive)
    out = []
    for tag, i, j in Levenshtein.editops(e, a, score_hint=score_hint(e, a)).as_list():
        i += exp_offset
        j += act_offset
        out.append(Chunk(tag, i, i + (tag != "insert"), j, j + (tag != "delete")))
    return out


def chunk_edits(expected: str, actual: str, chunk: Chunk, *, case_sensitive: bool = True
                ) -> list[Chunk]:
    """A chunk's own unit edits (its minimal script), in offsets of the whole texts."""
    return exact_edits(expected[chunk.exp_start:chunk.exp_end],
                       actual[chunk.act_start:chunk.act_end], case_sensitive=case_sensitive,
                       exp_offset=chunk.exp_start, act_offset=chunk.act_start)


# -- the four steps ------------------------------------------------------------------------------

# From this many opcode runs on, the compiled kernel writes the chunks. Below it the Python steps
# take well under a millisecond; above it they cost 10-40% on top of the script
# (bench_readable.py), which a process that diffs pair after pair (the compare view's lane)
# pays on every keystroke. Loading numba costs that process ~0.2-0.5 s once, and its compiled
# code from the disk cache ~0.15 s; the very first use after an install compiles the kernel
# (seconds, once per kind of text: ASCII or not) into that cache.
KERNEL_MIN_OPS = 64


def _kernel():  # noqa: ANN202
    """`readable_kernel.chunks_by_kernel`, or None without numba (a trimmed install) or in a
    frozen app (it has no compiled-code cache: every process would compile for seconds)."""
    if getattr(sys, "frozen", False):
        return None
    try:
        from matchlens.core.diff.readable.kernel import chunks_by_kernel
    except ImportError:
        return None
    return chunks_by_kernel


def chunks_from_opcodes(e: str, a: str, ops: Sequence[tuple[str, int, int, int, int]], *,
                        words: bool = False, compiled: bool | None = None) -> list[Chunk]:
    """Readable chunks of `e` and `a` given their exact opcodes (see the module docstring).

    Pairs with many changes take the compiled path (`readable_kernel`, same chunks), unless
    `compiled=False`: a process that diffs one pair and exits (`matchlens diff`) spends less on
    the Python steps (milliseconds at 100k characters) than on loading numba."""
    if len(ops) >= KERNEL_MIN_OPS and compiled is not False:
        kernel = _kernel()
        if kernel is not None:
            return kernel(e, a, ops, words=words)
    return python_chunks(e, a, ops, words=words)


def python_chunks(e: str, a: str, ops: Sequence[tuple[str, int, int, int, int]], *,
                  words: bool = False) -> list[Chunk]:
    """`chunks_from_opcodes` by the Python steps (short pairs; the kernel's reference)."""
    changes = merge_semantic(ops, e, a)
    changes = extend_to_words(e, a, changes, word_masks(e), word_masks(a))
    out: list[Chunk] = []
    # The equality not yet written starts at (e_pos, a_pos): it is written once, up to the next
    # change, rather than as pieces that `_equal` then joins (one call per change, not three).
    e_pos = a_pos = 0
    e_end, a_end = len(e), len(a)
    for i1, i2, j1, j2, original in changes:
        # (A change at the start or end of both texts may hold whitespace to put apart.)
        if (original is not None and not words and (i1 or j1)
                and (i2 != e_end or j2 != a_end)):
            o1, o2, p1, p2 = original
            if o2 - o1 <= TYPO_EDITS and p2 - p1 <= TYPO_EDITS:
                # A typo alone in its word(s): the exact script's own edit, as it is (what the
                # steps below would find, without re-aligning the word). The word around it
                # is equal on both sides, so it joins the equalities before and after.
                write_equal(out, e_pos, o1, a_pos, p1)
                out.append(Chunk(op_of(o1, o2, p1, p2), o1, o2, p1, p2))
                e_pos, a_pos = o2, p2
                continue
        write_equal(out, e_pos, i1, a_pos, j1)
        e_pos, a_pos = i2, j2
        write_change(out, e, a, i1, i2, j1, j2, words=words)
    write_equal(out, e_pos, len(e), a_pos, len(a))
    return out
