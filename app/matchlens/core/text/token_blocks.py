"""A long text's tokens kept in blocks, so that an edit re-tokenises one block, not the text.

The word metrics of the compare view (rouge_l, token_f1, jaccard, wer) split both texts into
words on every keystroke: at 100k characters a few milliseconds a metric, for a keystroke that
changed one word. `KeptTokens` keeps the tokens of the last few texts per tokenizer, cut into
blocks of about `BLOCK` characters; a text one small edit away from a kept one re-tokenises only
the blocks around the edit and shares every other block's tokens (the very same string objects,
so later comparisons are identity checks).

Blocks are cut right after a single space between two non-space characters. Every tokenizer
given here must be *local* at such a cut: the tokens of `x + y` are the tokens of `x` followed
by those of `y` when `x` ends with such a space. str.split, SQuAD's normalisation, rouge's
`[^\\W_]+` words and jiwer's units all are (each is checked by Hypothesis in the tests against
tokenising the whole text). Every `Tokens` also says which token span changed from the kept text
it came from (`change`), which the incremental metrics (`core.metrics.incremental_words`) use.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import chain

from matchlens.core.text.script_splice import changed_span

Tokenizer = Callable[[str], list[str]]

BLOCK = 1_024  # characters a block holds at least (but the last)
MAX_EDIT = 2_000  # a bigger change (a paste) is tokenised afresh
_KEEP = 4  # texts kept per tokenizer: both sides, and the one each was before the keystroke
_CUT = re.compile(r"(?<=\S) (?=\S)")  # a lone space between two non-space characters


@dataclass(eq=False)
class Tokens:
    """The tokens of `text`, block by block: block i starts at character `starts[i]`.

    `base` is the kept `Tokens` this one was derived from (or None), and `change` says how:
    `base.tokens[start:old_end]` became `tokens[start:new_end]`, every other token the same."""

    text: str = field(repr=False)
    starts: list[int]
    blocks: list[list[str]] = field(repr=False)
    tokens: list[str] = field(repr=False)
    base: Tokens | None = field(default=None, repr=False)
    change: tuple[int, int, int] | None = None

    def changed_from(self, other: Tokens | None) -> tuple[int, int, int] | None:
        """The token span that differs from `other` ((0, 0, 0) if it is this), or None if
        this was not derived from it."""
        if other is self:
            return 0, 0, 0
        if other is not None and self.base is other:
            return self.change
        return None


def _cuts(text: str, lo: int, hi: int) -> list[int]:
    """Block starts for text[lo:hi]: lo, then a cut at least BLOCK characters further each."""
    starts = [lo]
    while True:
        found = _CUT.search(text, starts[-1] + BLOCK, hi)
        if found is None or found.end() + 1 >= hi:  # keep the last block non-trivial
            return starts
        starts.append(found.end())


def _tokenised(tokenize: Tokenizer, text: str, starts: list[int], hi: int) -> list[list[str]]:
    ends = [*starts[1:], hi]
    return [tokenize(text[a:b]) for a, b in zip(starts, ends, strict=True)]


def tokens_whole(tokenize: Tokenizer, text: str) -> Tokens:
    """`text` tokenised block by block, from scratch."""
    starts = _cuts(text, 0, len(text))
    blocks = _tokenised(tokenize, text, starts, len(text))
    return Tokens(text, starts, blocks, list(chain.from_iterable(blocks)))


def _trimmed(old: list[str], new: list[str]) -> tuple[int, int]:
    """(common prefix, common suffix) of two short token lists, not overlapping."""
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def tokens_after_edit(tokenize: Tokenizer, kept: Tokens, text: str,
                      edit: tuple[int, int, int]) -> Tokens:
    """The tokens of `text`, which is `kept.text` with `kept.text[start:old_end]` replaced by
    `text[start:new_end]` (`edit`): the blocks around the edit re-tokenised, the rest shared."""
    start, old_end, new_end = edit
    delta = new_end - old_end
    starts = kept.starts
    # A cut at s (text[s - 1] the space) keeps its meaning if the three characters s-2..s are
    # untouched: all before the edit, or all after it.
    first = 0  # the last block whose start stays a cut before the edit
    for i, s in enumerate(starts):
        if s < start or i == 0:
            first = i
        else:
            break
    last = len(starts)  # the first block whose start stays a cut after the edit
    for i in range(first + 1, len(starts)):
        if starts[i] - 2 >= old_end:
            last = i
            break
    lo = starts[first]
    hi = starts[last] + delta if last < len(starts) else len(text)
    new_starts = _cuts(text, lo, hi)
    new_blocks = _tokenised(tokenize, text, new_starts, hi)
    before = sum(map(len, kept.blocks[:first]))
    old_count = sum(map(len, kept.blocks[first:last]))
    new_tokens = list(chain.from_iterable(new_blocks))
    tokens = [*kept.tokens[:before], *new_tokens, *kept.tokens[before + old_count:]]
    kept.base = None  # one generation is enough: a chain would keep every text typed
    head, tail = _trimmed(kept.tokens[before:before + old_count], new_tokens)
    change = (before + head, before + old_count - tail, before + len(new_tokens) - tail)
    return Tokens(text, [*starts[:first], *new_starts, *(s + delta for s in starts[last:])],
                  [*kept.blocks[:first], *new_blocks, *kept.blocks[last:]], tokens, kept,
                  change)


class KeptTokens:
    """The tokens of the last few texts given to `get`, for one tokenizer (thread-safe)."""

    def __init__(self, tokenize: Tokenizer) -> None:
        self.tokenize = tokenize
        self._kept: OrderedDict[str, Tokens] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> Tokens:
        with self._lock:
            found = self._kept.get(text)
            if found is not None:
                self._kept.move_to_end(text)
                return found
            candidates = list(reversed(self._kept.values()))
        nearest, nearest_edit, size = None, (0, 0, 0), MAX_EDIT + 1
        for kept in candidates:  # the one the fewest characters away (the text before the edit)
            if abs(len(kept.text) - len(text)) >= size:
                continue
            edit = changed_span(kept.text, text)
            if max(edit[1], edit[2]) - edit[0] < size:
                nearest, nearest_edit, size = kept, edit, max(edit[1], edit[2]) - edit[0]
        made = tokens_whole(self.tokenize, text) if nearest is None else \
            tokens_after_edit(self.tokenize, nearest, text, nearest_edit)
        with self._lock:
            self._kept[text] = made
            while len(self._kept) > _KEEP:
                self._kept.popitem(last=False)
        return made
