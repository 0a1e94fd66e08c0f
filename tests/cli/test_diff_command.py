"""`matchlens diff`: the readable inline diff in a terminal (colour) or a pipe (plain), and JSON."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest
from rapidfuzz.distance import Levenshtein

from tests.cli.conftest import DEFAULT_METRICS, assert_one_line_error

EXPECTED = "such as glucose."
ACTUAL = "like glucose and starch. Oxygen is released as a byproduct."


@pytest.fixture
def pair(tmp_path):
    e, a = tmp_path / "expected.txt", tmp_path / "actual.txt"
    e.write_text(EXPECTED, encoding="utf-8")
    a.write_text(ACTUAL, encoding="utf-8")
    return e, a


def test_plain_output_marks_pieces_and_lists_scores(cli, pair):
    run = cli("diff", *pair)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    # A pipe is not a terminal: wdiff's markers, no escape codes.
    assert lines[0] == ("[-such as-]{+like+} glucose"
                        "{+ and starch. Oxygen is released as a byproduct+}.")
    assert "\x1b[" not in run.out
    assert lines[1] == ""
    assert [line.split()[0] for line in lines[2:]] == list(DEFAULT_METRICS)
    by_id = {line.split()[0]: line.split() for line in lines[2:]}
    assert by_id["levenshtein_distance"][1:3] == ["49", "scored"]
    # 1 - 49/59 = 0.169 -> 0.17, below the default threshold 0.7
    assert by_id["levenshtein_similarity"][1:3] == ["0.17", "fail"]


def test_json_holds_exact_edits_readable_chunks_and_scores(cli, pair):
    run = cli("diff", *pair, "--json", "--metrics", "levenshtein_similarity,exact_match")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert set(data) == {"distance", "edits", "chunks", "moves", "scores"}
    assert data["moves"] == []  # nothing moved: "such as" became "like" in place
    assert data["distance"] == Levenshtein.distance(EXPECTED, ACTUAL) == 49
    assert len(data["edits"]) == data["distance"]
    assert {e["op"] for e in data["edits"]} <= {"replace", "delete", "insert"}
    chunks = data["chunks"]
    assert "".join(EXPECTED[slice(*c["expected"])] for c in chunks
                   if c["op"] in ("equal", "delete", "replace")) == EXPECTED
    assert "".join(ACTUAL[slice(*c["actual"])] for c in chunks
                   if c["op"] in ("equal", "insert", "replace")) == ACTUAL
    assert [c["op"] for c in chunks] == ["replace", "equal", "insert", "equal"]
    assert {m: (v["score"], v["label"]) for m, v in data["scores"].items()} == {
        "levenshtein_similarity": (0.17, "fail"), "exact_match": (0.0, "fail")}
    # cli.md: each entry carries the metric's sentence too
    assert data["scores"]["exact_match"]["explanation"]


def test_offsets_are_code_points(cli, tmp_path):
    e, a = tmp_path / "e.txt", tmp_path / "a.txt"
    e.write_text("😀 café", encoding="utf-8")
    a.write_text("😀 cafe", encoding="utf-8")
    data = json.loads(cli("diff", e, a, "--json").out)
    assert data["edits"] == [{"op": "replace", "expected": [5, 6], "actual": [5, 6]}]


def test_words_and_config_options(cli, tmp_path):
    e, a = tmp_path / "e.txt", tmp_path / "a.txt"
    e.write_text("The quick brown fox", encoding="utf-8")
    a.write_text("The quack brown fox", encoding="utf-8")
    assert cli("diff", e, a).out.splitlines()[0] == "The qu[-i-]{+a+}ck brown fox"
    assert cli("diff", e, a, "--words").out.splitlines()[0] == \
        "The [-quick-]{+quack+} brown fox"
    run = cli("diff", e, a, "--metrics", "levenshtein_similarity",
              "--set", "levenshtein_similarity.threshold=0.99")
    # 1 - 1/19 = 0.947 -> 0.95 < 0.99
    assert run.out.splitlines()[-1].split()[1:3] == ["0.95", "fail"]


def test_ignoring_case_per_config_moves_the_distance(cli, tmp_path):
    e, a = tmp_path / "e.txt", tmp_path / "a.txt"
    e.write_text("The Cat", encoding="utf-8")
    a.write_text("the cat", encoding="utf-8")
    assert json.loads(cli("diff", e, a, "--json").out)["distance"] == 2
    run = cli("diff", e, a, "--json", "--set", "levenshtein_distance.case_sensitive=false")
    assert json.loads(run.out)["distance"] == 0


def test_bad_input_is_one_sentence(cli, pair, tmp_path):
    assert_one_line_error(cli("diff", tmp_path / "missing.txt", pair[1]), "missing.txt",
                          "no such file")
    binary = tmp_path / "latin.txt"
    binary.write_bytes(b"caf\xe9")
    assert_one_line_error(cli("diff", pair[0], binary), "latin.txt", "not UTF-8")
    assert_one_line_error(cli("diff", *pair, "--metrics", "nope"), "nope")


def _run_on_terminal(args, env) -> str:
    """Run `python -m matchlens` with its standard output on a pseudo-terminal."""
    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "matchlens", *map(str, args)],
                              stdout=slave, stderr=subprocess.PIPE, env=env, timeout=60)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the terminal is closed once everything was read
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert done.returncode == 0, done.stderr
    return b"".join(chunks).decode("utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_colour_on_a_terminal_unless_no_color(pair):
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    out = _run_on_terminal(["diff", *pair, "--metrics", "exact_match"], env)
    assert "\x1b[31;9msuch as\x1b[0m\x1b[32mlike\x1b[0m glucose" in out  # red struck, green
    assert "[-" not in out
    out = _run_on_terminal(["diff", *pair, "--metrics", "exact_match"], {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in out
    assert "[-such as-]{+like+}" in out


_PROBE = """
import json, sys
from matchlens.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "numba": "numba" in sys.modules}), file=sys.stderr)
"""


def test_a_long_diff_does_not_load_numba(tmp_path):
    # One pair and exit: the Python steps (milliseconds) beat loading the compiled kernel
    # (~0.3 s), which a long-lived process (the compare view's lane) uses from KERNEL_MIN_OPS on.
    from matchlens.core.diff.readable.chunks import KERNEL_MIN_OPS, exact_opcodes

    expected = " ".join(f"word{i % 50}" for i in range(3000))
    actual = expected.replace("word7 ", "word7x ").replace("word3 ", "")
    assert len(exact_opcodes(expected, actual)) >= KERNEL_MIN_OPS
    e, a = tmp_path / "e.txt", tmp_path / "a.txt"
    e.write_text(expected, encoding="utf-8")
    a.write_text(actual, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _PROBE, "diff", str(e), str(a), "--json",
                           "--metrics", "exact_match"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "numba": False}
    chunks = json.loads(done.stdout)["chunks"]
    assert "".join(actual[slice(*c["actual"])] for c in chunks if c["op"] != "delete") == actual


def test_moved_sentence_is_marked_at_both_places_and_listed_in_json(cli, tmp_path):
    e, a = tmp_path / "e.txt", tmp_path / "a.txt"
    e.write_text("The sky is blue today. Cats like to sleep all day. Dogs bark at night.",
                 encoding="utf-8")
    a.write_text("Cats like to sleep all day. Dogs bark at night. The sky is blue today.",
                 encoding="utf-8")
    run = cli("diff", e, a, "--metrics", "levenshtein_distance")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0] == (
        "[~1~The sky is blue today.~][- -]Cats like to sleep all day. Dogs bark at night."
        "{+ +}{~1~The sky is blue today.~}")
    data = json.loads(cli("diff", e, a, "--json").out)
    # 0-22 and 48-70: "The sky is blue today." in each; the edits inside them are worked out
    # from the exact script in tests/core/diff/test_moves.py (43 of the 46 here)
    assert data["moves"] == [{"expected": [0, 22], "actual": [48, 70], "edits": 43}]
    # the exact distance, unchanged by the move
    assert data["distance"] == Levenshtein.distance(e.read_text(), a.read_text()) == 46
