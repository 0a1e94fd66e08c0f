"""bleu and chrf for many pairs at once, equal to sacrebleu's sentence scores to the bit.

sacrebleu scores a sentence in two steps: integer statistics (lengths and clipped n-gram
matches), then a float formula over them. Here the texts are prepared exactly as sacrebleu
prepares them (its own tokenizer for BLEU; whitespace removed by `str.split` for chrF), the
clipped matches are counted by a compiled kernel (ngram_matches), the rest of the statistics
follow from the lengths, and the float formula over them is sacrebleu's own or provably the
same bits (sacrebleu_formulas).
Pairs the kernel cannot count, and every pair when numba is missing, take sacrebleu's
sentence_score itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import chain, count
from typing import Any

import numpy as np

from matchlens.core.metrics.ngram_matches import UNKNOWN, count_matches, pack_texts
from matchlens.core.metrics.registry import ManyOutcome
from matchlens.core.metrics.sacrebleu_formulas import bleu_unit_scores, chrf_unit_scores
from matchlens.core.metrics.sacrebleu_metrics import _bleu, _chrf, sentence_score, unit_score


def bleu_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
              ) -> ManyOutcome:
    metric = _bleu()
    texts, hyp, ref = _distinct(expected, actual)
    tokens = _token_ids(metric, texts)
    if tokens is None:
        return _by_sentence(metric, expected, actual)
    ids, starts, ends = tokens
    order = metric.max_ngram_order
    matches = _count(ids, starts, ends, hyp, ref, order, int(ids.max()) + 1 if ids.size else 1)
    if matches is None:
        return _by_sentence(metric, expected, actual)
    lengths = ends - starts
    sys_len, ref_len = lengths[hyp], lengths[ref]
    totals = np.maximum(0, sys_len[:, None] - np.arange(order)[None, :])
    stats = np.column_stack([sys_len, ref_len, matches, totals])
    return _scores(stats, bleu_unit_scores, matches, metric, expected, actual)


def chrf_many(expected: Sequence[str], actual: Sequence[str], options: Mapping[str, Any]
              ) -> ManyOutcome:
    metric = _chrf()
    if metric.word_order or metric.lowercase or metric.whitespace:
        return _by_sentence(metric, expected, actual)  # not the configuration counted here
    texts, hyp, ref = _distinct(expected, actual)
    # sacrebleu's extract_all_char_ngrams: ''.join(line.split()), Python's notion of space
    symbols, starts, ends = pack_texts(list(map("".join, map(str.split, texts))))
    order = metric.char_order
    alphabet = int(symbols.max()) + 1 if symbols.size else 1
    matches = _count(symbols, starts, ends, hyp, ref, order, alphabet)
    if matches is None:
        return _by_sentence(metric, expected, actual)
    n = np.arange(1, order + 1)[None, :]
    lengths = ends - starts
    lh, lr = lengths[hyp][:, None], lengths[ref][:, None]
    # [n_hyp, n_ref, n_match] per order; no reference n-gram of an order: its hypothesis
    # n-grams are not counted either (`hyp_count if ref_ngrams else 0`)
    n_ref = np.maximum(0, lr - n + 1)
    n_hyp = np.where(n_ref > 0, np.maximum(0, lh - n + 1), 0)
    stats = np.stack([n_hyp, n_ref, matches], axis=2).reshape(len(hyp), 3 * order)
    return _scores(stats, chrf_unit_scores, matches, metric, expected, actual)


_SEPARATOR = "\ue000"  # a private-use character: between texts tokenised together


def _token_ids(metric: Any, texts: list[str]
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every text's BLEU tokens as ids (equal tokens, equal ids) end to end, and each text's
    start and end in them; None where sacrebleu's own tokenizer must do it.

    All texts are tokenised as one string, " t1 SEP t2 SEP ... ", in two stages:
    - the replacements and the first rule (space around symbols; see _13a_rules), whose
      patterns hold no space, on the whole string: each text comes out as it would alone;
    - the three rules about dots, commas and dashes look at two neighbouring characters and
      treat a space like any other non-digit, so they change a space-separated word the same
      wherever it stands: they run once per distinct word that holds one of . , - (a few
      hundred per chunk, where the regexes over the whole text would scan every character in
      Python's regex engine) and that word's tokens replace it.
    The tests compare the result with sacrebleu's tokenizer."""
    rules = _13a_rules(metric)
    if rules is None or not texts:
        return None
    spaced, dots, dashes = rules
    words = spaced(" " + f" {_SEPARATOR} ".join(map(str.rstrip, texts)) + " ").split()
    vocab: dict[str, int] = {}
    # a word's id: where it first occurs (one pass; fresh ids for new words)
    ids = np.fromiter(map(vocab.setdefault, words, count()), dtype=np.int64, count=len(words))
    split = {word: _punctuated(word, dots, dashes) for word in vocab
             if "." in word or "," in word or "-" in word}
    split = {word: parts for word, parts in split.items() if parts != [word]}
    if split:
        ids = _expand(ids, vocab, split, len(words))
    cuts = np.flatnonzero(ids == vocab.get(_SEPARATOR, -1))
    if len(cuts) != len(texts) - 1:  # a text holds the separator as a word of its own
        return None
    starts = np.concatenate([[0], cuts + 1]).astype(np.int64)
    ends = np.concatenate([cuts, [len(ids)]]).astype(np.int64)
    return ids, starts, ends


def _punctuated(word: str, dots, dashes) -> list[str]:
    line = f" {word} "
    for pattern, repl in dots:
        line = pattern.sub(repl, line)
    if "-" in line:
        for pattern, repl in dashes:
            line = pattern.sub(repl, line)
    return line.split()


def _expand(ids: np.ndarray, vocab: dict[str, int], split: dict[str, list[str]],
            fresh: int) -> np.ndarray:
    """Each occurrence of a split word's id replaced by the ids of its parts (vectorised: a
    table of every id's parts, gathered for every occurrence)."""
    next_id = count(fresh)
    parts = {vocab[word]: [vocab.setdefault(p, next(next_id)) for p in pieces]
             for word, pieces in split.items()}
    table = [np.arange(fresh, dtype=np.int64)]  # an unsplit id stands for itself
    first = np.arange(fresh, dtype=np.int64)
    size = np.ones(fresh, dtype=np.int64)
    at = fresh
    for word_id, pieces in parts.items():
        table.append(np.array(pieces, dtype=np.int64))
        first[word_id], size[word_id] = at, len(pieces)
        at += len(pieces)
    flat = np.concatenate(table)
    lengths = size[ids]
    ends = np.cumsum(lengths)
    # position j of the output takes part (j - start of its occurrence) of its word
    where = np.repeat(first[ids] - (ends - lengths), lengths) + np.arange(ends[-1] if len(ends) else 0)
    return flat[where]


def bleu_preprocessor(metric: Any) -> Callable[[str], str]:
    """`metric._preprocess_segment` (what sacrebleu does to a text before BLEU), faster."""
    rules = _13a_rules(metric)
    if rules is None:
        return metric._preprocess_segment
    spaced, dots, dashes = rules
    return lambda sent: " ".join(
        _punctuated(spaced(f" {sent.rstrip()} "), dots, dashes))


@cache
def _13a_rules(metric: Any) -> tuple[Callable[[str], str], list, list] | None:
    """sacrebleu's 13a tokenizer in two parts: a function doing its replacements and its first
    rule on a text wrapped in spaces, and its rules about dots and commas and about dashes
    (sacrebleu's own compiled patterns); None for any configuration other than the one this
    copies.

    sacrebleu spends nearly all its time in the first rule, which puts spaces around every
    ASCII symbol and space: on Python 3.11 `re.sub` expands the ' \\1 ' template in Python for
    each match, i.e. for every space of the text. The pattern is a class of single characters
    (ASCII only, checked), so the same tokens come from `str.replace(c, ' c ')` for each
    character c of the class but the space, each a C loop: a space spaced again only makes a
    longer run of spaces, which neither the final split nor the rules about dots, commas and
    dashes can tell from one space (to them a space is one more non-digit next to a dot)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer = metric.tokenizer
    if type(tokenizer) is not Tokenizer13a or metric.lowercase:
        return None
    rules = tokenizer._post_tokenizer._re
    if [(p.pattern, r) for p, r in rules] != _13A_RULES:
        return None
    symbols = [c for c in map(chr, range(128)) if c != " " and rules[0][0].fullmatch(c)]

    def spaced(line: str) -> str:
        # Tokenizer13a.__call__ (its wrapping in spaces commutes with these replacements:
        # none of their patterns holds a space)
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
            line = line.replace("&gt;", ">")
        for c in symbols:  # TokenizerRegexp's first rule
            if c in line:
                line = line.replace(c, f" {c} ")
        return line

    return spaced, list(rules[1:3]), list(rules[3:])


_13A_RULES = [
    (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
]


def _distinct(expected: Sequence[str], actual: Sequence[str]
              ) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Each distinct text once (an output equal to its reference, a reference on many rows),
    and for every row the index of its hypothesis (actual) and reference (expected) text."""
    if len(expected) != len(actual):
        raise ValueError("expected and actual must have the same length")
    index = {text: i for i, text in enumerate(dict.fromkeys(chain(expected, actual)))}
    hyp = np.fromiter(map(index.__getitem__, actual), dtype=np.int64, count=len(actual))
    ref = np.fromiter(map(index.__getitem__, expected), dtype=np.int64, count=len(expected))
    return list(index), hyp, ref


def _count(symbols, starts, ends, hyp, ref, order, alphabet) -> np.ndarray | None:
    try:
        return count_matches(symbols, starts, ends, hyp, ref, order, alphabet)
    except ImportError:  # numba missing (a trimmed install): sacrebleu scores every pair
        return None


def _scores(stats: np.ndarray, formula: Callable[[Any, np.ndarray], np.ndarray],
            matches: np.ndarray, metric: Any, expected: Sequence[str], actual: Sequence[str]
            ) -> ManyOutcome:
    """The scores of the statistics rows (sacrebleu_formulas), then sacrebleu's own for the
    rows the kernel could not count."""
    unknown = matches[:, 0] == UNKNOWN
    stats[unknown] = 0  # scored below; a -1 count would break the formula (log of < 0)
    scores = formula(metric, stats)
    for i in np.flatnonzero(unknown).tolist():
        scores[i] = unit_score(sentence_score(metric, actual[i], expected[i]).score)
    return ManyOutcome(scores, np.zeros(len(scores), dtype=np.int8))


def _by_sentence(metric: Any, expected: Sequence[str], actual: Sequence[str]) -> ManyOutcome:
    scores = np.fromiter((unit_score(sentence_score(metric, a, e).score)
                          for e, a in zip(expected, actual, strict=True)),
                         dtype=np.float64, count=len(expected))
    return ManyOutcome(scores, np.zeros(len(scores), dtype=np.int8))
