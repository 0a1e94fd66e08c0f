"""`normalise` (metrics.md, Normalisation): each step by hand, the squad preset against a plain
copy of SQuAD's normalize_answer, and the offset mapping the compare view draws from."""

from __future__ import annotations

import re
import string
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.errors import ConfigError
from matchlens.core.metrics import evaluate, get_metric
from matchlens.core.metrics.registry import all_metrics
from matchlens.core.text.normalise import parse_normalise, pipeline


def squad_normalize_answer(s: str) -> str:
    """SQuAD v1.1 / v2.0 evaluate script's normalize_answer, copied as published."""

    def remove_articles(text):
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def norm(value, text: str) -> str:
    return pipeline(parse_normalise(value)).apply(text)


@pytest.mark.parametrize(("steps", "text", "want"), [
    # lower() -> "the eiffel tower.", drop ".", drop "the" (-> " "), collapse -> "eiffel tower"
    ("squad", "The Eiffel Tower.", "eiffel tower"),
    # squad drops ASCII punctuation only: ’ (U+2019) and — (U+2014) stay; "a" between spaces goes
    ("squad", "It’s  a  test—ok!", "it’s test—ok"),
    # "the—end": "the" is a whole word (— is not a word character) and becomes " "; collapse
    # keeps the single space before "—": " —end" -> "—end"
    ("squad", "x—the—y", "x— —y"),
    # articles are whole words only: "another", "theme", "an1" (1 is a word character) stay
    ("squad", "another theme an1", "another theme an1"),
    # tabs and newlines are whitespace for collapse
    ("squad", "\tA\ncat\r\n", "cat"),
    # strip_punctuation drops every P* character: ’ (Pf), — (Pd), « » (Pi/Pf), ¿ (Po); $ is Sc
    (["strip_punctuation"], "«¿It’s—$5?»", "Its$5"),
    # remove_articles any case, each replaced by one space (as SQuAD): "The" -> " " before the
    # existing " cat" -> "  cat"; " AN " -> "   "
    (["remove_articles"], "The cat AN owl", "  cat   owl"),
    # nfkc: full-width digits and the ﬁ ligature become ASCII; lowercase is str.lower()
    (["nfkc", "lowercase"], "ＦＯＯ １２ ﬁne", "foo 12 fine"),
    # collapse: runs of any whitespace -> one space, ends stripped
    (["collapse_whitespace"], "  a \t\n b  ", "a b"),
    # ignore_regex drops every match
    (["ignore_regex:\\[\\d+\\]"], "Paris[1] is big[23]", "Paris is big"),
    # extract_regex keeps group 1 of the LAST match: GSM8K's final answer
    (["extract_regex:#### (-?[\\d,.]+)"], "#### 3\nso #### -1,000.5\n", "-1,000.5"),
    # no match: empty text
    (["extract_regex:#### (-?[\\d,.]+)"], "The answer is 42", ""),
    # steps run in order: lower-cased first, so the lower-case pattern matches
    (["lowercase", "extract_regex:answer: (\\w+)"], "Answer: Yes", "yes"),
])
def test_steps_by_hand(steps, text, want):
    assert norm(steps, text) == want


@pytest.mark.parametrize(("given_value", "want"), [
    ("squad", "squad"),
    ("none", []),
    ("", []),
    ("lowercase", ["lowercase"]),
    ("lowercase, strip_punctuation", ["lowercase", "strip_punctuation"]),
    ('["nfkc", "lowercase"]', ["nfkc", "lowercase"]),
    (["squad"], "squad"),
    # a regex step is taken whole, commas and all
    ("extract_regex:#### (-?[\\d,.]+)", ["extract_regex:#### (-?[\\d,.]+)"]),
])
def test_parse_forms(given_value, want):
    assert parse_normalise(given_value) == want


@pytest.mark.parametrize(("bad", "needle"), [
    ("shout", "unknown normalisation step 'shout'"),
    ("ignore_regex:(", "not a valid regular expression"),
    ("extract_regex:\\d+", "has no group"),
    (3, "must be a preset name or a list of steps"),
    ("[1, 2", "not a JSON array"),
])
def test_parse_rejects_with_a_sentence(bad, needle):
    with pytest.raises(ConfigError, match=re.escape(needle)):
        parse_normalise(bad, "exact_match.normalise")


def test_every_text_metric_has_the_option_and_token_f1_defaults_to_squad():
    text_ids = {"exact_match", "contains", "levenshtein_distance", "levenshtein_similarity",
                "jaccard", "bleu", "chrf", "rouge_l", "wer", "cer", "token_f1"}
    have = {spec.id for spec in all_metrics() if "normalise" in spec.default_options()}
    assert have == text_ids
    defaults = {m: get_metric(m).default_options()["normalise"] for m in text_ids}
    assert defaults.pop("token_f1") == "squad"
    assert set(map(str, defaults.values())) == {"[]"}


def test_normalise_reaches_single_and_batch_paths_alike():
    # "The Eiffel Tower." vs "eiffel tower": unequal as typed; equal after squad
    spec = get_metric("exact_match")
    assert evaluate(spec, "The Eiffel Tower.", "eiffel tower").score == 0.0
    result = evaluate(spec, "The Eiffel Tower.", "eiffel tower", options={"normalise": "squad"})
    assert result.score == 1.0 and "normalised: squad" in result.explanation
    many = spec.many(["The Eiffel Tower.", "Paris"], ["eiffel tower", "paris!"],
                     spec.resolve_options({"normalise": "squad"}))
    assert many.scores.tolist() == [1.0, 1.0]
    # levenshtein_distance after strip_punctuation: "a-b" -> "ab" vs "ab!" -> "ab": 0 edits
    lev = get_metric("levenshtein_distance")
    opts = lev.resolve_options({"normalise": ["strip_punctuation"]})
    assert lev.many(["a-b"], ["ab!"], opts).scores.tolist() == [0.0]
    assert evaluate(lev, "a-b", "ab!", options={"normalise": ["strip_punctuation"]}).score == 0


def test_scanned_planes_hold_all_punctuation_and_whitespace():
    # the P* and whitespace classes scan planes 0-1 only; they must hold every one there is
    beyond = [c for c in range(0x20000, sys.maxunicode + 1)
              if unicodedata.category(chr(c)).startswith("P") or chr(c).isspace()]
    assert beyond == []


# --- Hypothesis: squad against the plain copy, mapping against the fast path ----------------

# ASCII and Unicode punctuation, articles in several cases, tabs, newlines, NBSP, İ (lower()
# makes two characters of it), a ligature and full-width letters (nfkc).
PIECES = st.sampled_from(["a", "an", "the", "The", "AN", "A", "cat", "x", "İ", "ß", "ﬁ", "Ｂ",
                          ".", ",", "'", "’", "—", "«", "¿", "!", "-", "$", " ", "  ", "\t",
                          "\n", "\u00a0", "\u2003", "1", "_"])
TEXT = st.lists(PIECES, max_size=14).map("".join)
STEPS = st.lists(st.sampled_from(["nfkc", "lowercase", "strip_punctuation", "remove_articles",
                                  "collapse_whitespace", "ignore_regex:\\d",
                                  "extract_regex:(\\w+)\\W*"]), max_size=5)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_squad_preset_equals_normalize_answer(text):
    assert norm("squad", text) == squad_normalize_answer(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(STEPS, st.just("squad")), TEXT)
def test_mapping_gives_the_same_text_and_points_into_the_original(steps, text):
    p = pipeline(parse_normalise(steps))
    mapped = p.mapped(text)
    assert mapped.text == p.apply(text)
    assert len(mapped.origin) == len(mapped.text)
    real = mapped.origin[mapped.origin >= 0]
    assert (real < len(text)).all()
    assert (real[1:] >= real[:-1]).all()  # in reading order


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_removed_characters_are_exactly_those_no_output_comes_from(text):
    # for deletion-only steps every kept character is itself, unchanged, at its origin
    mapped = pipeline(["strip_punctuation", "ignore_regex:\\s"]).mapped(text)
    for ch, at in zip(mapped.text, mapped.origin.tolist(), strict=True):
        assert text[at] == ch
    removed = {i for s, e in mapped.removed_spans(len(text)) for i in range(s, e)}
    assert {i for i, ch in enumerate(text)
            if unicodedata.category(ch).startswith("P") or ch.isspace()} == removed


def test_mapping_by_hand():
    text = "The Eiffel Tower."
    mapped = pipeline("squad").mapped(text)
    # "The " goes (article + the space collapse drops), "." goes; the rest maps 4..15
    assert mapped.text == "eiffel tower"
    assert mapped.origin.tolist() == list(range(4, 16))
    assert mapped.removed_spans(len(text)) == [(0, 4), (16, 17)]


# Texts of ASCII only take squad's one-pass path (unless a control character other than
# whitespace is in them): words, articles, punctuation that glues words ("a.b" -> "ab", "the_"),
# and the control characters on both sides of that rule (\x1c is whitespace to split(), \x7f and
# \x00 are neither word nor space, so \b sits beside them).
ASCII_PIECES = st.sampled_from(["a", "an", "the", "The", "AN", "A", "thE", "cat", "x1", "_",
                                ".", "-", "'", "a.", "(the)", " ", "  ", "\t", "\n", "\x0b",
                                "\x1c", "\x1f", "\x7f", "\x00", "\x08"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(ASCII_PIECES, max_size=12).map("".join), max_size=6))
def test_squad_fast_path_and_memo_equal_normalize_answer(texts):
    want = [squad_normalize_answer(text) for text in texts]
    assert [norm("squad", text) for text in texts] == want
    # the batch form, with a memo shared by two calls as a chunk's two columns share it
    memo: dict[str, str] = {}
    assert pipeline("squad").apply_many(texts, memo) == want
    assert pipeline("squad").apply_many(texts[::-1], memo) == want[::-1]
