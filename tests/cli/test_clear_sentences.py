"""Issue 28 item 14: what used to be unclear is one sentence naming the real problem.

calibrate on a network metric whose server is down (or whose key cannot be sent) names that,
not "no row has both a score and a label"; calibrate with no label at all writes nothing; a
negative `--records` index means what it means in Python; a key that is not ASCII is refused
before anything is sent; two missing columns are both named; the `len` JSONPath is jsonpath-ng's.
Real processes where a network metric runs (a real loopback server counts the requests)."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import assert_one_line_error, run_in_process, run_process
from tests.embeddings.openai_server import FakeOpenAI, closed_port_url

COLUMNS = ("--expected", "expected", "--actual", "actual")


@pytest.fixture
def labelled(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("expected,actual,label\nParis,Paris,good\nLyon,Nice,bad\nRome,Rome,✓\n"
                    "Oslo,Bergen,✗\n", encoding="utf-8")
    return path


def test_calibrate_names_a_server_it_cannot_reach_and_writes_nothing(labelled, tmp_path):
    url = closed_port_url()
    run = run_process("calibrate", labelled, *COLUMNS, "--label", "label", "--metric",
                      "semantic_similarity", "-o", tmp_path / "t.toml",
                      env={"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": url})
    line = assert_one_line_error(run, "d.csv: no labelled row has a semantic_similarity score",
                                 url, "t.toml was not written")
    assert "no row has both a score and a label" not in line
    assert not (tmp_path / "t.toml").exists()


def test_a_key_that_is_not_ascii_is_refused_before_anything_is_sent(labelled):
    with FakeOpenAI() as server:
        env = {"OPENAI_API_KEY": "sk-tést", "OPENAI_BASE_URL": server.base_url}
        run = run_process("calibrate", labelled, *COLUMNS, "--label", "label", "--metric",
                          "semantic_similarity", env=env)
        assert_one_line_error(run, "nothing was sent", "OPENAI_API_KEY",
                              "an HTTP header cannot carry")
        assert "tést" not in run.err  # the key's characters are never shown
        run = run_process("score", labelled, *COLUMNS, "--metrics", "semantic_similarity",
                          "-o", labelled.with_name("out.csv"), env=env)
        assert "nothing was sent: the API key from OPENAI_API_KEY holds a character" in run.err
        assert "server" not in run.err.split("why:")[1]
        assert server.request_count == 0


def test_calibrate_with_no_label_at_all_writes_nothing(tmp_path, capsys):
    data = tmp_path / "n.csv"
    data.write_text("expected,actual,label\na,a,\nb,c,\n", encoding="utf-8")
    run = run_in_process(capsys, "calibrate", data, *COLUMNS, "--label", "label", "-o",
                         tmp_path / "t.toml")
    assert_one_line_error(run, "n.csv: no row has a label (column 'label' holds no pass/fail",
                          "good/bad or ✓/✗", "t.toml was not written")
    assert not (tmp_path / "t.toml").exists()


def test_calibrate_counts_good_bad_and_check_marks(labelled, capsys):
    run = run_in_process(capsys, "calibrate", labelled, *COLUMNS, "--label", "label",
                         "--metric", "exact_match")
    assert run.code == 0, run.err
    # good, ✓ are pass; bad, ✗ are fail (shared/spec/cli.md's label words)
    assert "4 rows, 4 labelled (2 pass, 2 fail), 0 without a label" in run.out


def test_a_labelled_row_the_server_refused_says_why(labelled):
    with FakeOpenAI() as server:
        server.fail_on("Bergen", 400)  # one text refused: its row alone has no score
        run = run_process("calibrate", labelled, *COLUMNS, "--label", "label", "--metric",
                          "semantic_similarity", env={"OPENAI_API_KEY": "sk-test",
                                                      "OPENAI_BASE_URL": server.base_url})
    assert run.code == 0, run.err
    assert "(1 labelled row has no semantic_similarity score and is left out)" in run.out
    why = [line for line in run.out.splitlines() if line.startswith("    why: ")]
    assert len(why) == 1 and "400" in why[0], run.out


@pytest.fixture
def nested(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"sets": [[{"e": "x", "o": "x"}],
                                         [{"e": "a", "o": "b"}, {"e": "c", "o": "c"}]]}),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("index", "rows"), [("-1", 2), ("-2", 1), ("1", 2), ("0", 1)])
def test_a_negative_records_index_means_what_it_means_in_python(nested, capsys, index, rows):
    run = run_in_process(capsys, "score", nested, "--records", f"$.sets[{index}]", "--expected",
                         "e", "--actual", "o", "--metrics", "exact_match")
    assert run.code == 0, run.err
    assert len(run.records()) == rows
    last = [r["e"] for r in run.records()]
    assert last == (["a", "c"] if rows == 2 else ["x"])


def test_a_records_index_out_of_range_is_refused_plainly(nested, capsys):
    run = run_in_process(capsys, "score", nested, "--records", "$.sets[-3]", "--expected", "e",
                         "--actual", "o")
    assert_one_line_error(run, "r.json: --records $.sets[-3] matches nothing: $.sets is an array")


@pytest.mark.parametrize("command", ["score", "calibrate"])
def test_both_missing_columns_are_named(labelled, capsys, command):
    extra = ("--label", "label") if command == "calibrate" else ()
    run = run_in_process(capsys, command, labelled, "--expected", "nope1", "--actual", "nope2",
                         *extra)
    assert_one_line_error(run, "d.csv: there are no columns 'nope1' and 'nope2' (columns: "
                               "'expected', 'actual', 'label')")


def test_one_missing_column_keeps_its_did_you_mean(labelled, capsys):
    run = run_in_process(capsys, "score", labelled, "--expected", "expected", "--actual",
                         "Actual")
    assert_one_line_error(run, "there is no column 'Actual'; did you mean 'actual'?")


def test_the_len_jsonpath_counts_an_array(tmp_path, capsys):
    data = tmp_path / "l.jsonl"
    data.write_text('{"out": {"items": [1, 2, 3]}, "exp": "3"}\n'
                    '{"out": {"items": []}, "exp": "1"}\n', encoding="utf-8")
    run = run_in_process(capsys, "score", data, "--expected", "exp", "--actual",
                         "$.out.items.`len`", "--metrics", "exact_match")
    assert run.code == 0, run.err
    # 3 items against "3": a match; 0 items against "1": not
    assert [r["exact_match"] for r in run.records()] == ["1.0", "0.0"]
