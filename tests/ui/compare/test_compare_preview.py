"""Long texts: a quick preview highlight first, labelled as one, replaced by the exact one."""

from __future__ import annotations

import random

from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_TASK, preview_table, proven_table
from matchlens.core.text import edit_script
from matchlens.ui.compare import text_scoring as text_scoring_module
from tests.core.diff.test_proven_distance import reordered
from tests.ui.conftest import set_pair

WORDS = "the of and a to in is it answer model light water sugar energy cell plant".split()


def _pair(n_words: int = 3000) -> tuple[str, str]:
    rng = random.Random(4)
    e = " ".join(rng.choice(WORDS) for _ in range(n_words))
    chars = list(e)
    for _ in range(len(chars) // 50):
        chars[rng.randrange(len(chars))] = "#"
    return e, "".join(chars)


def test_the_preview_is_asked_for_and_the_exact_table_stays(qtbot, compare_tab, monkeypatch):
    monkeypatch.setattr(text_scoring_module, "PREVIEW_MIN_CHARS", 1000)
    e, a = _pair()
    set_pair(qtbot, compare_tab, e, a)
    assert PREVIEW_TASK in compare_tab.scoring.requested  # it was asked for (and dropped if late)
    assert DISTANCE_TASK in compare_tab.scoring.requested  # and its exact distance after it
    table = compare_tab.current_table()
    assert table.exact  # whichever came first, the exact table is what stays
    assert "preview" not in compare_tab.difference_label.text()
    assert f"is {table.distance} edit" in compare_tab.difference_label.toolTip()


def test_short_texts_ask_for_no_preview(qtbot, compare_tab):
    set_pair(qtbot, compare_tab, *_pair(300))
    assert PREVIEW_TASK not in compare_tab.scoring.requested


def test_a_preview_on_screen_says_it_is_one(qtbot, compare_tab):
    e, a = _pair()
    set_pair(qtbot, compare_tab, e, a)
    options = compare_tab.align_options()
    preview = preview_table(e, a, options)
    compare_tab.set_table(preview)
    label = compare_tab.difference_label
    assert label.text().strip().endswith("(preview)")
    assert f"at most {preview.distance} edit" in label.toolTip()
    # it is drawn and navigable like the exact one
    assert compare_tab.difference_count() == len(preview.hunks) > 0
    compare_tab.next_difference()
    assert compare_tab.current_difference() == 0
    compare_tab.recompute()  # the exact table comes back and replaces it
    qtbot.waitUntil(lambda: compare_tab.current_table().exact, timeout=20000)
    assert "preview" not in label.text()


def test_a_preview_with_the_exact_distance_says_the_distance_is_exact(qtbot, compare_tab,
                                                                       monkeypatch):
    monkeypatch.setattr(edit_script, "LONG_CHARS", 2_000)  # the anchored script first
    edit_script.clear()
    e, a = reordered(1)  # paragraphs shuffled: the preview's script is not minimal
    set_pair(qtbot, compare_tab, e, a)
    options = compare_tab.align_options()
    table = proven_table(e, a, options)
    exact = Levenshtein.distance(e, a)
    assert preview_table(e, a, options).distance > exact == table.distance
    compare_tab.set_table(table)
    label = compare_tab.difference_label
    assert compare_tab.highlighted_edits() == exact
    assert label.text().strip().endswith(f"(preview; distance {exact:,} exact)")
    assert f"The exact Levenshtein distance is {exact} edits" in label.toolTip()
    assert "not a minimal one" in label.toolTip()
    edit_script.clear()
