"""The compiled paths of batch BLEU and chrF against sacrebleu, where test_overlap_batch's
mixed alphabet rarely goes: batches that are all ASCII (their code points travel as bytes),
long texts that differ by a few typos (the kernel's aligned blocks), and tables that grow."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics.fast import bleu_tokens, sacrebleu_many
from matchlens.core.metrics.fast.ngram_matches import count_matches, pack, whitespace_table
from matchlens.core.metrics.sacrebleu_sentence import bleu_metric
from tests.core.metrics.test_overlap_batch import many, sacrebleu_scores

# what the 13a tokenizer and chrF treat specially, ASCII only: digits by dots, commas and
# dashes, the entities and markers it replaces, newlines, every ASCII whitespace of split()
ASCII = list("ab AB 1 9 . , - & ; / ( ) < > ' \n\t\r\x0b\x0c\x1c\x1f") + [
    "&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "-\n", "1,000", "3.5", "e.g.", "x-1"]
ASCII_TEXT = st.lists(st.sampled_from(ASCII), max_size=14).map("".join)
WIDE = ASCII + ["é", "ß", "日本", "\x85", "\u3000", "\u2028", "\ue000", "\U0001f600"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(ASCII_TEXT, ASCII_TEXT), min_size=1, max_size=12),
       st.sampled_from(["bleu", "chrf"]))
def test_ascii_batches_score_as_sacrebleu(pairs, metric_id):
    pairs = pairs + [(e, e) for e, _ in pairs[:2]] + [(pairs[0][0], a) for _, a in pairs[-2:]]
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    assert pack(expected + actual)[1].dtype == np.uint8  # the byte path is the one tested
    assert many(metric_id, expected, actual) == sacrebleu_scores(metric_id, expected, actual)


@st.composite
def typo_pairs(draw, alphabet):
    """A long reference and an output made of it by a few substitutions, insertions and
    deletions of pieces (what a model's near miss looks like)."""
    reference = "".join(draw(st.lists(st.sampled_from(alphabet), min_size=10, max_size=60)))
    output = reference
    for _ in range(draw(st.integers(0, 5))):
        at = draw(st.integers(0, len(output)))
        cut = draw(st.integers(0, 3))
        output = output[:at] + draw(st.sampled_from(["", *alphabet])) + output[at + cut:]
    return reference, output


@settings(max_examples=150, deadline=None)
@given(st.lists(typo_pairs(ASCII) | typo_pairs(WIDE), min_size=1, max_size=8),
       st.sampled_from(["bleu", "chrf"]))
def test_near_misses_score_as_sacrebleu(pairs, metric_id):
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    assert many(metric_id, expected, actual) == sacrebleu_scores(metric_id, expected, actual)


def test_the_whitespace_table_is_str_split_over_all_of_unicode():
    everywhere = {c for c in range(0x110000) if chr(c).isspace()}
    assert set(np.flatnonzero(whitespace_table()).tolist()) == everywhere
    assert "a\x1c\x85\u3000b".split() == ["a", "b"]  # split() is isspace(): 3 of them


def test_many_words_and_more_words_than_characters_per_four_grow_the_tables():
    # 3000 distinct one-character words (more than the 1024 the table starts with), and
    # more words than a quarter of the characters (the first guess of the id array's size)
    words = [chr(0x4E00 + i) for i in range(3000)]
    texts = [" ".join(words[i:i + 50]) for i in range(0, 3000, 25)] + ["a b c d e f"] * 40
    metric = bleu_metric()
    ids, starts, ends, alphabet = bleu_tokens.token_ids(metric, texts)
    want = [metric._preprocess_segment(t).split() for t in texts]
    assert [ids[s:e].tolist() for s, e in zip(starts, ends, strict=True)] == [
        [words.index(w) if w in words else 3000 + "abcdef".index(w) for w in text_words]
        for text_words in want]
    assert alphabet == 3006
    expected, actual = texts, texts[1:] + texts[:1]
    assert many("bleu", expected, actual) == sacrebleu_scores("bleu", expected, actual)


def clipped_matches(hyp, ref, order: int) -> list[int]:
    """The definition: per n, the sum over n-grams of min(count in hyp, count in ref)."""
    out = []
    for n in range(1, order + 1):
        h = Counter(tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1))
        r = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
        out.append(sum(min(c, r[g]) for g, c in h.items()))
    return out


@st.composite
def symbol_pairs(draw):
    """Two symbol sequences over a few symbols (repeats everywhere: blocks found in the wrong
    place, windows sifted by their first two symbols) or over many (more than 64 distinct:
    no sifting), the second often the first with a few edits."""
    alphabet = draw(st.sampled_from([2, 3, 8, 200]))
    symbol = st.integers(0, alphabet - 1)
    ref = draw(st.lists(symbol, max_size=90))
    hyp = list(ref)
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(hyp)))
        hyp[at:at + draw(st.integers(0, 4))] = draw(st.lists(symbol, max_size=3))
    if draw(st.booleans()):
        hyp = draw(st.lists(symbol, max_size=90))
    return hyp, ref


@settings(max_examples=300, deadline=None)
@given(st.lists(symbol_pairs(), min_size=1, max_size=6), st.sampled_from([4, 6]))
def test_the_kernel_counts_clipped_matches(pairs, order):
    texts = [s for pair in pairs for s in pair]
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    ends = np.cumsum(lengths)
    symbols = np.array([c for t in texts for c in t], dtype=np.int64)
    hyp = np.arange(0, len(texts), 2)
    got = count_matches(symbols, ends - lengths, ends, hyp, hyp + 1, order, 200)
    assert got.tolist() == [clipped_matches(h, r, order) for h, r in pairs]


def test_bleu_and_chrf_share_a_chunks_texts_and_each_scores_as_sacrebleu():
    from matchlens.core.metrics.registry import sharing_work

    expected = ["the cat sat.", "a-1 b", "same", "日本 語"] * 3
    actual = ["the cat sat", "a-1 b c", "same", "日本語"] * 3
    with sharing_work():
        bleu, chrf = many("bleu", expected, actual), many("chrf", expected, actual)
        texts = sacrebleu_many._texts(expected, actual)
        assert sacrebleu_many._texts(expected, actual) is texts  # packed once for both
    assert bleu == sacrebleu_scores("bleu", expected, actual)
    assert chrf == sacrebleu_scores("chrf", expected, actual)
