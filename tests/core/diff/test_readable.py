"""Readable chunks: few word-aligned pieces that reassemble both texts, beside the exact script."""

from __future__ import annotations

import random
import re
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.alignment import align
from matchlens.core.diff.readable.chunks import (
    Chunk,
    chunk_edits,
    exact_edits,
    exact_opcodes,
    readable_diff,
)
from matchlens.core.diff.readable.pieces import is_typo_pair, typo_pairs
from matchlens.core.diff.readable.regions import extend_to_words, merge_semantic
from matchlens.core.text.casefold import fold_case
from matchlens.core.text.word_edges import is_word_char, word_masks

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
    # a digit typo keeps its character; the words inserted right after it join it in one
    # chunk (touching pieces are one chunk, never "181[-5-]{+6+}{+ in London+}")
    ("born in 1815.", "born in 1816 in London.",
     [("equal", "born in 181"), ("replace", "5", "6 in London"), ("equal", ".", ".")]),
    ("", "abc", [("insert", "", "abc")]),
    ("abc", "", [("delete", "abc", "")]),
    ("same", "same", [("equal", "same", "same")]),
])
def test_small_cases(e, a, expected):
    # ("equal", text) stands for ("equal", text, text)
    expected = [item if len(item) == 3 else (item[0], item[1], item[1]) for item in expected]
    assert pieces(e, a) == expected


# Defects seen on real-looking pairs (`matchlens diff`), each with what a person reads.
@pytest.mark.parametrize(("e", "a", "expected"), [
    # a deleted word and the case typo touching it are one chunk, not "[-The-][- E-]{+e+}"
    ("The Eiffel Tower.", "eiffel tower",
     [("replace", "The E", "e"), ("equal", "iffel "), ("replace", "Tower.", "tower")]),
    ("Mitochondria is the powerhouse.", "The mitochondria are the powerhouse.",
     [("replace", "M", "The m"), ("equal", "itochondria "), ("replace", "is", "are"),
      ("equal", " the powerhouse.")]),
    # a dropped final newline beside an added sentence: an insertion and a whitespace-only
    # deletion (which the view marks as ignorable), not a newline replaced by a sentence
    ("Hello world.\n", "Hello world. It is nice.",
     [("equal", "Hello world."), ("insert", "", " It is nice."), ("delete", "\n", "")]),
    ("Hello.\n", "Hello!", [("equal", "Hello"), ("replace", ".", "!"), ("delete", "\n", "")]),
    # the answer kept inside a longer sentence is found although nothing precedes it
    ("The answer is 42.\n", "42",
     [("delete", "The answer is ", ""), ("equal", "42"), ("delete", ".\n", "")]),
    ("US GDP grew 2.5% in 2023.", "US GDP grew by 2.5 percent in 2023.",
     [("equal", "US GDP grew "), ("insert", "", "by "), ("equal", "2.5"),
      ("replace", "%", " percent"), ("equal", " in 2023.")]),
    # whitespace-only changes stay apart: the kept "+" and "b" are not absorbed into a change
    ("return a + b + c\n", "return a+b+c",
     [("equal", "return a"), ("delete", " ", ""), ("equal", "+"), ("delete", " ", ""),
      ("equal", "b"), ("delete", " ", ""), ("equal", "+"), ("delete", " ", ""),
      ("equal", "c"), ("delete", "\n", "")]),
    # an equality holding a line break is kept: the added line is an insertion after it
    ("2. Mix the flour.\n", "2. Mix flour and sugar.\n3. Bake.",
     [("equal", "2. Mix "), ("delete", "the ", ""), ("equal", "flour"),
      ("insert", "", " and sugar"), ("equal", ".\n"), ("insert", "", "3. Bake.")]),
])
def test_readability_defects(e, a, expected):
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
                               {"op": "equal", "expected": [1, 2], "actual": [1, 2]}],
                    "moves": []}
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


# Real-looking pairs (reference answer, model output) of the kinds a person evaluates: answer
# extraction, reordering, case, punctuation, numbers, code, trailing newlines, lists.
REAL = [
    ("The Eiffel Tower.", "eiffel tower"),
    ("Hello world.\n", "Hello world. It is nice."),
    ("Paris is the capital of France.", "The capital of France is Paris."),
    ("The answer is 42.", "The answer is forty-two."),
    ("The answer is 42.\n", "42"),
    ("Albert Einstein was born in 1879 in Ulm.", "Einstein was born in Ulm, Germany, in 1879."),
    ("Water boils at 100 degrees Celsius.", "Water boils at 100°C at sea level."),
    ("Yes", "Yes, that is correct."),
    ("positive", "Positive"),
    ("The mitochondria is the powerhouse of the cell.",
     "Mitochondria are the powerhouse of the cell."),
    ("George Washington", "Washington, George"),
    ("It was released in March 2021.", "It was released in May 2021."),
    ("The quick brown fox jumps over the lazy dog.", "A quick brown dog jumps over the lazy fox."),
    ("photosynthesis", "photosynthesys"),
    ("The function returns None.", "The function returns `None`."),
    ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a+b"),
    ("London, UK", "London, United Kingdom"),
    ("The total is $1,234.56.", "The total is $1234.56"),
    ("Shakespeare wrote Hamlet.", "William Shakespeare wrote the play Hamlet around 1600."),
    ("She doesn't like apples.", "She does not like apples."),
    ("The results were statistically significant (p < 0.05).",
     "Results were significant (p<0.05)."),
    ("Answer: B", "The answer is B."),
    ("1. Preheat the oven.\n2. Mix the flour.\n", "1. Preheat oven.\n2. Mix flour and sugar.\n3. Bake."),
    ("The meeting is on Monday at 10am.", "The meeting is on Tuesday at 10 am."),
    ("an apple a day", "An Apple a Day"),
    ("I will recieve the package tomorrow.", "I will receive the package tomorrow!"),
    ("The Great Wall of China is visible from space.",
     "The Great Wall of China is not visible from space with the naked eye."),
    ("Python 3.11 added faster CPython.", "Python 3.12 added a faster CPython."),
    ("Hello, World!", "hello world"),
    ("The sum of 2 and 3 is 5.", "2 + 3 = 5"),
    ("Sodium chloride (NaCl)", "NaCl (sodium chloride)"),
    ("  leading spaces", "leading spaces"),
    ("line one\nline two", "line one line two"),
    ("He said hello.", 'He said, "Hello."'),
    ("The U.S. GDP grew 2.5% in 2023.", "US GDP grew by 2.5 percent in 2023."),
    ("Q: What is 2+2?\nA: 4", "4"),
    ("The model outputs JSON.", "The model outputs valid JSON.\n\n"),
    ("Marie Curie won two Nobel Prizes.", "Marie Curie won 2 Nobel prizes, in 1903 and 1911."),
]


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


def _counterpart(chunks, side: str, start: int, end: int) -> tuple[int, int]:
    """The range of the other text that the chunks align with text[start:end] of `side`
    (a position inside a change maps to that change's outer edge)."""
    lo = hi = None
    for c in chunks:
        mine = (c.exp_start, c.exp_end) if side == "expected" else (c.act_start, c.act_end)
        other = (c.act_start, c.act_end) if side == "expected" else (c.exp_start, c.exp_end)
        if lo is None and mine[0] <= start <= mine[1] and (start < mine[1] or c is chunks[-1]):
            lo = other[0] + (start - mine[0] if c.op == "equal" else 0)
        if mine[0] <= end <= mine[1] and (end > mine[0] or mine[0] == mine[1] == 0):
            hi = other[0] + (end - mine[0] if c.op == "equal" else other[1] - other[0])
    return lo, hi


def word_splits(e: str, a: str, chunks) -> list[tuple[str, str, int]]:
    """For each change edge that falls inside a word, that word and how many edits the change
    makes inside it: its distance to what it is paired with, read either as the word at the
    same edge of the other text ("Eiffel"/"eiffel" for "[-The E-]{+e+}iffel") or as the text
    the chunks align with it ("1234"/"1,234" for "$1[-,-]234": a joined number)."""
    found = []
    for c in chunks:
        if c.op == "equal":
            continue
        for e_pos, a_pos in ((c.exp_start, c.act_start), (c.exp_end, c.act_end)):
            for side, text, other, pos, other_pos in (("expected", e, a, e_pos, a_pos),
                                                      ("actual", a, e, a_pos, e_pos)):
                if not _splits(text, pos):
                    continue
                start, end = _word_at(text, pos)
                word = text[start:end]
                at_edge = other[slice(*_word_at(other, other_pos))]
                aligned = other[slice(*_counterpart(chunks, side, start, end))]
                edits = min(Levenshtein.distance(word, at_edge),
                            Levenshtein.distance(word, aligned))
                found.append((word, at_edge if edits == Levenshtein.distance(word, at_edge)
                              else aligned, edits))
    return found


def test_prose_pairs_cover_every_kind_of_change():
    kinds = {kind for kind, _e, _a in PROSE}
    assert kinds == {"substitute", "insert", "delete", "typo", "mixed"}
    assert len(PROSE) >= 140


def test_readable_chunks_are_no_more_than_a_word_level_diff():
    worse = []
    total_readable = total_words = 0
    for _kind, e, a in PROSE:
        changes = readable_diff(e, a).changes()
        words = len(align(e, a, granularity="word").hunks)
        total_readable += len(changes)
        total_words += words
        if len(changes) > words:
            worse.append((e, a, len(changes), words))
    assert not worse, worse[:3]
    assert total_readable < total_words  # and fewer overall (merged neighbouring words)


@pytest.mark.parametrize("pairs", ["prose", "real"])
def test_no_chunk_boundary_splits_a_word_unless_the_change_there_is_a_typo(pairs):
    typo_splits = 0
    for e, a in ([(e, a) for _k, e, a in PROSE] if pairs == "prose" else REAL):
        chunks = readable_diff(e, a).chunks
        check_reassembles(e, a, chunks)
        for word, paired, edits in word_splits(e, a, chunks):
            assert edits <= 2, (e, a, word, paired)
            typo_splits += 1
    assert typo_splits > 0  # the typos are drawn by character: the rule was exercised


def test_touching_changes_are_one_chunk_unless_one_is_whitespace():
    # Touching non-equal chunks read as separate pieces of one change ("[-The-][- E-]"); the
    # only ones kept apart are whitespace-only pieces beside a change of another kind.
    for e, a in REAL + [(e, a) for _k, e, a in PROSE]:
        chunks = readable_diff(e, a).chunks
        for before, after in pairwise(chunks):
            if before.op != "equal" and after.op != "equal":
                blank = [(e[c.exp_start:c.exp_end] + a[c.act_start:c.act_end]).isspace()
                         for c in (before, after)]
                assert any(blank) and before.op != after.op, (e, a, before, after)


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
    changes = merge_semantic(exact_opcodes(e, a), e, a)
    by_mask = extend_to_words(e, a, changes, word_masks(e), word_masks(a))
    assert by_mask == extend_to_words(e, a, changes)


@given(st.lists(st.text(alphabet="abcdeé Ab.,\u00a0\t1", max_size=9), max_size=12),
       st.lists(st.text(alphabet="abcdeé Ab.,\u00a0\t1", max_size=9), max_size=12))
def test_the_typo_matrix_is_the_pairwise_rule(e_units, a_units):
    """pieces.typo_pairs (one cdist call) says what is_typo_pair says of every pair: the same
    cutoff, the same half-the-letters limit, equal units never typos."""
    got = typo_pairs(e_units, a_units)
    assert got.shape == (len(e_units), len(a_units))
    assert got.tolist() == [[is_typo_pair(x, y) for y in a_units] for x in e_units]
