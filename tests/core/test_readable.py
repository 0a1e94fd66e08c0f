"""Readable chunks: few word-aligned pieces that reassemble both texts, beside the exact script."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from matchlens.core.alignment import align
from matchlens.core.casefold import fold_case
from matchlens.core.readable import (
    Chunk,
    _extend_to_words,
    _merge_semantic,
    chunk_edits,
    exact_edits,
    exact_opcodes,
    is_word_char,
    readable_diff,
    word_masks,
)

SAMPLE_E = "such as glucose."
SAMPLE_A = "like glucose and starch. Oxygen is released as a byproduct."


def pieces(e: str, a: str, **options) -> list[tuple[str, str, str]]:
    diff = readable_diff(e, a, **options)
    return [(c.op, e[c.exp_start:c.exp_end], a[c.act_start:c.act_end]) for c in diff.chunks]


def differences(chunks) -> int:
    """Navigable differences: runs of touching non-equal chunks (what "difference 3 of 5"
    counts; a typo right before an insertion, "181[5→6]{+ in London+}", is one difference)."""
    count, previous = 0, "equal"
    for chunk in chunks:
        if chunk.op != "equal" and previous == "equal":
            count += 1
        previous = chunk.op
    return count


def check_reassembles(e: str, a: str, chunks, *, case_sensitive: bool = True) -> None:
    e_pos = a_pos = 0
    for c in chunks:
        assert (c.exp_start, c.act_start) == (e_pos, a_pos), "chunks must tile both texts"
        e_seg, a_seg = e[c.exp_start:c.exp_end], a[c.act_start:c.act_end]
        if c.op == "equal":
            same = e_seg == a_seg if case_sensitive else fold_case(e_seg) == fold_case(a_seg)
            assert same and e_seg, c
        elif c.op == "delete":
            assert e_seg and not a_seg, c
        elif c.op == "insert":
            assert a_seg and not e_seg, c
        else:
            assert c.op == "replace" and e_seg and a_seg, c
        e_pos, a_pos = c.exp_end, c.act_end
    assert (e_pos, a_pos) == (len(e), len(a))
    # The contract's wording: equal + delete chunks give expected, equal + insert give actual.
    assert "".join(e[c.exp_start:c.exp_end] for c in chunks if c.op != "insert") == e
    assert "".join(a[c.act_start:c.act_end] for c in chunks if c.op != "delete") == a


def apply_edits(e: str, a: str, edits) -> str:
    """Rewrite `e` with unit edits (each one character, in ascending order)."""
    out, pos = [], 0
    for edit in edits:
        out.append(e[pos:edit.exp_start])
        out.append(a[edit.act_start:edit.act_end])
        pos = edit.exp_end
    out.append(e[pos:])
    return "".join(out)


# --- the example and small cases --------------------------------------------------------

def test_sample_pair_reads_as_replaced_and_inserted_words():
    # The minimal script is 49 edits of scattered letters (su[ch] as gl[u]c[o]s[e]); the
    # readable pieces replace "such as" by "like", keep " glucose", insert the new sentence.
    assert pieces(SAMPLE_E, SAMPLE_A) == [
        ("replace", "such as", "like"),
        ("equal", " glucose", " glucose"),
        ("insert", "", " and starch. Oxygen is released as a byproduct"),
        ("equal", ".", "."),
    ]
    diff = readable_diff(SAMPLE_E, SAMPLE_A)
    assert diff.distance == Levenshtein.distance(SAMPLE_E, SAMPLE_A) == 49
    assert len(diff.edits()) == 49


@pytest.mark.parametrize(("e", "a", "expected"), [
    # one-character typos stay one character
    ("The quick brown fox", "The quack brown fox",
     [("equal", "The qu", "The qu"), ("replace", "i", "a"), ("equal", "ck brown fox")]),
    # a two-character swap inside a word is one chunk of two characters
    ("I will recieve it", "I will receive it",
     [("equal", "I will rec", "I will rec"), ("replace", "ie", "ei"), ("equal", "ve it")]),
    # three edits in one word: the whole word
    ("kitten sat", "sitting sat",
     [("replace", "kitten", "sitting"), ("equal", " sat", " sat")]),
    # an inserted word is inserted whole, whichever copy the minimal script matched
    ("the cat", "the cat cat", [("equal", "the cat"), ("insert", "", " cat")]),
    # a digit typo keeps its character, the words after it are inserted whole
    ("born in 1815.", "born in 1816 in London.",
     [("equal", "born in 181"), ("replace", "5", "6"), ("insert", "", " in London"),
      ("equal", ".", ".")]),
    ("", "abc", [("insert", "", "abc")]),
    ("abc", "", [("delete", "abc", "")]),
    ("same", "same", [("equal", "same", "same")]),
])
def test_small_cases(e, a, expected):
    # ("equal", text) stands for ("equal", text, text)
    expected = [item if len(item) == 3 else (item[0], item[1], item[1]) for item in expected]
    assert pieces(e, a) == expected


def test_words_mode_never_cuts_a_word():
    assert pieces("The quick brown fox", "The quack brown fox", words=True) == [
        ("equal", "The ", "The "), ("replace", "quick", "quack"), ("equal", " brown fox", " brown fox")]


def test_ignoring_case_case_only_text_is_equal():
    assert pieces("The Cat sat", "the cat SAT", case_sensitive=False) == [
        ("equal", "The Cat sat", "the cat SAT")]
    diff = readable_diff("The Cat sat", "the cat SAT", case_sensitive=False)
    assert diff.distance == 0 and diff.edits() == []
    assert readable_diff("The Cat", "the cat").distance == 2


def test_chunk_edits_are_the_chunks_own_unit_edits_in_text_offsets():
    diff = readable_diff(SAMPLE_E, SAMPLE_A)
    first = diff.changes()[0]
    edits = diff.chunk_edits(first)
    # "such as" -> "like": 4 substitutions and 3 deletions (Levenshtein of the two pieces)
    assert len(edits) == Levenshtein.distance("such as", "like") == 7
    assert all(0 <= ed.exp_start <= ed.exp_end <= first.exp_end for ed in edits)
    assert apply_edits(SAMPLE_E[:7], SAMPLE_A[:4], edits) == "like"
    insert = diff.changes()[1]
    shifted = chunk_edits(SAMPLE_E, SAMPLE_A, insert)
    assert [ed.op for ed in shifted] == ["insert"] * (insert.act_end - insert.act_start)
    assert shifted[0].act_start == insert.act_start == len("like glucose")


def test_json_shape():
    data = readable_diff("ab", "xb").as_dict()
    assert data == {"distance": 1,
                    "edits": [{"op": "replace", "expected": [0, 1], "actual": [0, 1]}],
                    "chunks": [{"op": "replace", "expected": [0, 1], "actual": [0, 1]},
                               {"op": "equal", "expected": [1, 2], "actual": [1, 2]}]}
    assert Chunk("equal", 0, 1, 0, 1).as_dict()["op"] == "equal"


# --- readability, measured on built prose pairs -------------------------------------------------

_SENTENCES = [
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "Ada Lovelace wrote the first algorithm intended for a machine in 1843.",
    "The capital of France is Paris, which lies on the river Seine.",
    "Water boils at one hundred degrees Celsius at sea level.",
    "The mitochondria produce most of the chemical energy needed by the cell.",
    "Shakespeare wrote Hamlet around the year 1600 for the Globe Theatre.",
    "The treaty was signed in Vienna after three weeks of negotiation.",
    "Neural networks learn representations from large amounts of labelled data.",
]
_VOCABULARY = ["quickly", "several", "the", "energy", "model", "output", "reference", "answer",
               "famous", "ancient", "modern", "river", "machine", "carefully", "outside"]


def _typo(word: str, rng: random.Random) -> str:
    """One or two character edits inside a word of four letters or more."""
    chars = list(word)
    for _ in range(rng.choice((1, 2))):
        i = rng.randrange(1, len(chars) - 1)
        action = rng.choice(("swap", "sub", "drop", "double"))
        if action == "swap":
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif action == "sub":
            chars[i] = rng.choice([c for c in "aeiourstn" if c != chars[i]])
        elif action == "drop" and len(chars) > 4:
            del chars[i]
        else:
            chars.insert(i, chars[i])
    return "".join(chars)


def prose_pairs(count: int = 160, seed: int = 14) -> list[tuple[str, str, str]]:
    """(kind, expected, actual): an original sentence and a copy with word substitutions,
    insertions, deletions, typos (1-2 character edits in words of 4+ letters) or a mix."""
    rng = random.Random(seed)
    pairs = []
    for n in range(count):
        original = rng.choice(_SENTENCES)
        words = original.split(" ")
        kind = ("substitute", "insert", "delete", "typo", "mixed")[n % 5]
        for _ in range(rng.randint(1, 3)):
            step = kind if kind != "mixed" else rng.choice(("substitute", "insert", "typo"))
            i = rng.randrange(len(words))
            if step == "substitute":
                words[i] = rng.choice([w for w in _VOCABULARY if w != words[i]])
            elif step == "insert":
                words[i:i] = rng.sample(_VOCABULARY, rng.randint(1, 3))
            elif step == "delete" and len(words) > 3:
                del words[i]
            elif len(re.sub(r"\W", "", words[i])) >= 4:
                words[i] = _typo(words[i], rng)
        pairs.append((kind, original, " ".join(words)))
    return pairs


PROSE = [p for p in prose_pairs() if p[1] != p[2]]


def _word_at(text: str, pos: int) -> tuple[int, int]:
    start = pos
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = pos
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return start, end


def _splits(text: str, pos: int) -> bool:
    return (0 < pos < len(text) and (text[pos - 1].isalnum() or text[pos - 1] == "_")
            and (text[pos].isalnum() or text[pos] == "_"))


def _edits_inside_word(e: str, a: str, chunks, side: str, word: tuple[int, int]) -> int:
    """Unit edits of the changes that touch a word on one side (an insertion point strictly
    inside the word counts)."""
    total = 0
    for c in chunks:
        if c.op == "equal":
            continue
        lo, hi = (c.exp_start, c.exp_end) if side == "expected" else (c.act_start, c.act_end)
        touches = lo < word[1] and hi > word[0] if hi > lo else word[0] < lo < word[1]
        if touches:
            total += Levenshtein.distance(e[c.exp_start:c.exp_end], a[c.act_start:c.act_end])
    return total


def test_prose_pairs_cover_every_kind_of_change():
    kinds = {kind for kind, _e, _a in PROSE}
    assert kinds == {"substitute", "insert", "delete", "typo", "mixed"}
    assert len(PROSE) >= 140


def test_readable_differences_are_no_more_than_a_word_level_diff():
    worse = []
    total_readable = total_words = 0
    for _kind, e, a in PROSE:
        chunks = readable_diff(e, a).chunks
        words = len(align(e, a, granularity="word").hunks)
        total_readable += differences(chunks)
        total_words += words
        if differences(chunks) > words:
            worse.append((e, a, differences(chunks), words))
    assert not worse, worse[:3]
    assert total_readable < total_words  # and fewer overall (merged neighbouring words)


def test_no_chunk_boundary_splits_a_word_unless_the_change_there_is_a_typo():
    typo_splits = 0
    for _kind, e, a in PROSE:
        chunks = readable_diff(e, a).chunks
        check_reassembles(e, a, chunks)
        for c in chunks:
            if c.op == "equal":
                continue
            for side, text, edges in (("expected", e, (c.exp_start, c.exp_end)),
                                      ("actual", a, (c.act_start, c.act_end))):
                for pos in edges:
                    if _splits(text, pos):
                        edits = _edits_inside_word(e, a, chunks, side, _word_at(text, pos))
                        assert edits <= 2, (e, a, side, pos, c)
                        typo_splits += 1
    assert typo_splits > 0  # the typos are drawn by character: the rule was exercised


def test_words_mode_splits_no_word_on_prose():
    for _kind, e, a in PROSE:
        chunks = readable_diff(e, a, words=True).chunks
        check_reassembles(e, a, chunks)
        for c in chunks:
            if c.op != "equal":
                assert not any(_splits(e, p) for p in (c.exp_start, c.exp_end)), (e, a, c)
                assert not any(_splits(a, p) for p in (c.act_start, c.act_end)), (e, a, c)


# --- properties -------------------------------------------------------------------------------

_ALPHABET = st.sampled_from(list("aabbcde AB.,\n\t") + ["ß", "İ", "Σ", "σ", "ς", "日", "\U0001F600",
                                                          "\u00a0", "_", "1"])
_TEXT = st.lists(st.one_of(_ALPHABET, st.sampled_from(["the ", "cat ", "sat. ", "glucose"])),
                 max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT, st.booleans(), st.booleans())
def test_chunks_reassemble_and_edits_count_the_distance(e, a, case_sensitive, words):
    diff = readable_diff(e, a, case_sensitive=case_sensitive, words=words)
    check_reassembles(e, a, diff.chunks, case_sensitive=case_sensitive)
    e_cmp = e if case_sensitive else fold_case(e)
    a_cmp = a if case_sensitive else fold_case(a)
    assert diff.distance == Levenshtein.distance(e_cmp, a_cmp)
    edits = diff.edits()
    assert len(edits) == diff.distance
    assert apply_edits(e_cmp, a_cmp, edits) == a_cmp
    assert all(ed.exp_end - ed.exp_start <= 1 and ed.act_end - ed.act_start <= 1 for ed in edits)


@settings(max_examples=100, deadline=None)
@given(_TEXT, _TEXT)
def test_chunk_edits_turn_each_chunk_into_its_counterpart(e, a):
    diff = readable_diff(e, a)
    for c in diff.changes():
        edits = chunk_edits(e, a, c)
        assert len(edits) == Levenshtein.distance(e[c.exp_start:c.exp_end],
                                                  a[c.act_start:c.act_end])
        assert apply_edits(e, a, edits)[c.exp_start:c.exp_start + c.act_end - c.act_start] \
            == a[c.act_start:c.act_end] or not edits


def test_exact_edits_of_a_long_pair_are_one_c_call():
    e = "lorem ipsum dolor sit amet " * 4000
    a = e.replace("dolor", "dolour", 50)
    edits = exact_edits(e, a)
    assert len(edits) == 50 and {ed.op for ed in edits} == {"insert"}


# ASCII only: the bytes-mask word edges exist for ASCII texts (other texts take the regex path).
_ASCII_TEXT = st.lists(st.one_of(st.sampled_from(list("aab cZ9_.,\n-")),
                                 st.sampled_from(["the ", "cat ", "sat. ", "glucose"])),
                       max_size=40).map("".join)


def test_word_mask_marks_exactly_the_word_characters():
    text = "".join(chr(c) for c in range(128))
    mask = word_masks(text)
    assert [bool(m) for m in mask] == [is_word_char(c) for c in text]
    assert word_masks("naïve") is None  # not ASCII: no mask, the regex helpers answer


@settings(max_examples=200, deadline=None)
@given(_ASCII_TEXT, _ASCII_TEXT)
def test_word_extension_by_mask_matches_the_regex_helpers(e, a):
    # Differential: the regex helpers (_splits/_word_start/_word_end, still the path for
    # non-ASCII text) are the reference the faster mask lookups must reproduce exactly.
    changes = _merge_semantic(exact_opcodes(e, a))
    by_mask = _extend_to_words(e, a, changes, word_masks(e), word_masks(a))
    assert by_mask == _extend_to_words(e, a, changes)
