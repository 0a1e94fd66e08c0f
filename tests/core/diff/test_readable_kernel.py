"""The compiled readable chunks (`readable_kernel`) equal the Python steps' on any pair."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff.readable.chunks import (
    KERNEL_MIN_OPS,
    chunks_from_opcodes,
    exact_opcodes,
    python_chunks,
)
from matchlens.core.diff.readable.compiled import SPACE, WORD
from matchlens.core.diff.readable.compiled import within as _within
from matchlens.core.diff.readable.kernel import (
    _ASCII_LUT,
    _FLAGS_LUT,
    chunks_by_kernel,
    text_arrays,
)
from matchlens.core.text.casefold import fold_case
from matchlens.core.text.word_edges import is_word_char

# Word characters, separators (a line break, a tab, a non-breaking space), non-ASCII letters
# and digits, an astral character: the kernel reads the texts as code arrays and masks.
_PIECES = st.one_of(st.sampled_from(list("aabbcde AB.,\n\t_1") + ["ß", "é", "日", "\u00a0",
                                                                  "\U0001F600", "٣"]),
                    st.sampled_from(["the ", "cat ", "sat. ", "glucose", "  ", "\n\n"]))
_TEXT = st.lists(_PIECES, max_size=60).map("".join)
_ASCII = st.lists(st.one_of(st.sampled_from(list("aab cZ9_.,\n-")),
                            st.sampled_from(["the ", "cat ", "sat. ", "glucose", "  "])),
                  max_size=60).map("".join)


def both(e: str, a: str, words: bool = False):
    ops = exact_opcodes(e, a)
    return chunks_by_kernel(e, a, ops, words=words), python_chunks(e, a, ops, words=words)


@settings(max_examples=150, deadline=None)
@given(st.one_of(_TEXT, _ASCII), st.one_of(_TEXT, _ASCII), st.booleans())
def test_kernel_chunks_equal_the_python_steps(e, a, words):
    kernel, python = both(e, a, words)
    assert kernel == python


@settings(max_examples=60, deadline=None)
@given(_TEXT, st.randoms(use_true_random=False))
def test_kernel_on_a_text_and_its_edited_copy(text, rng):
    # Random pairs share little; an edited copy is what the kernel mostly sees (typos, words).
    chars = list(text * 3)
    for _ in range(rng.randint(1, 12)):
        i = rng.randrange(len(chars) + 1)
        roll = rng.random()
        if roll < 0.3 and i < len(chars):
            chars[i] = rng.choice("xyz ,.é\n")
        elif roll < 0.6:
            chars.insert(i, rng.choice(["q", " new", "word ", "\n", "ü"]))
        elif i < len(chars):
            del chars[i]
    edited = "".join(chars)
    for words in (False, True):
        for e, a in ((text * 3, edited), (fold_case(text * 3), fold_case(edited))):
            kernel, python = both(e, a, words)
            assert kernel == python


# Word-level edits of prose: what makes changes of several words, a word kept beside an
# inserted one ("the" against "the cat the"), two-letter anchors and typo pairs among words.
_VOCABULARY = ["the", "cat", "is", "of", "energy", "light", "café", "naïve", "plant", "sat.",
               "and", "a", "I", "glucose,", "water\n", "into", "recieve", "receive", "bake"]


def _typo(word: str, draw_int) -> str:  # noqa: ANN001
    if len(word) < 3:
        return word + "x"
    i = draw_int(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


@st.composite
def _edited_prose(draw):  # noqa: ANN001, ANN202
    words = draw(st.lists(st.sampled_from(_VOCABULARY), min_size=1, max_size=14))
    edited = list(words)
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["substitute", "insert", "delete", "typo", "join"]))
        i = draw(st.integers(0, len(edited)))
        if kind == "insert" or not edited:
            edited[i:i] = draw(st.lists(st.sampled_from(_VOCABULARY), min_size=1, max_size=3))
            continue
        i = min(i, len(edited) - 1)
        if kind == "substitute":
            edited[i] = draw(st.sampled_from(_VOCABULARY))
        elif kind == "delete":
            del edited[i]
        elif kind == "typo":
            edited[i] = _typo(edited[i], lambda lo, hi: draw(st.integers(lo, hi)))
        elif i + 1 < len(edited):
            edited[i:i + 2] = [edited[i] + edited[i + 1]]
    separator = draw(st.sampled_from([" ", " ", ", ", "\n"]))
    return " ".join(words), separator.join(edited) + draw(st.sampled_from(["", "\n", " ."]))


@settings(max_examples=200, deadline=None)
@given(_edited_prose(), st.booleans(), st.booleans())
def test_kernel_on_edited_prose(pair, words, swap):
    e, a = pair[::-1] if swap else pair
    kernel, python = both(e, a, words)
    assert kernel == python


# Pairs that told a broken kernel from the Python steps (found by search), kept as fixed cases:
@pytest.mark.parametrize(("e", "a"), [
    # a two-letter anchor ("is": MIN_ANCHOR) beside deleted words
    ("receive not plant glucose, receive bake is light", "receive is"),
    ("light I to is is bake light", "light I tox is sat. receive is bake lgiht ."),
    # a lone word matching several of the other side: the first one is the anchor
    ("cat and", "cat\nreceive\nof\nand\nand ."),
    ("sat.", "recieve sat. sat. of a of into ."),
    # a one-letter word kept with the unit after it: a run long enough to anchor ("a I")
    ("plant or energy energy is a I .", "plant or energy energy is and a I recieve"),
    # two-character runs of the exact script (a swap, a joined word) written as they are
    ("to glucos,e recieve glucose, to of", "to glucose, recieve glucose, to of"),
    ("bakecafécat of thereceive a and energy sat. a .",
     "bake café cat of the receive and energy sat. a"),
])
def test_kernel_on_cases_found_by_search(e, a):
    for words in (False, True):
        kernel, python = both(e, a, words)
        assert kernel == python


def test_long_prose_pairs_take_the_kernel_and_match():
    rng = random.Random(5)
    vocabulary = ["energy", "light", "the", "plant's", "converts", "into", "sugar,", "and",
                  "leaf.\n", "cell", "naïve", "café"]
    words = [rng.choice(vocabulary) for _ in range(3000)]
    edited = [w if rng.random() > 0.05 else rng.choice([*vocabulary, "", w[::-1]])
              for w in words]
    e, a = " ".join(words), " ".join(edited)
    ops = exact_opcodes(e, a)
    assert len(ops) >= KERNEL_MIN_OPS  # so chunks_from_opcodes takes the kernel
    assert chunks_from_opcodes(e, a, ops) == python_chunks(e, a, ops)
    ascii_e, ascii_a = e.replace("ï", "i").replace("é", "e"), a.replace("ï", "i").replace("é", "e")
    ops = exact_opcodes(ascii_e, ascii_a)
    assert chunks_from_opcodes(ascii_e, ascii_a, ops) == python_chunks(ascii_e, ascii_a, ops)


def test_text_arrays_mark_word_and_space_characters_as_python_does():
    text = "".join(chr(c) for c in range(0x300)) + "日本\u2028\u3000٣\U0001F600\ud800"
    for wide in (True, False):
        sample = text if wide else text[:128]
        codes, classes = text_arrays(sample, wide)
        flags = (_FLAGS_LUT if wide else _ASCII_LUT)[classes]
        assert codes.tolist() == [ord(c) for c in sample]
        assert ((flags & WORD) != 0).tolist() == [is_word_char(c) for c in sample]
        assert ((flags & SPACE) != 0).tolist() == [c.isspace() for c in sample]


@pytest.mark.parametrize(("x", "y"), [("kitten", "sitting"), ("recieve", "receive"), ("", "ab"),
                                      ("abc", ""), ("ab", "ba"), ("a" * 40, "a" * 38 + "bb"),
                                      ("abcdef", "abdcef"), ("xabcdefy", "abcdef")])
def test_banded_distance_check_agrees_with_levenshtein(x, y):
    from rapidfuzz.distance import Levenshtein

    ex, ey = np.frombuffer(x.encode(), np.uint8), np.frombuffer(y.encode(), np.uint8)
    for limit in (1, 2, 3):
        assert _within(ex, 0, len(x), ey, 0, len(y), limit) == (
            Levenshtein.distance(x, y) <= limit), (x, y, limit)


def test_the_in_c_word_test_is_is_word_char_for_every_code_point():
    # write_typo joins the edits of one word by `_word_or_empty` (str.isalnum with "_" as a
    # letter) instead of calling is_word_char per character: the same answer for every
    # character, alone and in a run, and True for nothing between two edits
    from matchlens.core.diff.readable.pieces import _word_or_empty
    from matchlens.core.text.word_edges import is_word_char

    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    assert [c for c in chars if _word_or_empty(c) != is_word_char(c)] == []
    assert _word_or_empty("") and _word_or_empty("a_9é") and not _word_or_empty("a b")
