"""sacrebleu's 13a tokenization of many texts at once, as word ids (equal words, equal ids):
what batch BLEU counts n-grams of.

sacrebleu prepares a text thus: right-strip; remove '<skipped>' and '-\\n'; newlines to spaces;
four HTML entities to their characters; then, on ' text ', four regex rules, and split():
1. spaces around every ASCII symbol of a class (not . , - ' or alphanumerics);
2.-3. spaces around a dot or comma not between digits;
4. spaces after a digit's dash.
Here:
- the replacements run in Python, only on the texts holding '&', '<' or a newline (the others
  they leave as they are, and trailing whitespace makes no word);
- rule 1 and the split are one compiled scan over the code points of all texts (token_kernel):
  a symbol of the class is a word of its own, whitespace (str.split's, from str.isspace) ends
  a word, and each word gets its id from a hash table that compares candidates in full;
- rules 2-4 look at two neighbouring characters and treat a space like any other non-digit, so
  they cut a word the same wherever it stands: they run (sacrebleu's own compiled patterns) once
  per distinct word holding a dot, comma or dash, and each occurrence of a word they cut is
  replaced by the ids of its parts, compiled again.
The tests compare the words with sacrebleu's tokenizer, ASCII and not.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import accumulate
from typing import Any

import numpy as np

from matchlens.core.metrics.fast.ngram_matches import pack, whitespace_table

_13A_RULES = [
    (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
]


def token_ids(metric: Any, texts: list[str], packed: tuple | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int] | None:
    """Every text's 13a tokens as ids end to end, each text's start and end in them and the
    number of distinct ids; None where sacrebleu's own tokenizer must do it (another
    configuration, numba missing). `packed`: pack(texts), if at hand."""
    rules = _13a_rules(metric)
    if rules is None:
        return None
    try:
        from matchlens.core.metrics.fast import token_kernel as kernel
    except ImportError:
        return None
    replaced, symbol, dots, dashes = rules
    joined, cps, starts, ends = pack(texts) if packed is None else packed
    if "&" in joined or "<skipped>" in joined or "-\n" in joined:
        marked = kernel.flag_texts(cps, starts, ends, _MARKED)
        texts = list(texts)
        for i in np.flatnonzero(marked).tolist():
            texts[i] = replaced(texts[i].rstrip())
        joined, cps, starts, ends = pack(texts)
    ids, offsets, slots, word_hash, word_start, word_len, word_flag = kernel.words(
        cps, starts, ends, _kinds(metric))
    flagged = np.flatnonzero(word_flag)
    split, cuts, cut_offsets = [], [], [0]
    for w, at, size in zip(flagged.tolist(), word_start[flagged].tolist(),
                           word_len[flagged].tolist(), strict=True):
        word = joined[at:at + size]
        parts = punctuated(word, dots, dashes)
        if len(parts) > 1:
            if "".join(parts) != word:  # rules 2-4 only add spaces: never happens
                return None
            split.append(w)
            cuts.extend(accumulate(map(len, parts)))
            cut_offsets.append(len(cuts))
    n_words = len(word_hash)
    if split:
        ids, offsets, n_words = kernel.split_words(
            cps, ids, offsets, slots, word_hash, word_start, word_len,
            np.array(split, dtype=np.int64), np.array(cut_offsets, dtype=np.int64),
            np.array(cuts, dtype=np.int64))
    return ids, offsets[:-1], offsets[1:], n_words


_MARKED = np.zeros(128, dtype=np.bool_)  # texts the replacements may change
_MARKED[[ord("&"), ord("<"), ord("\n")]] = True


@cache
def _kinds(metric: Any) -> np.ndarray:
    """What each code point is to token_kernel.words: whitespace (str.split's), a symbol of
    rule 1, or a character rules 2-4 look for (. , -)."""
    from matchlens.core.metrics.fast.token_kernel import FLAGGED, SPACE, SYMBOL

    kinds = whitespace_table().astype(np.uint8) * SPACE
    kinds[:128] |= _13a_rules(metric)[1].astype(np.uint8) * SYMBOL
    kinds[[ord("."), ord(","), ord("-")]] |= FLAGGED
    return kinds


def punctuated(word: str, dots, dashes) -> list[str]:
    """Rules 2-4 on one word (no whitespace, no symbol of rule 1), split."""
    line = f" {word} "
    for pattern, repl in dots:
        line = pattern.sub(repl, line)
    if "-" in line:
        for pattern, repl in dashes:
            line = pattern.sub(repl, line)
    return line.split()


def bleu_preprocessor(metric: Any) -> Callable[[str], str]:
    """`metric._preprocess_segment` (what sacrebleu does to a text before BLEU), faster."""
    rules = _13a_rules(metric)
    if rules is None:
        return metric._preprocess_segment
    replaced, symbol, dots, dashes = rules
    symbols = [chr(c) for c in np.flatnonzero(symbol).tolist()]

    def spaced(line: str) -> str:
        # TokenizerRegexp's first rule by str.replace: see _13a_rules
        for c in symbols:
            if c in line:
                line = line.replace(c, f" {c} ")
        return line

    return lambda sent: " ".join(
        punctuated(spaced(f" {replaced(sent.rstrip())} "), dots, dashes))


@cache
def _13a_rules(metric: Any) -> tuple[Callable[[str], str], np.ndarray, list, list] | None:
    """sacrebleu's 13a tokenizer in parts: a function doing its replacements; the ASCII
    symbols of its first rule but the space (a table); its rules about dots and commas and
    about dashes (sacrebleu's own compiled patterns). None for any configuration other than
    the one this copies.

    The first rule's pattern is a class of single ASCII characters (checked): spacing each of
    them gives the same words as the regex (whose ' \\1 ' template Python expands for every
    match, i.e. every space of a text: nearly all of sacrebleu's time); a space spaced again
    is a longer run of spaces, which neither split() nor rules 2-4 tell from one space."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer = metric.tokenizer
    if type(tokenizer) is not Tokenizer13a or metric.lowercase:
        return None
    rules = tokenizer._post_tokenizer._re
    if [(p.pattern, r) for p, r in rules] != _13A_RULES:
        return None
    symbol = np.array([c != 32 and rules[0][0].fullmatch(chr(c)) is not None
                       for c in range(128)], dtype=np.bool_)

    def replaced(line: str) -> str:
        # Tokenizer13a.__call__ up to its post-tokenizer
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
            line = line.replace("&gt;", ">")
        return line

    return replaced, symbol, list(rules[1:3]), list(rules[3:])
