"""Loading the compiled kernels of metrics/fast (numba): what it costs, and when a run pays it.

A process pays a fixed cost the first time it runs a compiled kernel: importing numba, then
numba's first use of its CPU target (its registries of numpy and Python functions), then each
kernel's machine code read from the on-disk cache. With the kernels built ahead of time for
this source (fast.ahead) it is a few milliseconds and numba is not imported; the rules below
are unchanged, measured as they were against the JIT. A word metric (token_f1, wer, rouge_l,
bleu, chrf, cer) always runs compiled; jaccard only once a run is big enough for its own
kernel (jaccard_kernel) to win back that cost from its Python sets, or once another metric of
the run has loaded the word kernels anyway (then it counts the word table's ids,
`word_kernel.distinct_counts`).

`load_kernels` pays it in this process, so that the forked scoring worker started afterwards
(core.scoring.parallel) inherits everything instead of paying it a second time; the pipeline
calls it before the first fork when a run needs the kernels from its first row, and between
two pieces when a big run turns out to be worth the compiled jaccard.

numba's first use also imports scipy.linalg (via `numba.np.arraymath`'s BLAS check), which
pulls in numpy.f2py and scipy's array API layer: about a third of the whole cost, for a BLAS
no kernel here calls. `lean_first_use` keeps that import out; numba then computes one numpy
inner product (`np.cov`'s helper) with a loop instead of BLAS, and everything else that wants
BLAS (np.dot, np.linalg) imports it itself when compiled, as without this.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator

from matchlens.core.metrics.spec import MetricSpec

# The modules that hold the kernels: one of them is in sys.modules once some metric of this
# process has run compiled (or `load_kernels` ran), and numba's import is paid.
KERNEL_MODULES = ("matchlens.core.metrics.fast.word_kernel",
                  "matchlens.core.metrics.fast.jaccard_kernel")

# From this many rows of a run the compiled jaccard is used. Measured on bench_score's answers
# (~25 words, 30% equal to their reference; benchmarks/bench_metrics.py): importing numba and
# loading jaccard's kernel (fast.jaccard_kernel) costs ~0.44 s of one core; Python's sets cost
# ~3.6 us a row, the kernel ~1.5 us (equal pairs skipped by both), so the kernel wins back its
# load after ~210k rows. A run does not know its size until it ends, so the kernel is loaded
# once the run has read this many rows: by then Python's sets have cost about the load itself
# (the rent-or-buy rule: never more than twice the best choice made knowing the size), and a
# 1M-row file saves ~1.3 s of CPU. A run that loaded numba anyway (a word metric) uses the
# compiled jaccard from its first row, sharing the word table.
JACCARD_COMPILED_FROM_ROWS = 150_000


def kernels_loaded() -> bool:
    """True when the compiled kernels are loaded in this process (their cost is paid)."""
    return any(name in sys.modules for name in KERNEL_MODULES)


def words_loaded() -> bool:
    """True when the word table's kernels (word_kernel) are loaded in this process."""
    return KERNEL_MODULES[0] in sys.modules


def kernels_due(specs: Iterable[MetricSpec], rows: int) -> bool:
    """True when a run of `rows` rows so far, scoring these metrics, should have the kernels
    loaded and has not yet (MetricSpec.compiled_from_rows)."""
    return not kernels_loaded() and any(
        spec.compiled_from_rows is not None and rows >= spec.compiled_from_rows
        for spec in specs)


@contextlib.contextmanager
def lean_first_use() -> Iterator[None]:
    """numba's first use without importing scipy.linalg for its BLAS check (see the module's
    docstring); a no-op once scipy.linalg or numba's numpy support is imported."""
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        yield
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # import -> ImportError
    try:
        yield
    finally:
        if sys.modules.get("scipy.linalg", 0) is None:
            del sys.modules["scipy.linalg"]  # a later `import scipy.linalg` works as ever


def load_kernels(specs: Iterable[MetricSpec] = ()) -> None:
    """Import numba and the kernels the metrics need and run them once on a tiny input, so
    their machine code is in memory (a chunk with non-ASCII text loads the kernels'
    wide-character variant when it comes): the word table's when a metric needs it from its
    first row (a word metric: compiled_from_rows 0) or `specs` is empty, jaccard then sharing
    the table; jaccard's own kernel otherwise."""
    specs = list(specs)
    with lean_first_use():
        if not specs or any(spec.compiled_from_rows == 0 for spec in specs):
            from matchlens.core.metrics.fast.word_table import jaccard_scores, word_table

            jaccard_scores(word_table(["a b"], ["a"]).words, 1)
        else:
            from matchlens.core.metrics.fast.jaccard_kernel import jaccard_from_chars

            jaccard_from_chars(["a b"], ["a"])
