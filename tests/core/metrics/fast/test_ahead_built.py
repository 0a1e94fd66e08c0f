"""metrics.fast.ahead with the real kernels built ahead of time: every metric's scores, and the
readable diff's chunks from its compiled steps, equal numba's JIT's, on ASCII, non-ASCII and
empty texts (Hypothesis).

Building the kernels takes minutes, so this runs only when a build for this source exists:
build/aot/kernels/<key> (packaging/build.sh makes it before CI's tests) or
$MATCHLENS_KERNELS_DIR/<key> (`python -m matchlens.core.scoring.kernel_build --dir DIR`).
Two child processes score the same pairs, one with the build (strict: a call the build lacks
is an error, so what is compared is compiled code), one with an empty kernels root (the JIT).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchlens.core.metrics.fast import ahead

ROOT = Path(__file__).resolve().parents[4]
ROOTS = [Path(p) for p in (os.environ.get(ahead.ENV_DIR), ROOT / "build" / "aot" / "kernels") if p]
BUILT = next((root for root in ROOTS if (root / ahead.source_key() / ahead.INDEX).exists()), None)

pytestmark = pytest.mark.skipif(BUILT is None, reason="no kernels built for this source "
                                "(packaging/build.sh, or kernel_build --dir $MATCHLENS_KERNELS_DIR)")

SERVER = '''
import json, sys
from matchlens.core.config import Config
from matchlens.core.diff.readable.chunks import readable_diff
from matchlens.core.metrics.fast.jaccard_kernel import jaccard_from_chars
from matchlens.core.scoring.pipeline import score_values
from matchlens.core.scoring.plan import choose_metrics, make_jobs

config = Config()
jobs = make_jobs(choose_metrics("all", config), config)
print(json.dumps([job.id for job in jobs]), flush=True)
for line in sys.stdin:
    pairs = json.loads(line)
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    result = score_values(expected, {"a": actual}, jobs)
    out = {job.id: result.scores[("a", job.id)].tolist() for job in jobs}
    # jaccard's own kernel (big runs only, fast.loading): its counts
    out["jaccard_kernel"] = jaccard_from_chars(expected, actual).tolist()
    # the readable diff's compiled steps (the compare view's long texts): the chunks of the
    # pairs joined 40 times over, so that a changed pair gives the kernel's many changes
    # (chunks.KERNEL_MIN_OPS)
    long_e, long_a = "\\n".join(expected * 40), "\\n".join(actual * 40)
    out["readable"] = [[list(c) for c in readable_diff(long_e, long_a, case_sensitive=cs,
                                                        words=by_word, compiled=True).chunks]
                       for cs, by_word in ((True, False), (False, False), (True, True))]
    out["numba"] = "numba" in sys.modules
    print(json.dumps(out), flush=True)
'''


class Scorer:
    """A child process scoring lists of pairs with every local metric, one JSON line each."""

    def __init__(self, kernels: Path, **env: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env={**os.environ, ahead.ENV_DIR: str(kernels), **env})
        self.metrics = json.loads(self.process.stdout.readline())

    def score(self, pairs: list[tuple[str, str]]) -> dict:
        try:
            self.process.stdin.write(json.dumps(pairs) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        assert line, f"the scoring child ended (exit {self.process.wait()})"
        return json.loads(line)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def scorers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Scorer, Scorer]]:
    compiled = Scorer(BUILT, MATCHLENS_KERNELS_STRICT="1")
    jit = Scorer(tmp_path_factory.mktemp("no-kernels"))
    yield compiled, jit
    compiled.close()
    jit.close()


WORDS_ASCII = st.text(st.sampled_from("ab Z9 ,.;'-\t\n"), max_size=40)
WORDS_ANY = st.text(st.one_of(st.sampled_from(" \t\u3000\u00a0"),
                              st.characters(codec="utf-8", exclude_categories=("Cs",))),
                    max_size=40)
PAIRS = st.lists(st.one_of(st.tuples(WORDS_ASCII, WORDS_ASCII), st.tuples(WORDS_ANY, WORDS_ANY),
                           st.tuples(st.just(""), WORDS_ANY), st.tuples(WORDS_ANY, st.just(""))),
                 min_size=1, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=PAIRS)
def test_every_metric_compiled_ahead_equals_the_jit(scorers, pairs):
    compiled, jit = scorers
    got, want = compiled.score(pairs), jit.score(pairs)
    assert got.pop("numba") is False  # the build served every kernel: numba never imported
    want.pop("numba")
    # NaN (no score) compares equal to NaN through JSON's NaN token
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)


def test_the_equality_check_covers_every_compiled_metric(scorers):
    compiled, _ = scorers
    got = compiled.score([("the cat sat", "the cat sat down"), ("café", "cafe")])
    assert {"bleu", "chrf", "token_f1", "wer", "cer", "rouge_l", "jaccard", "readable"} <= set(got)
    assert got["readable"][0]  # chunks there are
