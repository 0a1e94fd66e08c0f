"""The exact distance before the exact script (`preview.proven_table`): on a reordered long text
the distance shown is Levenshtein's at once, the highlight the preview's, said to be one; where
the preview's script is minimal, the exact table itself."""

from __future__ import annotations

import random

import pytest
from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.pair import run_task
from matchlens.core.diff.preview import DISTANCE_TASK, preview_table, proven_table
from matchlens.core.diff.span_table import table_for
from matchlens.core.text import edit_script
from matchlens.core.text.anchored_script import anchored_opcodes
from matchlens.core.text.casefold import fold_case
from tests.core.script_checks import check_script

WORDS = "the of and a to in is it answer model light water sugar energy cell plant".split()


def _paragraphs(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS).capitalize() if i % 7 == 0 else rng.choice(WORDS)
                     for i in range(60)) + ".\n" for _ in range(n)]


def _typos(text: str, every: int, seed: int) -> str:
    rng = random.Random(seed)
    chars = list(text)
    for i in range(0, len(chars) - every, every):
        chars[i + rng.randrange(every)] = "#"
    return "".join(chars)


@pytest.fixture(autouse=True)
def long_from_small_texts(monkeypatch):
    """Texts of a few thousand characters take the long texts' road (anchored script first)."""
    monkeypatch.setattr(edit_script, "LONG_CHARS", 2_000)
    edit_script.clear()
    yield
    edit_script.clear()


OPTIONS = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}


def reordered(seed: int = 1) -> tuple[str, str]:
    """24 paragraphs, shuffled, with a typo every ~97 characters."""
    paragraphs = _paragraphs(24, seed)
    shuffled = paragraphs[:]
    random.Random(seed).shuffle(shuffled)
    return "".join(paragraphs), _typos("".join(shuffled), 97, seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_reordered_text_shows_levenshteins_distance_before_its_script(seed) -> None:
    e, a = reordered(seed)
    preview = preview_table(e, a, OPTIONS)
    table = proven_table(e, a, OPTIONS)
    exact = Levenshtein.distance(e, a)
    assert preview.distance > exact  # the preview's script is not minimal here ...
    assert table.distance == exact  # ... yet the distance shown is the exact one,
    assert table.distance_exact and not table.exact  # said to be exact, the script a preview's
    assert (table.exp == preview.exp).all() and (table.act == preview.act).all()
    assert run_task(DISTANCE_TASK, e, a, OPTIONS).distance == exact


def test_ignoring_case_it_is_the_distance_of_the_folded_texts() -> None:
    e, a = reordered(4)
    a = a.swapcase()
    options = {**OPTIONS, "case_sensitive": False}
    table = proven_table(e, a, options)
    assert table.distance == Levenshtein.distance(fold_case(e), fold_case(a))
    assert table.distance != Levenshtein.distance(e, a)


def test_where_the_preview_is_minimal_it_is_the_exact_table() -> None:
    e = "".join(_paragraphs(24, 5))
    a = _typos(e, 97, 5)  # scattered typos, nothing moved: the anchored script is minimal
    table = proven_table(e, a, OPTIONS)
    exact = table_for(e, a, OPTIONS)
    assert table.exact and not table.distance_exact
    assert table.distance == exact.distance == Levenshtein.distance(e, a)
    assert (table.exp == exact.exp).all() and (table.act == exact.act).all()


@pytest.mark.parametrize("seed", range(6))
def test_texts_cut_from_kept_texts_get_a_valid_script(seed) -> None:
    """The rest around a moved piece: the kept script re-diffed around the cuts still rebuilds
    both texts, and counts about what a fresh anchored script counts."""
    rng = random.Random(seed)
    e = "".join(_paragraphs(30, seed))
    a = _typos(e, 53, seed)
    whole = edit_script.anchored(e, a)
    cuts = []
    for text in (e, a):
        start = rng.randrange(len(text) - 300)
        cuts.append(text[:start] + text[start + rng.randrange(0, 200):])
    if seed % 3 == 0:
        cuts[1] = a  # one side cut only
    ops = edit_script.anchored(*cuts)
    assert ops is not whole
    count = check_script(*cuts, ops)
    fresh = check_script(*cuts, anchored_opcodes(*cuts))
    assert count <= fresh + 200  # at most the cut's characters more than a fresh script
