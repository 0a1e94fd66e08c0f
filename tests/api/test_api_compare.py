"""`matchlens.compare`: plain data that reassembles the texts, the exact edit count, the
metrics' own scores, and HTML that shows user text without running it."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from rapidfuzz.distance import Levenshtein

import matchlens
from matchlens.core.metrics import evaluate, get_metric
from matchlens.main import main

PAIRS = [
    ("The quick brown fox", "The quick brown dog"),
    ("such as glucose.", "like glucose and starch. Oxygen is released as a byproduct."),
    ("", "inserted only"),
    ("deleted only", ""),
    ("naïve café 東京 🙂", "naive cafe 東京都 🙃!"),
    ("same", "same"),
]


def apply_edits(expected: str, actual: str, edits: list[dict]) -> str:
    """Replay the unit edits on `expected` (from the end, so offsets stay valid)."""
    text = list(expected)
    for edit in reversed(edits):
        (e1, e2), (a1, a2) = edit["expected"], edit["actual"]
        text[e1:e2] = list(actual[a1:a2])
    return "".join(text)


@pytest.mark.parametrize(("expected", "actual"), PAIRS)
def test_edits_are_the_exact_script_and_chunks_reassemble(expected, actual):
    result = matchlens.compare(expected, actual)
    assert result.distance == len(result.edits) == Levenshtein.distance(expected, actual)
    assert apply_edits(expected, actual, result.edits) == actual
    for edit in result.edits:
        (e1, e2), (a1, a2) = edit["expected"], edit["actual"]
        assert (e2 - e1, a2 - a1) == {"replace": (1, 1), "delete": (1, 0),
                                      "insert": (0, 1)}[edit["op"]]
    ops = [c["op"] for c in result.chunks]
    assert "".join(expected[slice(*c["expected"])] for c in result.chunks
                   if c["op"] in ("equal", "delete", "replace")) == expected
    assert "".join(actual[slice(*c["actual"])] for c in result.chunks
                   if c["op"] in ("equal", "insert", "replace")) == actual
    for chunk in result.chunks:
        if chunk["op"] == "equal":
            assert expected[slice(*chunk["expected"])] == actual[slice(*chunk["actual"])]
    assert all(a != b for a, b in zip(ops, ops[1:], strict=False) if a == "equal")


def test_scores_are_the_metrics_own():
    result = matchlens.compare("The quick brown fox", "The quick brown dog")
    # the contract's worked example: 2 edits over 19 characters -> 0.89
    assert result.scores["levenshtein_similarity"]["score"] == 0.89
    assert result.scores["levenshtein_similarity"]["label"] == "pass"
    for metric_id, entry in result.scores.items():
        direct = evaluate(get_metric(metric_id), "The quick brown fox", "The quick brown dog")
        assert (entry["score"], entry["label"]) == (direct.score, str(direct.label))
    # cli.md's diff --json: score, label and the metric's sentence
    assert result.to_dict()["scores"]["exact_match"] == {
        "score": 0.0, "label": "fail",
        "explanation": "The texts differ from character 17: 'f' vs 'd'"}


def test_metrics_and_config_as_for_score():
    result = matchlens.compare("Paris", "paris", metrics=["exact_match", "levenshtein_distance"],
                               config={"metrics": {"levenshtein_distance":
                                                   {"case_sensitive": False}}})
    assert list(result.scores) == ["exact_match", "levenshtein_distance"]
    # case ignored: no edit, and the script agrees with the metric
    assert result.scores["levenshtein_distance"]["score"] == 0 == result.distance
    assert result.edits == []


class _Segments(HTMLParser):
    """The text of a page by the tag it sits in: ("del" | "ins" | "" , text); only tags
    named in `TAGS` are followed (anything else inside would be a tag the page let through)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.segments: list[tuple[str, str]] = []
        self.stack: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if self.stack:  # the diff's own closing </div>
            self.stack.pop()

    def handle_data(self, data):
        inside = next((t for t in reversed(self.stack) if t in ("del", "ins")), "")
        self.segments.append((inside, data))


def diff_segments(page: str) -> _Segments:
    body = page.split('<div style="white-space', 1)[1]
    body = body[body.index(">") + 1: body.index("</div><table>")]
    parser = _Segments()
    parser.feed(body)
    return parser


@pytest.mark.parametrize(("expected", "actual"), [
    ("<b>bold</b> & fine", "<script>alert(1)</script> & fine"),
    ("keep <this> & that", "keep"),  # markup only in deleted text
    ("x", "x <img src=x onerror=alert('&')>"),  # ... only in inserted text
])
def test_html_escapes_user_text_and_marks_both_sides(expected, actual):
    page = matchlens.compare(expected, actual)._repr_html_()
    assert "<script" not in page and "<b>" not in page and "<img" not in page
    parsed = diff_segments(page)
    # only our own markup: the diff holds del, ins and the closing div, never a user's tag
    assert set(parsed.tags) <= {"del", "ins"}
    # the expected side reads back from the plain and struck text, the actual side from the
    # plain and inserted text
    assert "".join(t for where, t in parsed.segments if where != "ins") == expected
    assert "".join(t for where, t in parsed.segments if where != "del") == actual
    result = matchlens.compare(expected, actual)
    ops = {c["op"] for c in result.chunks}
    assert any(where == "del" for where, _ in parsed.segments) == bool(ops & {"delete", "replace"})
    assert any(where == "ins" for where, _ in parsed.segments) == bool(ops & {"insert", "replace"})
    for metric_id in result.scores:
        assert f">{metric_id}<" in page
    assert "✗ fail" in page


def test_html_of_a_quote_in_an_explanation_stays_in_its_attribute():
    result = matchlens.compare('say "hi"', "say 'hi'", metrics=["json_distance"])
    page = result._repr_html_()
    titles = re.findall(r'<tr title="([^"]*)">', page)
    assert len(titles) == 1 and '"' not in titles[0]


def test_not_a_text_is_a_sentence():
    with pytest.raises(matchlens.MatchLensError, match="actual must be a text"):
        matchlens.compare("a", None)


@pytest.mark.parametrize(("expected", "actual"), PAIRS[:2])
@pytest.mark.parametrize("words", [False, True])
def test_the_same_as_matchlens_diff_json(tmp_path, capsys, expected, actual, words):
    e_file, a_file = tmp_path / "e.txt", tmp_path / "a.txt"
    e_file.write_text(expected, encoding="utf-8")
    a_file.write_text(actual, encoding="utf-8")
    capsys.readouterr()
    flags = ["--words"] if words else []
    assert main(["diff", str(e_file), str(a_file), "--json", *flags,
                 "--set", "jaccard.threshold=0.3"]) == 0
    printed = json.loads(capsys.readouterr().out)
    result = matchlens.compare(expected, actual, words=words,
                               overrides=["jaccard.threshold=0.3"])
    assert result.to_dict() == printed


def test_chunks_are_readable_not_the_scattered_script():
    # the pair issue 14 names: the exact script matches scattered letters of "glucose"
    result = matchlens.compare("such as glucose.",
                               "like glucose and starch. Oxygen is released as a byproduct.")
    equal = [result.expected[slice(*c["expected"])] for c in result.chunks
             if c["op"] == "equal"]
    assert " glucose" in equal
    assert len(result.chunks) < len(result.edits)
