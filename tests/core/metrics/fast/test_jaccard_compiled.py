"""The compiled jaccard (jaccard's own kernel, fast.jaccard_kernel, and fast.word_table's
jaccard_scores over word_kernel.distinct_counts when a word metric built the table) and the
loading of the compiled kernels (fast.loading): both compiled paths equal the single-pair
definition (Python's word sets) on Unicode whitespace and case folding, and so does the Python
batch path a small run keeps; loading numba leaves scipy.linalg importable."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.metrics import get_metric, jaccard
from matchlens.core.metrics.fast import jaccard_kernel, loading
from matchlens.core.metrics.registry import sharing_work
from matchlens.core.text.casefold import fold_many

# Words whose case folding is unusual (İ lowers to two code points and fold_case keeps it; the
# final sigma depends on its neighbours; ß and ﬁ have no one-character upper case; K is the
# Kelvin sign), words equal but for case, and every kind of whitespace str.split() knows:
# \x1c-\x1f and \x85 are whitespace to it, \u200b (zero width space) is not.
PIECES = ["the", "The", "THE", "a", "A", "İ", "i̇", "ΣΑΣ", "σας", "ς", "Σ", "ß", "SS", "ﬁ",
          "K", "k", "東京", "Zoë", "ZOË", "_", "x1", "\u200b", "\x00"]
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f",
          "\x85", "\u00a0", "\u1680", "\u2000", "\u2028", "\u2029", "\u202f", "\u205f",
          "\u3000"]
TEXT = st.lists(st.sampled_from(PIECES + SPACES), max_size=10).map("".join)
ASCII_TEXT = st.lists(st.sampled_from([p for p in PIECES + SPACES if p.isascii()]),
                      max_size=10).map("".join)
# Rows of a chunk: some pairs equal (jaccard 1 without splitting), some empty
PAIRS = st.lists(st.tuples(TEXT, TEXT) | st.tuples(ASCII_TEXT, ASCII_TEXT)
                 | TEXT.map(lambda t: (t, t)), min_size=1, max_size=12)


def _batch(expected, actual, case_sensitive):
    spec = get_metric("jaccard")
    with sharing_work():
        many = spec.many(expected, actual, spec.resolve_options({"case_sensitive": case_sensitive}))
    assert not many.status.any()
    return many.scores


def _reference(expected, actual, case_sensitive):
    """The definition, pair by pair: len(E & A) / len(E | A) of the word sets, 1 if both are
    empty."""
    return np.array([jaccard.jaccard_score(jaccard.word_set(e, case_sensitive),
                                           jaccard.word_set(a, case_sensitive))
                     for e, a in zip(expected, actual, strict=True)])


@pytest.fixture(scope="module", autouse=True)
def _kernels():
    loading.load_kernels()


@settings(max_examples=300, deadline=None)
@given(PAIRS, st.booleans())
def test_the_compiled_jaccard_equals_the_word_sets(pairs, case_sensitive):
    expected, actual = map(list, zip(*pairs, strict=True))
    assert loading.kernels_loaded()
    got = _batch(expected, actual, case_sensitive)
    assert got.tobytes() == _reference(expected, actual, case_sensitive).tobytes()  # to the bit


@settings(max_examples=100, deadline=None)
@given(PAIRS, st.booleans())
def test_the_python_batch_path_equals_the_word_sets(pairs, case_sensitive):
    # the path a run below JACCARD_COMPILED_FROM_ROWS takes, numba not loaded
    expected, actual = map(list, zip(*pairs, strict=True))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jaccard, "kernels_loaded", lambda: False)
        got = _batch(expected, actual, case_sensitive)
    assert got.tobytes() == _reference(expected, actual, case_sensitive).tobytes()


@settings(max_examples=300, deadline=None)
@given(PAIRS, st.booleans(), st.sampled_from([jaccard_kernel.FNV_PRIME, np.uint64(0)]))
def test_jaccards_own_kernel_counts_the_word_sets(pairs, case_sensitive, prime):
    # the kernel a run without a word metric takes (no chunk word table); prime 0 gives every
    # word the same hash, so words must be told apart by their characters
    expected, actual = map(list, zip(*pairs, strict=True))
    if not case_sensitive:
        expected, actual = fold_many(expected), fold_many(actual)
    sets = [(jaccard.word_set(e), jaccard.word_set(a))
            for e, a in zip(expected, actual, strict=True)]
    want = [[len(e) for e, _ in sets], [len(a) for _, a in sets], [len(e & a) for e, a in sets]]
    assert jaccard_kernel.pair_counts(expected, actual, prime).tolist() == want
    # equal texts are not split when skipped: (0, 0, 0), jaccard 1 as their word sets give
    skipped = jaccard_kernel.pair_counts(expected, actual, prime, skip_equal=True).T.tolist()
    assert skipped == [[0, 0, 0] if e == a else list(c)
                       for e, a, c in zip(expected, actual, zip(*want, strict=True), strict=True)]


@settings(max_examples=200, deadline=None)
@given(PAIRS, st.booleans())
def test_jaccards_own_kernel_scores_equal_the_word_sets(pairs, case_sensitive):
    # the scores a run without a word metric gets from 150k rows (equal pairs unsplit)
    expected, actual = map(list, zip(*pairs, strict=True))
    folded = (expected, actual) if case_sensitive else (fold_many(expected), fold_many(actual))
    got = jaccard_kernel.jaccard_from_chars(*folded)
    assert got.tobytes() == _reference(expected, actual, case_sensitive).tobytes()  # to the bit


def test_a_pair_with_many_words_grows_the_table():
    # 1,000 distinct words a side (the table starts with 128 words' room); 500 shared
    expected = " ".join(f"w{i}" for i in range(1000))
    actual = " ".join(f"w{i}" for i in range(500, 1500))
    counts = jaccard_kernel.pair_counts(["a", expected, "b"], ["a", actual, "c"])
    assert counts[:, 1].tolist() == [1000, 1000, 500]
    assert counts[:, [0, 2]].tolist() == [[1, 1], [1, 1], [1, 0]]


def test_jaccard_takes_the_word_table_once_the_word_kernels_are_loaded():
    # a run with a word metric loads word_kernel and jaccard shares its table; a run without
    # one (in a fresh process) loads jaccard's own kernel only; both paths score alike
    code = (
        "import sys\n"
        "from matchlens.core.metrics import get_metric\n"
        "from matchlens.core.metrics.fast import loading\n"
        "from matchlens.core.metrics.registry import sharing_work\n"
        "spec = get_metric('jaccard')\n"
        "loading.load_kernels([spec, get_metric(sys.argv[1])])\n"
        "with sharing_work():\n"
        "    got = spec.many(['a b c', 'x y', 'same'], ['a c d', 'y z', 'same'],\n"
        "                    spec.resolve_options({})).scores.tolist()\n"
        "print(got, *(name in sys.modules for name in loading.KERNEL_MODULES))\n")
    # E = {a, b, c}, A = {a, c, d}: 2 of 4; {x, y} / {y, z}: 1 of 3; equal texts: 1
    scores = "[0.5, 0.3333333333333333, 1.0]"
    for metric, loaded in (("token_f1", "True False"), ("exact_match", "False True")):
        out = subprocess.run([sys.executable, "-c", code, metric], capture_output=True,
                             text=True, check=True).stdout.strip()
        assert out == f"{scores} {loaded}"


def test_a_word_repeated_counts_once_on_each_side():
    # E = {a, b}, A = {a, c}: 1 shared of 3 distinct words, whatever the repeats; the last
    # pair has no words at all (1 by definition)
    got = _batch(["a a b b", "a b", " \u3000 "], ["a c c a", "b\x1ca", "\x85"], True)
    assert got.tolist() == [1 / 3, 1.0, 1.0]


def test_kernels_are_due_from_the_rows_a_metric_names():
    jaccard_spec = get_metric("jaccard")
    assert jaccard_spec.compiled_from_rows == loading.JACCARD_COMPILED_FROM_ROWS
    assert get_metric("token_f1").compiled_from_rows == 0
    assert get_metric("exact_match").compiled_from_rows is None
    code = (
        "from matchlens.core.metrics import get_metric\n"
        "from matchlens.core.metrics.fast import loading as l\n"
        "j, e, t = (get_metric(m) for m in ('jaccard', 'exact_match', 'token_f1'))\n"
        "n = l.JACCARD_COMPILED_FROM_ROWS\n"
        "print(l.kernels_due([j, e], n - 1), l.kernels_due([j, e], n), l.kernels_due([e], 10**9),"
        " l.kernels_due([t], 0))\n"
        "l.load_kernels()\n"
        "print(l.kernels_due([t], 0))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "True", "False", "True", "False"]


def test_loading_the_kernels_leaves_scipy_linalg_importable():
    # numba's BLAS check is kept from importing scipy.linalg; afterwards it imports as ever
    # and a compiled np.dot (which needs BLAS) still works
    code = (
        "import sys\n"
        "from matchlens.core.metrics.fast.loading import load_kernels\n"
        "load_kernels()\n"
        "print('scipy.linalg' in sys.modules)\n"
        "import numba, numpy as np, scipy.linalg\n"
        "f = numba.njit(lambda a, b: np.dot(a, b))\n"
        "print(f(np.ones(3), np.ones(3)), scipy.linalg.det(np.eye(2)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "3.0", "1.0"]
