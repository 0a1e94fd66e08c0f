"""User regexes cannot hang a run (issue 28 item 8): a pattern that backtracks without end is
stopped with a sentence naming it, a pattern too big to build is a sentence, and Ctrl+C ends
a run stuck in one (a real process)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess

import pytest

from matchlens.core.errors import ConfigError
from matchlens.core.text import user_regex
from matchlens.core.text.normalise import parse_normalise, pipeline
from tests.cli.conftest import PYTHON, run_process


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(user_regex, "BASE_SECONDS", 0.2)


def test_catastrophic_backtracking_is_stopped_with_a_sentence(quick):
    steps = pipeline(parse_normalise("extract_regex:((a|aa)+)$"))
    with pytest.raises(ConfigError, match=r"'\(\(a\|aa\)\+\)\$' took more than .* 41 char"):
        steps.apply("a" * 40 + "b")
    with pytest.raises(ConfigError, match="stopped"):
        steps.mapped("a" * 40 + "b")  # the compare view's form too


def test_patterns_still_mean_what_re_means():
    assert pipeline(parse_normalise("ignore_regex:(a+)+$")).apply("a" * 40 + "b") == \
        "a" * 40 + "b"  # no match: 'b' ends the text; the regex package answers at once
    assert pipeline(parse_normalise(r"extract_regex:#### (\d+)")).apply("x #### 42") == "42"
    mapped = pipeline(parse_normalise(r"ignore_regex:\s*\(.*?\)")).mapped("Paris (France)")
    assert mapped.text == "Paris" and mapped.origin.tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("pattern", ["a{4294967296}", "(", "a**"])
def test_a_pattern_that_cannot_be_built_is_a_sentence(pattern):
    with pytest.raises(ConfigError, match="is not a valid regular expression"):
        parse_normalise(f"ignore_regex:{pattern}")


def test_a_huge_repeat_count_is_exit_2_not_70(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("expected,actual\na,a\n", encoding="utf-8")
    run = run_process("score", data, "--expected", "expected", "--actual", "actual",
                      "--normalise", "ignore_regex:a{4294967296}")
    assert run.code == 2 and "repeat count too big" in run.err


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_ends_a_run_stuck_in_a_regex(tmp_path):
    data = tmp_path / "d.csv"
    # 3 million characters: the limit is 2 s + 2 µs a character = 8 s, so the run is in the
    # match when the signal comes (and would end with 130 at any moment before it too)
    data.write_text("expected,actual\n" + "a" * 3_000_000 + "b,x\n", encoding="utf-8")
    proc = subprocess.Popen([str(PYTHON), "-m", "matchlens", "score", str(data), "--expected",
                             "expected", "--actual", "actual", "--metrics", "exact_match",
                             "--normalise", "extract_regex:((a|aa)+)$", "-o",
                             str(tmp_path / "out.csv")], stderr=subprocess.PIPE)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=1.5)  # not an assertion: give it time to reach the match
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert b"interrupted" in err and not (tmp_path / "out.csv").exists()
