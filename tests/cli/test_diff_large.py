"""`matchlens diff` on texts past the exact diff's reach (issue 28 item 9): a line diff, the
distance said to be skipped, only linear-cost metrics scored."""

from __future__ import annotations

import json

from matchlens.cli import diff_large
from tests.cli.conftest import run_in_process


def test_the_line_diff_of_similar_texts_marks_the_changed_lines():
    expected = "\n".join(f"line {i}" for i in range(1000))
    actual = expected.replace("line 500\n", "line five hundred\n").replace("line 7\n", "")
    lines = diff_large.line_diff(expected, actual)
    assert [x for x in lines if not x.startswith("  ")] == [
        "- line 7", "- line 500", "+ line five hundred"]
    assert len(lines) == 1001  # 998 equal, 2 removed, 1 added


def test_unrelated_texts_are_one_block_between_their_common_ends(monkeypatch):
    monkeypatch.setattr(diff_large, "LINE_EDITS", 3)
    expected = "top\n" + "\n".join(f"e{i}" for i in range(10)) + "\nend"
    actual = "top\n" + "\n".join(f"a{i}" for i in range(8)) + "\nend"
    lines = diff_large.line_diff(expected, actual)
    assert lines[0] == "  top" and lines[-1] == "  end"
    assert lines[1:11] == [f"- e{i}" for i in range(10)]
    assert lines[11:19] == [f"+ a{i}" for i in range(8)]


def test_the_command_past_the_limit_says_the_distance_is_skipped(tmp_path, capsys,
                                                                  monkeypatch):
    monkeypatch.setattr(diff_large, "EXACT_LIMIT", 100)  # 15 × 15 characters ("same\\nold words\\n") is past it
    e, a = tmp_path / "e.txt", tmp_path / "a.txt"
    e.write_text("same\nold words\n", encoding="utf-8")
    a.write_text("same\nnew words\n", encoding="utf-8")
    run = run_in_process(capsys, "diff", str(e), str(a), "--metrics",
                         "exact_match,levenshtein_distance")
    assert run.code == 0, run.err
    assert "- old words\n+ new words\n" in run.out
    assert "distance: skipped: the texts are 15 and 15 characters" in run.out
    assert "levenshtein_distance  skipped (too long for an exact score)" in run.out
    run = run_in_process(capsys, "diff", str(e), str(a), "--json", "--metrics",
                         "exact_match,levenshtein_distance")
    data = json.loads(run.out)
    assert data["distance"] is None and data["scores"]["exact_match"]["score"] == 0.0
    assert data["scores"]["levenshtein_distance"]["score"] is None
