"""The batch paths of bleu, chrf and rouge_l give, to the bit, what the reference libraries give
pair by pair: sacrebleu's sentence_score (scaled and clipped as the single-pair path does) and
the single-pair path itself; in one process and in two."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.fast import bleu_tokens
from matchlens.core.metrics.fast.ngram_matches import UNKNOWN, count_matches, pack_texts
from matchlens.core.metrics.sacrebleu_sentence import bleu_metric, unit_score
from matchlens.core.scoring import parallel as parallel_batch
from matchlens.core.scoring.batch import MetricJob
from matchlens.core.scoring.parallel import run_to_completion

# Everything sacrebleu's 13a tokenizer and chrF treat specially: digits next to dots, commas
# and dashes; the entities and markers it replaces; newlines; the whitespace str.split() knows
# and Rust/regex '\s' may not (\x1c, \x85, \u3000); non-ASCII letters; a private-use
# character.
ALPHABET = list("ab AB 1 9 . , - & ; / ( ) < > é ß 日 \n\t\x1c\x85\u3000\ue000") + [
    "&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "-\n", "1,000", "3.5", "e.g.", "x-1",
    "\ue000"]
TEXT = st.lists(st.sampled_from(ALPHABET), max_size=14).map("".join)


def sacrebleu_scores(metric_id: str, expected, actual) -> list[float]:
    from sacrebleu.metrics import BLEU, CHRF

    metric = BLEU(effective_order=True) if metric_id == "bleu" else CHRF()
    return [unit_score(metric.sentence_score(a, [e]).score)
            for e, a in zip(expected, actual, strict=True)]


def many(metric_id: str, expected, actual) -> list[float]:
    spec = get_metric(metric_id)
    return spec.many(expected, actual, spec.resolve_options({})).scores.tolist()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=12),
       st.sampled_from(["bleu", "chrf"]))
def test_batch_scores_are_sacrebleus_sentence_scores(pairs, metric_id):
    # an output equal to its reference, and a reference repeated on another row, are the
    # shortcuts the batch path takes: make sure they occur
    pairs = pairs + [(e, e) for e, _ in pairs[:2]] + [(pairs[0][0], a) for _, a in pairs[-2:]]
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    assert many(metric_id, expected, actual) == sacrebleu_scores(metric_id, expected, actual)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_the_fast_13a_tokenizer_is_sacrebleus(text):
    metric = bleu_metric()
    assert bleu_tokens.bleu_preprocessor(metric)(text) == metric._preprocess_segment(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=10))
def test_texts_tokenised_together_come_out_as_alone(texts):
    """One id per distinct sacrebleu token, text by text, however the texts are joined."""
    metric = bleu_metric()
    words = [metric._preprocess_segment(t).split() for t in texts]
    ids, starts, ends, alphabet = bleu_tokens.token_ids(metric, texts)
    assert (ends - starts).tolist() == [len(w) for w in words]
    pairs = {(int(i), w) for t, text_words in enumerate(words)
             for i, w in zip(ids[starts[t]:ends[t]], text_words, strict=True)}
    assert len({i for i, _ in pairs}) == len({w for _, w in pairs}) == len(pairs)
    assert ids.size == 0 or 0 <= ids.min() <= ids.max() < alphabet


def test_pairs_the_kernel_cannot_encode_are_scored_by_sacrebleu():
    # 600 distinct characters in the differing middle: more than 6 of them fit in an int64
    # key (9 bits each), so the kernel marks the pair and sacrebleu scores it
    wide = "".join(map(chr, range(0x4E00, 0x4E00 + 600)))
    expected, actual = ["x" + wide, "ab", wide], ["y" + wide[::-1], "ab", wide[::-2]]
    symbols, starts, ends = pack_texts(expected + actual)
    counted = count_matches(symbols, starts, ends, np.arange(3, 6), np.arange(3), 6,
                            int(symbols.max()) + 1)
    assert counted[:, 0].tolist() == [UNKNOWN, 2, UNKNOWN]  # "ab" = "ab": 2 unigrams match
    assert many("chrf", expected, actual) == sacrebleu_scores("chrf", expected, actual)
    assert many("bleu", expected, actual) == sacrebleu_scores("bleu", expected, actual)


def test_without_numba_sacrebleu_scores_every_pair(monkeypatch):
    monkeypatch.setitem(sys.modules, "matchlens.core.metrics.fast.ngram_kernel", None)
    expected, actual = ["the cat sat", "1,000.5 km"], ["the cat sat down", "1000.5 km"]
    for metric_id in ("bleu", "chrf"):
        assert many(metric_id, expected, actual) == sacrebleu_scores(metric_id, expected, actual)


def dataset(n: int, seed: int = 5):
    rng = random.Random(seed)
    words = "Paris paris the a 1,000 3.5 - e.g. Ada 1815 x-1 & ( ) 東京".split()
    expected, actual = [], []
    for i in range(n):
        e = " ".join(rng.choices(words, k=rng.randint(0, 9)))
        a = e if i % 3 == 0 else " ".join(rng.choices(words, k=rng.randint(0, 9)))
        expected.append(None if i % 97 == 5 else e)
        actual.append(None if i % 89 == 7 else a)
    return expected, actual


@pytest.mark.skipif(not parallel_batch.can_fork(), reason="needs fork and two cores")
def test_two_processes_score_every_row_as_the_single_pair_path(monkeypatch):
    expected, actual = dataset(2400)
    jobs = [MetricJob(get_metric(m), None, get_metric(m).resolve_options({}))
            for m in ("bleu", "chrf", "rouge_l")]
    monkeypatch.setattr(parallel_batch, "PARALLEL_MIN_WORK", 0)
    forked = []
    real = parallel_batch._score_forked
    monkeypatch.setattr(parallel_batch, "_score_forked", lambda *a: forked.append(1) or real(*a))
    result = run_to_completion(expected, {"a": actual}, jobs, chunk_size=300)
    assert forked == [1]
    for job in jobs:
        want = [np.nan if e is None or a is None else evaluate(job.spec, e, a).score
                for e, a in zip(expected, actual, strict=True)]
        np.testing.assert_array_equal(result.scores[("a", job.id)], want)


WORDS = st.lists(st.sampled_from(["the", "Cat", "sat", "on", "mat", "x1", "dog,", "東京", "", "_",
                                  "\t", "\n", "Zoë"]), max_size=8).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=10))
def test_rouge_l_batch_is_the_single_pair_path(pairs):
    pairs = pairs + [(e, e) for e, _ in pairs[:2]]
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    spec = get_metric("rouge_l")
    want = [evaluate(spec, e, a).score for e, a in pairs]
    assert many("rouge_l", expected, actual) == want


JSON_TEXT = st.sampled_from(['{"a": 1}', '{"a": 2, "b": [1, 2]}', '[1, 2, 3]', '[1]', "null",
                             '{"a": {"b": "X"}}', '{"a": {"b": "x"}}', "not json", "",
                             '{"a": 1', '```json\n{"a": 1}\n```', "NaN", "1e400", "[" * 3000])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(JSON_TEXT, JSON_TEXT), min_size=1, max_size=10),
       st.fixed_dictionaries({"strip_code_fences": st.booleans(),
                              "case_insensitive_strings": st.booleans(),
                              "ignore_keys": st.sampled_from([[], ["b"]])}))
def test_json_distance_batch_is_the_single_pair_path(pairs, options):
    spec = get_metric("json_distance")
    resolved = spec.resolve_options(options)
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    got = spec.many(expected, actual, resolved)
    single = [evaluate(spec, e, a, options=options) for e, a in pairs]
    np.testing.assert_array_equal(
        got.scores, [np.nan if r.score is None else r.score for r in single])
    assert got.messages == {i: r.explanation for i, r in enumerate(single) if r.score is None}
    assert got.status.tolist() == [0 if r.score is not None else 1 for r in single]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20) | st.text(alphabet=[chr(c) for c in range(128)], max_size=20))
def test_the_ascii_word_split_is_the_rouge_regex(text):
    from matchlens.core.metrics.rouge import _rouge_tokens_fast, rouge_tokens

    assert _rouge_tokens_fast(text) == rouge_tokens(text)
