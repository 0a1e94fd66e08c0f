"""Edit spans: the highlight is the very edit script that levenshtein_distance counts."""

from __future__ import annotations

import random
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.diff import char_classes
from matchlens.core.diff.alignment import (
    Alignment,
    EditKind,
    EditSpan,
    Hunk,
    align,
    apply_spans,
    next_hunk,
    previous_hunk,
)
from matchlens.core.metrics import levenshtein
from matchlens.core.text.casefold import fold_case

SUB, INS, DEL = EditKind.SUBSTITUTE, EditKind.INSERT, EditKind.DELETE


# --- slow, obviously-right references ---------------------------------------------------------

def slow_levenshtein(a, b) -> int:
    """Textbook Wagner-Fischer over any two sequences (characters or tokens)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def tokens(text: str) -> list[str]:
    return re.findall(r"\S+|\s+", text)


def slow_next(hunks, position, side):
    starts = [h.exp_start if side == "expected" else h.act_start for h in hunks]
    return next((i for i, s in enumerate(starts) if s > position), None)


def slow_previous(hunks, position, side):
    starts = [h.exp_start if side == "expected" else h.act_start for h in hunks]
    return next((i for i in reversed(range(len(starts))) if starts[i] < position), None)


# --- strategies -------------------------------------------------------------------------------

# Case pairs (including ones whose lower-case is special: Σ/σ/ς, İ/i, the Kelvin sign), accents,
# and every kind of whitespace the UI must show.
ALPHABET = "aAbBcCéÉßΣσςİıiKk\u212a \t\n\u00a0\u3000xy"
short_text = st.text(alphabet=ALPHABET, max_size=14) | st.text(max_size=8)


def swapcase_char(ch: str) -> str:
    swapped = ch.swapcase()
    return swapped if len(swapped) == 1 else ch


@st.composite
def text_pairs(draw):
    """Unrelated pairs, pairs a few edits apart, re-cased pairs, and same-length pairs over a
    tiny alphabet (long substitution runs mixing case-only, blank and plain pairs)."""
    mode = draw(st.sampled_from(["unrelated", "edits", "recased", "runs"]))
    if mode == "runs":
        size = draw(st.integers(0, 10))
        tiny = st.text(alphabet="aAbBΣς \t", min_size=size, max_size=size)
        return draw(tiny), draw(tiny)
    expected = draw(short_text)
    if mode == "unrelated":
        return expected, draw(short_text)
    chars = list(expected)
    if mode == "recased":
        flips = draw(st.lists(st.booleans(), min_size=len(chars), max_size=len(chars)))
        chars = [swapcase_char(c) if f else c for c, f in zip(chars, flips, strict=True)]
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["sub", "ins", "del", "case"]))
        pos = draw(st.integers(0, len(chars)))
        if op == "ins":
            chars.insert(pos, draw(st.sampled_from(ALPHABET)))
        elif chars and pos < len(chars):
            if op == "sub":
                chars[pos] = draw(st.sampled_from(ALPHABET))
            elif op == "del":
                del chars[pos]
            else:
                chars[pos] = swapcase_char(chars[pos])
    return expected, "".join(chars)


# --- invariants shared by the property tests --------------------------------------------------

def check_structure(expected: str, actual: str, al: Alignment) -> None:
    exp_pos = act_pos = 0
    for s in al.spans:
        # sorted and non-overlapping on both sides, within bounds
        assert exp_pos <= s.exp_start <= s.exp_end <= len(expected)
        assert act_pos <= s.act_start <= s.act_end <= len(actual)
        exp_pos, act_pos = s.exp_end, s.act_end
    # every span belongs to exactly one hunk, hunks are separated by equal text
    covered = [i for h in al.hunks for i in range(h.first_span, h.last_span + 1)]
    assert covered == list(range(len(al.spans)))
    for h in al.hunks:
        first, last = al.spans[h.first_span], al.spans[h.last_span]
        assert (h.exp_start, h.act_start) == (first.exp_start, first.act_start)
        assert (h.exp_end, h.act_end) == (last.exp_end, last.act_end)
        assert h.counted == any(s.counted for s in al.spans[h.first_span:h.last_span + 1])
    for a, b in zip(al.hunks, al.hunks[1:], strict=False):
        gap_e, gap_a = b.exp_start - a.exp_end, b.act_start - a.act_end
        assert gap_e == gap_a > 0
    assert al.distance == sum(s.units for s in al.spans if s.counted)


def check_flags(expected: str, actual: str, al: Alignment) -> None:
    e_fold, a_fold = fold_case(expected), fold_case(actual)
    for s in al.spans:
        e_txt, a_txt = expected[s.exp_start:s.exp_end], actual[s.act_start:s.act_end]
        involved = e_txt + a_txt
        assert s.whitespace_only == (involved.isspace() and (s.kind is not SUB or (
            e_txt.isspace() and a_txt.isspace())))
        if s.case_only:
            assert s.kind is SUB and e_txt != a_txt
            assert e_fold[s.exp_start:s.exp_end] == a_fold[s.act_start:s.act_end]
        if not s.counted:
            assert s.case_only and not al.case_sensitive
        if not al.case_sensitive and s.counted:
            assert not s.case_only
        if al.granularity == "char" and s.kind is SUB:
            assert len(e_txt) == len(a_txt) == s.units
            if not (s.case_only or s.whitespace_only):
                # runs are split where the class changes: no case-only / blank pair hides here
                for x, y, xf, yf in zip(e_txt, a_txt, e_fold[s.exp_start:s.exp_end],
                                        a_fold[s.act_start:s.act_end], strict=True):
                    assert xf != yf and not (x.isspace() and y.isspace())


# --- properties -------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(text_pairs(), st.booleans())
def test_char_spans_are_the_metric_edit_script(pair, case_sensitive):
    expected, actual = pair
    al = align(expected, actual, case_sensitive=case_sensitive)
    e_cmp, a_cmp = levenshtein.prepare(expected, case_sensitive), levenshtein.prepare(
        actual, case_sensitive)
    reference = slow_levenshtein(e_cmp, a_cmp)
    counted_chars = sum(max(s.exp_len, s.act_len) for s in al.spans if s.counted)
    assert counted_chars == al.distance == reference
    assert levenshtein.distance(expected, actual, case_sensitive) == reference
    check_structure(expected, actual, al)
    check_flags(expected, actual, al)
    # applying the spans gives actual back: exactly with the case marks, up to case without
    assert apply_spans(expected, actual, al.spans, include_uncounted=True) == actual
    rebuilt = apply_spans(expected, actual, al.spans)
    if case_sensitive:
        assert rebuilt == actual
    else:
        # rebuilt keeps the expected case exactly where the uncounted case marks are (compared
        # position by position: fold_case of a whole text is context-sensitive for a final Σ)
        marked = {j for s in al.spans if not s.counted for j in range(s.act_start, s.act_end)}
        assert len(rebuilt) == len(actual)
        assert {j for j, (x, y) in enumerate(zip(rebuilt, actual, strict=True)) if x != y} == marked
        assert not any(s.counted and s.case_only for s in al.spans)


@settings(max_examples=200, deadline=None)
@given(text_pairs())
def test_char_counts_match_the_metric_explanation(pair):
    expected, actual = pair
    counts = align(expected, actual).counts()
    reference = levenshtein.edit_counts(expected, actual)
    assert counts == {SUB: reference["replace"], INS: reference["insert"],
                      DEL: reference["delete"]}


@settings(max_examples=200, deadline=None)
@given(text_pairs(), st.booleans())
def test_case_marks_are_exactly_the_ignored_differences(pair, _unused):
    expected, actual = pair
    al = align(expected, actual, case_sensitive=False)
    e_fold, a_fold = fold_case(expected), fold_case(actual)
    for s in al.spans:
        if not s.counted:
            for i, j in zip(range(s.exp_start, s.exp_end), range(s.act_start, s.act_end),
                            strict=True):
                assert expected[i] != actual[j] and e_fold[i] == a_fold[j]


@settings(max_examples=200, deadline=None)
@given(text_pairs(), st.booleans())
def test_word_spans(pair, case_sensitive):
    expected, actual = pair
    al = align(expected, actual, case_sensitive=case_sensitive, granularity="word")
    e_cmp, a_cmp = levenshtein.prepare(expected, case_sensitive), levenshtein.prepare(
        actual, case_sensitive)
    assert al.distance == slow_levenshtein(tokens(e_cmp), tokens(a_cmp))
    check_structure(expected, actual, al)
    check_flags(expected, actual, al)
    assert apply_spans(expected, actual, al.spans, include_uncounted=True) == actual
    # spans start and end on token boundaries, and count their tokens
    e_bounds = {0, *(m.end() for m in re.finditer(r"\S+|\s+", expected))}
    a_bounds = {0, *(m.end() for m in re.finditer(r"\S+|\s+", actual))}
    for s in al.spans:
        assert {s.exp_start, s.exp_end} <= e_bounds and {s.act_start, s.act_end} <= a_bounds
        n_exp = len(tokens(expected[s.exp_start:s.exp_end]))
        n_act = len(tokens(actual[s.act_start:s.act_end]))
        assert s.units == (n_exp if s.kind is DEL else n_act if s.kind is INS else n_exp)


@settings(max_examples=200, deadline=None)
@given(text_pairs(), st.integers(-2, 20), st.sampled_from(["expected", "actual"]))
def test_next_and_previous_hunk_bisect(pair, position, side):
    hunks = align(*pair).hunks
    assert next_hunk(hunks, position, side) == slow_next(hunks, position, side)
    assert previous_hunk(hunks, position, side) == slow_previous(hunks, position, side)


# --- hand examples ----------------------------------------------------------------------------

def spans_of(al: Alignment) -> list[tuple]:
    return [(s.kind, s.exp_start, s.exp_end, s.act_start, s.act_end) for s in al.spans]


def test_kitten_sitting():
    al = align("kitten", "sitting")
    # k->s (0), e->i (4), then g inserted after the final n: 2 substitutions + 1 insertion = 3
    assert spans_of(al) == [(SUB, 0, 1, 0, 1), (SUB, 4, 5, 4, 5), (INS, 6, 6, 6, 7)]
    assert al.distance == 3
    assert [(h.exp_start, h.exp_end) for h in al.hunks] == [(0, 1), (4, 5), (6, 6)]
    assert al.counts() == {SUB: 2, INS: 1, DEL: 0}


def test_quick_brown_fox_by_formula():
    al = align("The quick brown fox", "The quick brown dog")
    # f->d at 16 and x->g at 18; the o between them is equal: 2 edits in 2 hunks
    assert spans_of(al) == [(SUB, 16, 17, 16, 17), (SUB, 18, 19, 18, 19)]
    assert al.distance == 2 == levenshtein.distance("The quick brown fox", "The quick brown dog")


def test_trailing_exclamation_is_one_insertion():
    al = align("Hello World", "Hello World!")
    # "!" appended at offset 11 of actual: 1 insertion, not whitespace
    assert spans_of(al) == [(INS, 11, 11, 11, 12)]
    assert not al.spans[0].whitespace_only


def test_case_sensitive_marks_case_only_substitutions():
    al = align("Hello World", "hello world")
    # H->h (0) and W->w (6): 2 counted substitutions, each differing only by case
    assert spans_of(al) == [(SUB, 0, 1, 0, 1), (SUB, 6, 7, 6, 7)]
    assert all(s.case_only and s.counted for s in al.spans)
    assert al.distance == 2


def test_case_insensitive_keeps_case_marks_uncounted():
    al = align("Hello World", "hello world", case_sensitive=False)
    # the folded texts are equal: distance 0, but H/h and W/w stay visible, uncounted
    assert spans_of(al) == [(SUB, 0, 1, 0, 1), (SUB, 6, 7, 6, 7)]
    assert all(s.case_only and not s.counted for s in al.spans)
    assert al.distance == 0
    assert [h.counted for h in al.hunks] == [False, False]
    assert apply_spans("Hello World", "hello world", al.spans) == "Hello World"


def test_case_insensitive_mark_next_to_a_real_edit():
    al = align("Ab", "aX", case_sensitive=False)
    # folded "ab" vs "ax": a = a (A/a marked, uncounted), b->X substituted: distance 1
    assert spans_of(al) == [(SUB, 0, 1, 0, 1), (SUB, 1, 2, 1, 2)]
    assert [s.counted for s in al.spans] == [False, True]
    assert al.distance == 1
    # the two touch, so they are one navigable difference
    assert len(al.hunks) == 1 and al.hunks[0].counted


def test_substitution_run_splits_where_the_class_changes():
    al = align("AB\t", "aX ")
    # 3 substitutions in one run: A->a case-only, B->X plain, tab->space whitespace-only
    assert spans_of(al) == [(SUB, 0, 1, 0, 1), (SUB, 1, 2, 1, 2), (SUB, 2, 3, 2, 3)]
    assert [(s.case_only, s.whitespace_only) for s in al.spans] == [
        (True, False), (False, False), (False, True)]
    assert al.distance == 3 and len(al.hunks) == 1


def test_runs_merge_into_one_span():
    al = align("abcdef", "xyz")
    # 3 substitutions then 3 deletions (rapidfuzz's script): 2 spans, 6 edits
    assert spans_of(al) == [(SUB, 0, 3, 0, 3), (DEL, 3, 6, 3, 3)]
    assert al.distance == 6 == sum(s.units for s in al.spans)


@pytest.mark.parametrize(("expected", "actual", "kind", "ws"), [
    ("abc", "abc\n", INS, True),     # trailing newline added: 1 whitespace insertion
    ("abc\n", "abc", DEL, True),     # trailing newline dropped: 1 whitespace deletion
    ("a\tb", "a b", SUB, True),      # tab -> space: 1 whitespace substitution
    ("a  b", "a b", DEL, True),      # double space -> single: 1 whitespace deletion
    ("a b", "a xb", INS, False),     # a letter inserted: not whitespace-only
    ("ab", "a \u00a0b", INS, True),  # a space and a no-break space: both whitespace
])
def test_whitespace_only_flags(expected, actual, kind, ws):
    al = align(expected, actual)
    assert len(al.spans) == 1
    span = al.spans[0]
    assert span.kind is kind and span.whitespace_only is ws and span.counted
    assert al.distance == levenshtein.distance(expected, actual)


def test_word_granularity_examples():
    al = align("The quick brown fox", "The quick brown dog", granularity="word")
    # tokens: The, ' ', quick, ' ', brown, ' ', fox -> one token substituted: distance 1
    assert spans_of(al) == [(SUB, 16, 19, 16, 19)] and al.distance == 1

    al = align("a b", "a b c", granularity="word")
    # [a, ' ', b] -> [a, ' ', b, ' ', c]: 2 tokens (' ', 'c') inserted at char 3
    assert spans_of(al) == [(INS, 3, 3, 3, 5)] and al.distance == 2
    assert al.spans[0].units == 2

    al = align("say  hi", "say hi", granularity="word")
    # the whitespace token "  " becomes " ": 1 whitespace-only token substitution
    assert spans_of(al) == [(SUB, 3, 5, 3, 4)]
    assert al.spans[0].whitespace_only and al.spans[0].units == 1

    al = align("Hello world", "hello world", granularity="word")
    # Hello -> hello is 1 token, differing only by case
    assert spans_of(al) == [(SUB, 0, 5, 0, 5)] and al.spans[0].case_only

    al = align("Hello World", "hello WORLD", granularity="word", case_sensitive=False)
    # nothing counted; both words marked as case-only, uncounted
    assert al.distance == 0
    assert spans_of(al) == [(SUB, 0, 5, 0, 5), (SUB, 6, 11, 6, 11)]
    assert not any(s.counted for s in al.spans)


def test_identical_and_empty_texts():
    for expected, actual, distance in [("", "", 0), ("same", "same", 0), ("", "abc", 3),
                                       ("abc", "", 3)]:
        al = align(expected, actual)
        assert al.distance == distance and len(al.hunks) == (1 if distance else 0)


@pytest.mark.parametrize(("side", "position", "nxt", "prev"), [
    # kitten/sitting hunks start at expected 0, 4, 6 and actual 0, 4, 6
    ("expected", -1, 0, None),
    ("expected", 0, 1, None),   # on hunk 0: next is 1, nothing before it
    ("expected", 2, 1, 0),
    ("expected", 4, 2, 0),
    ("expected", 6, None, 1),
    ("expected", 7, None, 2),
    ("actual", 5, 2, 1),
])
def test_next_previous_hunk_table(side, position, nxt, prev):
    hunks = align("kitten", "sitting").hunks
    assert next_hunk(hunks, position, side) == nxt
    assert previous_hunk(hunks, position, side) == prev


def test_bad_arguments():
    with pytest.raises(ValueError):
        align("a", "b", granularity="line")
    with pytest.raises(ValueError):
        next_hunk((), 0, side="left")
    with pytest.raises(ValueError):
        apply_spans("ab", "ab", [EditSpan(SUB, 1, 2, 1, 2), EditSpan(SUB, 0, 1, 0, 1)])


@pytest.mark.parametrize("kwargs", [
    dict(kind="rename", exp_start=0, exp_end=1, act_start=0, act_end=1),
    dict(kind=INS, exp_start=0, exp_end=1, act_start=0, act_end=1),   # insert with exp text
    dict(kind=INS, exp_start=0, exp_end=0, act_start=0, act_end=0),   # empty insert
    dict(kind=DEL, exp_start=0, exp_end=1, act_start=0, act_end=2),   # delete with act text
    dict(kind=SUB, exp_start=0, exp_end=0, act_start=0, act_end=1),   # empty side
    dict(kind=SUB, exp_start=0, exp_end=2, act_start=0, act_end=1),   # unequal, no units
    dict(kind=SUB, exp_start=2, exp_end=1, act_start=0, act_end=1),   # end before start
    dict(kind=SUB, exp_start=-1, exp_end=0, act_start=0, act_end=1),  # negative
    dict(kind=INS, exp_start=0, exp_end=0, act_start=0, act_end=1, case_only=True),
    dict(kind=SUB, exp_start=0, exp_end=1, act_start=0, act_end=1, counted=False),
    dict(kind=SUB, exp_start=0, exp_end=1, act_start=0, act_end=1, units=2),
    dict(kind=SUB, exp_start=0, exp_end=1, act_start=0, act_end=1, case_only=True,
         whitespace_only=True),
])
def test_edit_span_validates_itself(kwargs):
    with pytest.raises(ValueError):
        EditSpan(**kwargs)


def test_alignment_validates_itself():
    span = EditSpan(SUB, 0, 1, 0, 1)
    hunk = Hunk(0, 1, 0, 1, 0, 0)
    assert Alignment((span,), (hunk,), 1, "char").distance == 1
    with pytest.raises(ValueError):
        Alignment((span,), (hunk,), 2, "char")        # distance != counted units
    with pytest.raises(ValueError):
        Alignment((span,), (hunk,), 1, "line")        # unknown granularity
    with pytest.raises(ValueError):
        Alignment((span, span), (hunk,), 2, "char")   # overlapping spans
    with pytest.raises(ValueError):
        Hunk(0, 1, 0, 1, 1, 0)                        # last span before first


def test_whitespace_table_covers_unicode():
    # the module scans code points up to U+3000 only; nothing above is whitespace
    assert not any(chr(c).isspace() for c in range(0x3001, sys.maxunicode + 1))
    assert len(char_classes.WS_CODES) == sum(
        chr(c).isspace() for c in range(0x3001))


# --- a million characters ---------------------------------------------------------------------

@pytest.mark.slow
def test_million_characters_with_a_few_edits():
    rng = random.Random(7)
    words = ["model", "output", "reference", "answer", "token", "the", "of", "and", "a"]
    parts, size = [], 0
    while size < 1_000_000:
        word = rng.choice(words)
        parts.append(word)
        size += len(word) + 1
    expected = " ".join(parts)[:1_000_000]
    assert len(expected) == 1_000_000
    # four edits inside words (no word has a doubled letter) with characters the text never
    # uses, so the optimal script has one form only
    sub, case, ins, dele = (next(i for i in range(at, at + 50) if expected[i - 1:i + 2].isalpha())
                            for at in (100, 700_000, 500_000, 999_000))
    chars = list(expected)
    chars[sub] = "#"                   # 1 substitution
    chars[case] = chars[case].upper()  # 1 case change
    del chars[dele]                    # 1 deletion
    chars[ins:ins] = "@@@"             # 3 insertions
    actual = "".join(chars)

    al = align(expected, actual)
    assert al.distance == levenshtein.distance(expected, actual) == 6
    # after the insertion the actual offsets run 3 ahead, after the deletion 2 ahead
    assert spans_of(al) == [(SUB, sub, sub + 1, sub, sub + 1), (INS, ins, ins, ins, ins + 3),
                            (SUB, case, case + 1, case + 3, case + 4),
                            (DEL, dele, dele + 1, dele + 3, dele + 3)]
    assert apply_spans(expected, actual, al.spans) == actual

    folded = align(expected, actual, case_sensitive=False)
    # the case change is still marked, uncounted: 1 + 3 + 1 = 5 counted edits
    assert folded.distance == levenshtein.distance(expected, actual, False) == 5
    assert [s.counted for s in folded.spans] == [True, True, False, True]
    assert apply_spans(expected, actual, folded.spans, include_uncounted=True) == actual

    words_al = align(expected, actual, granularity="word")
    assert apply_spans(expected, actual, words_al.spans) == actual
    assert words_al.distance == 4  # four words touched, one edit each
