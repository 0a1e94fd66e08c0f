"""The words of a batch chunk, split once and numbered, for the word metrics (token_f1, wer,
rouge_l).

Splitting a million texts into Python strings, one per word, cost those metrics more than
their whole budget, so a chunk's texts are split by a compiled loop (word_kernel) into word
ids: a Python string is made only for each distinct word. A metric then tokenises each
DISTINCT word, not each text: its tokens of a text are the concatenation of its tokens of the
text's whitespace words. That holds for every tokenisation used here because none of them
looks across whitespace: SQuAD's normalisation (lower-casing, where only the final sigma looks
at its neighbours and whitespace ends that look; ASCII punctuation, per character; articles as
`\\b(a|an|the)\\b`, and whitespace is never a word character), rouge's `[^\\W_]+` runs and
jiwer's words (except where a lone tab or the like glues two words: `lone` marks those texts,
and a table with `glue` splits as jiwer does).
The tests check the premises over every code point and the results against the per-text code.

The table is shared by the metrics of one chunk (registry.shared), and so are the token ids of
each tokenisation. The squad preset of the other text metrics comes from the same tokens
(`normalised_by_word`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from matchlens.core.metrics.shared_work import shared

# str.isspace() holds for no code point above U+3000 (a test checks every one).
_SPACE_LIMIT = 0x3001


def code_points(texts: Sequence[str]) -> tuple[str, np.ndarray, np.ndarray]:
    """The texts joined, as the kernels read them: (joined, chars, text_ends). `chars` is one
    byte a character when all are ASCII, else one code point each (a lone surrogate, one
    character to Python, kept as one code point); `text_ends` the cumulative lengths."""
    joined = "".join(texts)
    if joined.isascii():  # one byte per character, copied as is
        chars = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    else:
        chars = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    text_ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)))
    return joined, chars, text_ends


@cache
def space_table() -> np.ndarray:
    return np.array([chr(c).isspace() for c in range(_SPACE_LIMIT)], dtype=np.bool_)


@dataclass(frozen=True)
class Words:
    """Texts as sequences of ids: text t is ids[starts[t]:ends[t]], the texts end to end in
    order. In a chunk's table the texts are the expected column then the actual column: row i
    is text i against text n + i."""

    ids: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    vocabulary: list[str]  # id -> the word (or token) it stands for

    def lengths(self) -> np.ndarray:
        return self.ends - self.starts


@dataclass(frozen=True)
class WordTable:
    words: Words
    lone: np.ndarray  # per text: a lone non-space whitespace character between two words


def word_table(expected: Sequence[str], actual: Sequence[str], glue: bool = False
               ) -> WordTable:
    """The whitespace words of both columns (str.split()'s), shared within a batch chunk.
    With `glue`, jiwer's words: a lone whitespace character other than " " between two words
    is part of one word."""
    # jiwer's table first: it is str.split()'s too unless a text holds a lone tab or the like,
    # and then str.split()'s words are those of each distinct glued word, split
    jiwer = shared(("word_table", True), (expected, actual),
                   lambda: _build([*expected, *actual], glue=True))
    if glue or not jiwer.lone.any():
        return jiwer
    return shared(("word_table", False), (expected, actual),
                  lambda: WordTable(retokenised(jiwer.words, str.split), jiwer.lone))


def _build(texts: list[str], glue: bool = False) -> WordTable:
    from matchlens.core.metrics.fast.word_kernel import FNV_PRIME, split_words

    joined, chars, text_ends = code_points(texts)
    ids, ends, first, length, lone = split_words(chars, text_ends, space_table(), FNV_PRIME, glue)
    starts = _starts(ends)
    vocabulary = [joined[s:s + n] for s, n in zip(first.tolist(), length.tolist(), strict=True)]
    return WordTable(Words(ids, starts, ends, vocabulary), lone)


def jaccard_scores(words: Words, n: int) -> np.ndarray:
    """Per row i of a chunk's table (text i against text n + i): distinct words in both /
    distinct words in either, 1.0 where neither text has a word. The counts are exact ints
    and one division each, so the scores equal Python's `len(E & A) / len(E | A)` to the bit."""
    from matchlens.core.metrics.fast.word_kernel import distinct_counts

    rows = np.arange(n, dtype=np.int64)
    left, right, both = distinct_counts(words.ids, words.starts, words.ends, rows, rows + n,
                                        max(len(words.vocabulary), 1))
    union = left + right - both
    scores = np.ones(n, dtype=np.float64)
    some = union > 0
    scores[some] = both[some] / union[some]
    return scores


def metric_tokens(expected: Sequence[str], actual: Sequence[str], normalise: str | None,
                  key: Hashable = None, tokenise: Callable[[str], list[str]] | None = None
                  ) -> Words:
    """The tokens a word metric scores: each whitespace word through the `normalise` preset
    (None, or one of normalising.WORD_PRESETS) and then `tokenise` (None: the word itself).
    Shared within a batch chunk by (preset, key)."""
    table = word_table(expected, actual)
    if not normalise and tokenise is None:
        return table.words
    per_word = _normalised_words(normalise) if normalise else None
    both: Callable[[str], list[str]]
    if per_word is None or tokenise is None:
        both = per_word or tokenise  # type: ignore[assignment]
    else:
        def both(word: str) -> list[str]:
            return [t for part in per_word(word) for t in tokenise(part)]
    return shared(("word_tokens", normalise, key), (table,),
                  lambda: retokenised(table.words, both))


def _normalised_words(preset: str) -> Callable[[str], list[str]]:
    from matchlens.core.text.normalise import pipeline

    apply = pipeline(preset).apply
    return lambda word: apply(word).split()


def retokenised(words: Words, tokenise: Callable[[str], list[str]]) -> Words:
    vocabulary: dict[str, int] = {}
    parts = [[vocabulary.setdefault(t, len(vocabulary)) for t in tokenise(w)]
             for w in words.vocabulary]
    sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    token_list = list(vocabulary)
    if len(parts) and (sizes == 1).all():  # one token per word: a plain lookup
        table = np.fromiter((p[0] for p in parts), dtype=np.int64, count=len(parts))
        return Words(table[words.ids], words.starts, words.ends, token_list)
    return Words(*_expand(words, parts, sizes), token_list)


def _expand(words: Words, parts: list[list[int]], sizes: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from matchlens.core.metrics.fast.word_kernel import expand

    flat = np.fromiter((t for p in parts for t in p), dtype=np.int64, count=int(sizes.sum()))
    ids, ends = expand(words.ids, words.ends, np.cumsum(sizes) - sizes, sizes, flat)
    return ids, _starts(ends), ends


def _starts(ends: np.ndarray) -> np.ndarray:
    starts = np.empty_like(ends)
    starts[:1] = 0
    starts[1:] = ends[:-1]
    return starts


# A token becomes one character (its id), so rapidfuzz's string path (C++) computes distances
# over tokens; the surrogate block is skipped.
_SURROGATES, _SURROGATE_COUNT = 0xD800, 0x800
MAX_TOKENS = 0x110000 - _SURROGATE_COUNT


def as_sequences(words: Words) -> list[str] | list[list[int]]:
    """Every text's ids as a string, one character per id, for rapidfuzz's string path; as
    lists of ints (its slower path) when there are more distinct ids than characters."""
    bounds = map(slice, words.starts.tolist(), words.ends.tolist())
    if len(words.vocabulary) > MAX_TOKENS:
        return list(map(words.ids.tolist().__getitem__, bounds))
    codes = words.ids + np.where(words.ids >= _SURROGATES, _SURROGATE_COUNT, 0)
    joined = codes.astype("<u4").tobytes().decode("utf-32-le")
    return list(map(joined.__getitem__, bounds))


def normalised_by_word(expected: Sequence[str], actual: Sequence[str], preset: str
                       ) -> tuple[list[str], list[str]]:
    """Both columns through the preset (one of normalising.WORD_PRESETS), for any metric: the
    chunk's tokens of the preset (shared: token_f1 scores those very tokens) joined back by
    single spaces in a compiled loop. squad(text) is " ".join of its tokens, so these are the
    texts `Pipeline.apply` gives, for less than half the work on a chunk of generated answers
    (normalising.normalised_pair uses it for big chunks: numba's import)."""
    from matchlens.core.metrics.fast.word_kernel import join_tokens

    tokens = metric_tokens(expected, actual, preset)
    vocabulary = tokens.vocabulary
    every = "".join(vocabulary)
    # ASCII tokens (isascii() is O(1)): one byte per character, and an ASCII decode (a copy)
    encoding, dtype = ("ascii", np.uint8) if every.isascii() else ("utf-32-le", np.uint32)
    pool = np.frombuffer(every.encode(encoding, "surrogatepass"), dtype=dtype)
    pool_ends = np.cumsum(np.fromiter(map(len, vocabulary), dtype=np.int64,
                                      count=len(vocabulary)))
    chars, ends = join_tokens(tokens.ids, tokens.ends, pool, pool_ends)
    joined = chars.tobytes().decode(encoding, "surrogatepass")
    texts = list(map(joined.__getitem__, map(slice, _starts(ends).tolist(), ends.tolist())))
    return texts[:len(expected)], texts[len(expected):]
