"""The word metrics of a pair being typed into, updated by what the keystroke changed.

In the compare view a keystroke at 100k characters re-ran rouge_l (~17 ms: its tokens and a
full LCS), token_f1 (~10 ms: SQuAD's normalisation and two Counters), wer (~8 ms: a full word
edit script) and jaccard (~3 ms), all for one changed word. Here each keeps, per lane process,
the tokens of the last texts (`core.text.token_blocks`: only the edited block is re-tokenised)
and the last pair's answer, and updates it:

* `lcs`: the previous LCS minus the tokens the edit removed is a lower bound of the new one
  (a common subsequence loses at most one pair per removed token), and rapidfuzz told that
  bound computes the exact LCS in its band (~7x faster).
* `overlap`: both sides' token Counters, their multiset intersection (token_f1) and their
  shared distinct tokens (jaccard), moved by the removed and added tokens.
* `word_string`: wer's words as a string, one code point per distinct word, so the word edit
  script goes through `core.text.edit_script`, which splices a keystroke's script from the kept
  one and proves it minimal (exact distance in its band).

Every answer is exact: the same numbers as the whole computation (Hypothesis-checked after
random edit sequences in tests/core/metrics/test_incremental_words.py). Texts shorter than
`MIN_CHARS` take the metrics' plain paths.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import LCSseq

from matchlens.core.text.token_blocks import KeptTokens, Tokenizer, Tokens

MIN_CHARS = 2_000  # both texts together; below, the whole computation is a fraction of a ms
_MAX_WORDS = 1_000_000  # distinct words one process numbers before it starts again

_lock = threading.Lock()
_kept: dict[Tokenizer, KeptTokens] = {}
_lcs_memo: dict[Tokenizer, tuple[Tokens, Tokens, int]] = {}


def wanted(expected: str, actual: str) -> bool:
    """Whether the pair is long enough for the kept state to pay."""
    return len(expected) + len(actual) >= MIN_CHARS


def kept_tokens(tokenize: Tokenizer, text: str) -> Tokens:
    """`tokenize(text)` as kept `Tokens` (see token_blocks), per tokenizer function."""
    with _lock:
        kept = _kept.get(tokenize)
        if kept is None:
            kept = _kept[tokenize] = KeptTokens(tokenize)
    return kept.get(text)


def _removed(change: tuple[int, int, int]) -> int:
    return change[1] - change[0]


def lcs(tokenize: Tokenizer, expected: str, actual: str) -> tuple[int, int, int]:
    """(LCS length, expected tokens, actual tokens) of the two texts' tokens."""
    ref, hyp = kept_tokens(tokenize, expected), kept_tokens(tokenize, actual)
    cutoff = 0
    memo = _lcs_memo.get(tokenize)
    if memo is not None:
        old_ref, old_hyp, old_lcs = memo
        ref_change, hyp_change = ref.changed_from(old_ref), hyp.changed_from(old_hyp)
        if ref_change is not None and hyp_change is not None:
            cutoff = max(0, old_lcs - _removed(ref_change) - _removed(hyp_change))
    # exact: the true LCS is at least `cutoff`, so rapidfuzz never answers "below it" (0)
    found = int(LCSseq.similarity(ref.tokens, hyp.tokens, score_cutoff=cutoff))
    _lcs_memo[tokenize] = (ref, hyp, found)
    return found, len(ref.tokens), len(hyp.tokens)


@dataclass
class _Overlap:
    ref: Tokens
    hyp: Tokens
    ref_counts: Counter
    hyp_counts: Counter
    common: int  # sum over tokens of min(ref count, hyp count)
    shared: int  # tokens in both

    @classmethod
    def of(cls, ref: Tokens, hyp: Tokens) -> _Overlap:
        rc, hc = Counter(ref.tokens), Counter(hyp.tokens)
        common = shared = 0
        for key, n in rc.items():
            m = hc.get(key, 0)
            if m:
                common += min(n, m)
                shared += 1
        return cls(ref, hyp, rc, hc, common, shared)

    def _move(self, counts: Counter, other: Counter, tokens: Sequence[str], sign: int) -> None:
        for key in tokens:
            before = counts.get(key, 0)
            after = before + sign
            if after:
                counts[key] = after
            else:
                del counts[key]
            have = other.get(key, 0)
            if have:
                self.common += min(after, have) - min(before, have)
                self.shared += (after > 0) - (before > 0)

    def update(self, side: str, new: Tokens, change: tuple[int, int, int]) -> None:
        old = self.ref if side == "ref" else self.hyp
        counts, other = ((self.ref_counts, self.hyp_counts) if side == "ref"
                         else (self.hyp_counts, self.ref_counts))
        start, old_end, new_end = change
        self._move(counts, other, old.tokens[start:old_end], -1)
        self._move(counts, other, new.tokens[start:new_end], 1)
        if side == "ref":
            self.ref = new
        else:
            self.hyp = new


_overlaps: dict[Tokenizer, _Overlap] = {}


@dataclass(frozen=True)
class OverlapCounts:
    """What token_f1 and jaccard need of two token multisets."""

    ref_tokens: int
    hyp_tokens: int
    common: int  # the multiset intersection's size
    ref_distinct: int
    hyp_distinct: int
    shared: int  # distinct tokens in both


def overlap(tokenize: Tokenizer, expected: str, actual: str) -> OverlapCounts:
    """The overlap of the two texts' tokens, updated from the last pair's when one edit away."""
    ref, hyp = kept_tokens(tokenize, expected), kept_tokens(tokenize, actual)
    with _lock:  # the Counters are updated in place
        memo = _overlaps.get(tokenize)
        ref_change = ref.changed_from(memo.ref) if memo else None
        hyp_change = hyp.changed_from(memo.hyp) if memo else None
        if memo is None or ref_change is None or hyp_change is None:
            memo = _overlaps[tokenize] = _Overlap.of(ref, hyp)
        else:
            if ref_change != (0, 0, 0):
                memo.update("ref", ref, ref_change)
            if hyp_change != (0, 0, 0):
                memo.update("hyp", hyp, hyp_change)
        return OverlapCounts(len(ref.tokens), len(hyp.tokens), memo.common,
                             len(memo.ref_counts), len(memo.hyp_counts), memo.shared)


_numbers: dict[str, str] = {}
_strings: OrderedDict[int, tuple[Tokens, str]] = OrderedDict()


def _code(index: int) -> str:
    return chr(index if index < 0xD800 else index + 0x800)  # no surrogates


def _encoded(words: Sequence[str]) -> str:
    numbers = _numbers
    out = []
    for word in words:
        code = numbers.get(word)
        if code is None:
            code = numbers[word] = _code(len(numbers))
        out.append(code)
    return "".join(out)


def word_string(tokenize: Tokenizer, text: str) -> str | None:
    """The text's tokens as a string, one code point per distinct token (the same token, the
    same code point, in this process), so that edit scripts of token sequences are edit
    scripts of strings; None once too many distinct tokens were numbered (then the caller
    takes its token lists)."""
    tokens = kept_tokens(tokenize, text)
    with _lock:
        if len(_numbers) + len(tokens.tokens) > _MAX_WORDS:
            _numbers.clear()
            _strings.clear()
            return None
        found = _strings.get(id(tokens))
        if found is not None and found[0] is tokens:
            return found[1]
        base = _strings.get(id(tokens.base)) if tokens.base is not None else None
        if base is not None and base[0] is tokens.base and tokens.change is not None:
            start, old_end, new_end = tokens.change
            old = base[1]
            encoded = old[:start] + _encoded(tokens.tokens[start:new_end]) + old[old_end:]
        else:
            encoded = _encoded(tokens.tokens)
        _strings[id(tokens)] = (tokens, encoded)
        while len(_strings) > 6:
            _strings.popitem(last=False)
        return encoded
