"""Moved text (`core.diff.moves`): found on built pairs, linked, never invented, distance exact."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from matchlens.core.diff.moves import Move, find_moves
from matchlens.core.diff.readable.chunks import exact_opcodes, readable_diff


def moved_texts(e: str, a: str) -> list[tuple[str, str]]:
    return [(e[m.exp_start:m.exp_end], a[m.act_start:m.act_end])
            for m in readable_diff(e, a).moves]


def assert_whole(e: str, a: str) -> None:
    """Chunks reassemble both texts, each move is one whole chunk on each side, and the
    distance is the exact Levenshtein distance."""
    diff = readable_diff(e, a)
    assert "".join(e[c.exp_start:c.exp_end] for c in diff.chunks) == e
    assert "".join(a[c.act_start:c.act_end] for c in diff.chunks) == a
    assert diff.distance == Levenshtein.distance(e, a) == len(diff.edits())
    deleted = {(c.exp_start, c.exp_end) for c in diff.chunks if c.op == "delete"}
    inserted = {(c.act_start, c.act_end) for c in diff.chunks if c.op == "insert"}
    for m in diff.moves:
        assert (m.exp_start, m.exp_end) in deleted
        assert (m.act_start, m.act_end) in inserted


def test_one_moved_sentence():
    e = "The sky is blue today. Cats like to sleep all day. Dogs bark at night."
    a = "Cats like to sleep all day. Dogs bark at night. The sky is blue today."
    assert moved_texts(e, a) == [("The sky is blue today.", "The sky is blue today.")]
    diff = readable_diff(e, a)
    # Everything else is equal: the two sentences that stayed are one equal chunk.
    assert [e[c.exp_start:c.exp_end] for c in diff.chunks if c.op == "equal"] == [
        "Cats like to sleep all day. Dogs bark at night."]
    assert_whole(e, a)


def test_swapped_paragraphs_are_one_move_of_a_whole_paragraph():
    p1 = "Photosynthesis makes sugar. It needs light and water."
    p2 = "Respiration burns the sugar again. It releases energy."
    end = "Both happen in plants."
    e, a = f"{p1}\n\n{p2}\n\n{end}\n", f"{p2}\n\n{p1}\n\n{end}\n"
    moved = moved_texts(e, a)
    # Of two swapped paragraphs one stays in place (the longest common order) and the other
    # moved, whole: one move of two sentences, not two moves of one.
    assert len(moved) == 1
    assert moved[0][0] == moved[0][1] in (p1, p2)
    diff = readable_diff(e, a)
    assert all(c.op in ("equal", "delete", "insert") for c in diff.chunks)
    assert_whole(e, a)


def test_moved_list_item_with_a_typo_inside():
    e = "- buy apples\n- bananas are yellow and ripe\n- cherries from the market\n- dates\n"
    a = "- buy apples\n- cherries from the market\n- dates\n- banannas are yellow and ripe\n"
    assert moved_texts(e, a) == [("- bananas are yellow and ripe",
                                  "- banannas are yellow and ripe")]
    move = readable_diff(e, a).moves[0]
    # what the metric counts inside the two ranges: at most both pieces whole
    assert 0 < move.edits <= (move.exp_end - move.exp_start) + (move.act_end - move.act_start)
    assert_whole(e, a)


def test_renumbered_item_is_moved_and_case_follows_the_highlight():
    e = "1. Alpha beta gamma\n2. Delta epsilon zeta\n3. Eta theta iota"
    a = "1. Delta epsilon zeta\n2. Eta theta iota\n3. alpha BETA gamma"
    # Case differs: not equal for a case-sensitive highlight (and too far for a near match:
    # 2 of 16 characters... plus the marker; see MAX_NORMALISED_EDITS), equal ignoring case.
    folded = readable_diff(e, a, case_sensitive=False)
    assert [(e[m.exp_start:m.exp_end], a[m.act_start:m.act_end]) for m in folded.moves] == [
        ("1. Alpha beta gamma", "3. alpha BETA gamma")]
    assert_whole(e, a)


def test_an_edit_in_place_is_not_a_move():
    e = "Intro line here.\nThe quick brown fox jumps. Over the lazy dog.\nEnd of the text here."
    a = "Intro line here.\nEnd of the text here.\nThe quick brown fox jumps. Over the lazy dog!"
    # "dog." -> "dog!" stays where it was (next to the fox); the last line moved up.
    assert moved_texts(e, a) == [("End of the text here.", "End of the text here.")]
    assert moved_texts("The cat sat on the mat today.", "The dog sat on a mat today.") == []


def test_short_pieces_are_not_moves():
    # "Yes." moved (the two longer sentences keep their order): one word, under 20 characters.
    e, a = "Yes. The answer is below. It is clear.", "The answer is below. It is clear. Yes."
    assert moved_texts(e, a) == []
    assert_whole(e, a)


def test_edits_count_the_exact_script_inside_the_ranges():
    e = "The sky is blue today. Cats like to sleep all day."
    a = "Cats like to sleep all day. The sky is blue today."
    ops = exact_opcodes(e, a)
    [move] = find_moves(e, a, ops)
    units = [(tag, i, j) for tag, i, j in Levenshtein.editops(e, a).as_list()]
    inside = sum(1 for tag, i, j in units
                 if (tag != "insert" and move.exp_start <= i < move.exp_end)
                 or (tag != "delete" and move.act_start <= j < move.act_end))
    assert move.edits == inside
    assert move == Move(move.exp_start, move.exp_end, move.act_start, move.act_end, inside)


def test_json_lists_moves():
    e = "The sky is blue today. Cats like to sleep all day."
    a = "Cats like to sleep all day. The sky is blue today."
    data = json.loads(json.dumps(readable_diff(e, a).as_dict()))
    [move] = data["moves"]
    # two sentences swapped: either is the one that moved, linking equal text
    assert e[slice(*move["expected"])] == a[slice(*move["actual"])] in (
        "The sky is blue today.", "Cats like to sleep all day.")


# --- properties ---------------------------------------------------------------------------------

# Sentences of two disjoint alphabets: a sentence made of one can never equal (or nearly equal)
# one made of the other, so kept sentences in order plus new ones inserted hold no move.
OLD_WORD = st.text("abcdefghijklm", min_size=2, max_size=7)
NEW_WORD = st.text("nopqrstuvwxyz", min_size=2, max_size=7)


def sentence(word: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(word, min_size=3, max_size=8).map(lambda w: " ".join(w).capitalize() + ".")


@settings(max_examples=60, deadline=None)
@given(st.lists(sentence(OLD_WORD), min_size=1, max_size=8, unique=True),
       st.data())
def test_no_move_invented_when_nothing_moved(old, data):
    kept = [s for s in old if data.draw(st.booleans())]
    actual_parts = []
    for s in kept:
        if data.draw(st.booleans()):
            actual_parts.append(data.draw(sentence(NEW_WORD)))
        actual_parts.append(s)
    sep = data.draw(st.sampled_from([" ", "\n", "\n\n", "\n- "]))
    e, a = sep.join(old), sep.join(actual_parts)
    assert readable_diff(e, a).moves == ()
    assert_whole(e, a)


@settings(max_examples=60, deadline=None)
@given(st.lists(sentence(OLD_WORD), min_size=2, max_size=8, unique=True), st.data())
def test_a_moved_sentence_is_found_and_the_distance_stays_exact(old, data):
    i = data.draw(st.integers(0, len(old) - 1))
    j = data.draw(st.integers(0, len(old) - 1).filter(lambda k: k != i))
    moved = old[:i] + old[i + 1:]
    moved.insert(j, old[i])
    e, a = " ".join(old), " ".join(moved)
    found = moved_texts(e, a)
    # One sentence moved: the longest common order keeps all but one (which one is moved
    # may be a neighbour when two swap), and each move links equal text.
    assert len(found) == 1
    assert found[0][0] == found[0][1]
    assert_whole(e, a)


def test_typing_on_either_side_finds_what_a_fresh_pair_finds():
    """The unchanged side's piece ids are kept between calls: typing into one side, then the
    other, must pair as if each pair were new ("Beta" moved from second to last)."""
    alpha = "Alpha sentence is first here. "
    beta = "Beta sentence moves to the end. "
    gamma = "Gamma sentence stays in place. "
    delta = "Delta sentence stays in place too. "
    e, a = alpha + beta + gamma + delta, alpha + gamma + delta + beta
    steps = [(e, a, True), (e, a + "x", True), (e + "y", a + "x", True), (e + "y", a, True),
             (e, a, True), (alpha + gamma + delta, a, False), (e, e, False),
             (a, a, False), (a, e, True)]
    for left, right, moved in steps:
        got = find_moves(left, right, exact_opcodes(left, right))
        assert len(got) == int(moved), (left, right, got)
        for m in got:  # the move is the "Beta" sentence on both sides
            assert left[m.exp_start:m.exp_end].startswith("Beta")
            assert right[m.act_start:m.act_end].startswith("Beta")
