"""The scoring child process over its real pipe: chunks in, scores out, then the kept columns'
ranks; one reply frame per chunk whatever happens to the texts it keeps."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from matchlens.core.metrics.registry import get_metric
from matchlens.core.scoring.view_order import text_ranks
from matchlens.workers.background import child_command
from matchlens.workers.frames import read_frame, write_frame

EXPECTED = ["Paris", "Rome", None, "Oslo", "Bern", "Rome"]
ACTUAL = ["paris", "Roma", "x", "Oslo", "Berne", "Rome"]
IDS = ["r6", "r5", "r4", "r3", "r2", "r1"]


@pytest.fixture
def child():
    proc = subprocess.Popen(child_command("matchlens.workers.score_child"),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert read_frame(proc.stdout) == ("ready",)
    sim = get_metric("levenshtein_similarity")
    write_frame(proc.stdin, ("jobs", [(sim.id, 0.5, dict(sim.resolve_options()))]))
    yield proc
    proc.kill()
    proc.wait()


def send_chunks(proc, size: int = 4) -> list:
    replies = []
    for start in range(0, len(EXPECTED), size):
        stop = start + size
        write_frame(proc.stdin, ("chunk", start, ["a"], True))
        for column in (EXPECTED, ACTUAL, IDS):
            write_frame(proc.stdin, column[start:stop])
        replies.append(read_frame(proc.stdout))
    return replies


def test_scores_then_ranks_of_the_kept_columns(child):
    write_frame(child.stdin, ("keep", ["expected", "actual:a", "id"]))
    replies = send_chunks(child)
    assert [r[0] for r in replies] == ["chunk", "chunk"]
    assert [(r[1].start, r[1].stop) for r in replies] == [(0, 4), (4, 6)]
    write_frame(child.stdin, ("ranks",))
    ranks = {}
    while (message := read_frame(child.stdout))[0] == "rank":
        ranks[message[1]] = message[2]
    assert message == ("ranks done",)
    for key, column in (("expected", EXPECTED), ("actual:a", ACTUAL), ("id", IDS)):
        np.testing.assert_array_equal(ranks[key], text_ranks(column))


def test_a_column_it_cannot_keep_costs_the_ranks_not_the_scores(child):
    write_frame(child.stdin, ("keep", ["expected", "actual:missing"]))  # no such variant
    replies = send_chunks(child)
    assert [r[0] for r in replies] == ["chunk", "chunk"]  # one reply per chunk, in step
    write_frame(child.stdin, ("ranks",))
    assert read_frame(child.stdout) == ("ranks done",)
    write_frame(child.stdin, ("exit",))
    assert child.wait(timeout=10) == 0
