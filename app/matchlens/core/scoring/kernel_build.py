"""Building the kernels of metrics/fast ahead of time (numba.pycc): exercise, compile, install.

    python -m matchlens.core.scoring.kernel_build          # into the user cache (a few minutes)
    python -m matchlens.core.scoring.kernel_build --tests tests/core/metrics

The signatures come from use: every metric scores exercise files (ASCII, non-ASCII, empty and
long texts) through the pipeline a `score` run takes, with numba's JIT, and, given `--tests`,
the metrics' tests run too (they reach every branch); then each kernel is compiled by numba's
ahead-of-time compiler for every signature its dispatcher learnt, into one extension module.
`install` puts it, with its index, in `<kernels root>/<source key>/` (metrics.fast.ahead),
renamed into place whole: a run finds a complete build or none. packaging/frozen/aot_kernels.py
uses `compile_kernels` for the standalone app, which reads its index through a stand-in numba.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from matchlens.core.metrics.fast import ahead

# Texts of every kind the kernels branch on: ASCII only (uint8 code arrays), beyond ASCII
# (uint32), empty, whitespace, punctuation runs, long texts.
WORDS_ASCII = ("the cat sat on a mat , total 42 ; Paris is the capital of France . "
               "Answer : yes no maybe 3.14 e-mail x@y.z ( quoted ) \" ' -- ... & &amp; "
               "<skipped> hyphen-\nated 1,000.5 U.S.A. don't").split(" ")
WORDS_WIDE = ("naïve café Straße Ελληνικά русский 日本語 中文 한국어 עברית عربي 🙂 👍🏽 "
              "Ærø — – “quoted” ‘single’ … ½ №5 ｆｕｌｌ").split()
KERNELS_PACKAGE = "matchlens.core.metrics.fast."
# the modules whose kernels are built: the metrics' and the readable diff's compiled steps
KERNEL_PREFIXES = (KERNELS_PACKAGE, "matchlens.core.diff.readable.compiled")


def texts(rng: random.Random, words: tuple[str, ...] | list[str], n: int
          ) -> list[tuple[str, str]]:
    """`n` (expected, actual) pairs of these words: empty, short, long, equal, edited."""
    pairs = []
    for i in range(n):
        length = rng.choice((0, 1, 3, 12, 40, 400)) if i % 7 else 0
        expected = " ".join(rng.choice(words) for _ in range(length))
        actual = expected if i % 5 == 0 else " ".join(
            w if rng.random() < 0.7 else rng.choice(words) for w in expected.split())
        if i % 11 == 0:
            actual = "  \t" + actual + "\n"
        pairs.append((expected, actual))
    return pairs


def exercise(work: Path, tests: Path | None = None) -> None:
    """Score exercise files with every local metric in this process, the ways the app does
    (a file piece by piece: `score`; values: the Python API and calibrate; chunks: the window),
    and run the metrics' tests in `tests` when pytest is at hand, so that numba compiles each
    kernel for every signature a run calls it with (they differ between the ways: a chunk's
    word ids are int32 where the word table is the run's first, int64 once mapped)."""
    from matchlens.core.config import Config
    from matchlens.core.scoring import parallel
    from matchlens.core.scoring.mapping import ColumnMapping
    from matchlens.core.scoring.plan import choose_metrics, make_jobs

    rng = random.Random(26)
    sets = {"ascii": texts(rng, WORDS_ASCII, 300),
            "wide": texts(rng, WORDS_WIDE + WORDS_ASCII, 300),
            "mixed": texts(rng, WORDS_ASCII, 150) + texts(rng, WORDS_WIDE, 150)}
    mapping = ColumnMapping(expected="expected", actuals=("output_a",))
    # every kernel runs in this process: a forked scoring worker's signatures would be lost
    fork_from, parallel.PARALLEL_MIN_WORK = parallel.PARALLEL_MIN_WORK, float("inf")
    try:
        # as configured by default, and with the squad preset (token_f1's words normalised)
        for config in (Config(), Config().with_normalisation("squad")):
            jobs = make_jobs(choose_metrics("all", config), config)
            for name, pairs in sets.items():
                exercise_file(work / f"{name}.csv", pairs, mapping, jobs)
    finally:
        parallel.PARALLEL_MIN_WORK = fork_from
    exercise_readable(rng)
    if tests is None:
        return
    try:
        import pytest
    except ImportError:
        print(f"== pytest is not installed: signatures from the exercise files only, not {tests}")
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    pytest.main(["-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=", str(tests)])


def exercise_readable(rng: random.Random) -> None:
    """The readable diff's compiled steps (the compare view's long texts) on every width of
    code points (ASCII, Latin-1, the BMP, beyond it), case-folded and by word, as the window
    and `diff` call them."""
    from matchlens.core.diff.readable.chunks import readable_diff

    extra = ["café", "Straße", "Ελληνικά", "日本語", "🙂", "👍🏽", "ｆｕｌｌ", "½"]
    for words in (WORDS_ASCII, [*WORDS_ASCII, *extra[:2]], [*WORDS_ASCII, *extra[2:6]],
                  [*WORDS_ASCII, *extra]):
        for expected, actual in texts(rng, words, 40):
            for case_sensitive, by_word in ((True, False), (False, False), (True, True)):
                readable_diff(expected, actual, case_sensitive=case_sensitive, words=by_word,
                              compiled=True)


def exercise_file(path: Path, pairs: list[tuple[str, str]], mapping: Any, jobs: list) -> None:
    """`pairs` scored from a file written at `path`, as values and as the window's chunks."""
    from matchlens.core.datasets.readers import iter_tables
    from matchlens.core.metrics.fast.jaccard_kernel import jaccard_from_chars
    from matchlens.core.scoring.pipeline import score_chunks, score_stream, score_values
    from matchlens.core.scoring.tally import Tally

    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["expected", "output_a"])
        out.writerows(pairs)
    tables = iter_tables(path)
    first = next(tables)
    tally = Tally(first.label, mapping.variants, jobs, unit=first.unit)
    for _piece, _result in score_stream([first, *tables], mapping, jobs, tally):
        pass
    expected, actual = [e for e, _ in pairs], [a for _, a in pairs]
    score_values(expected, {"a": actual}, jobs)
    for _step in score_chunks(expected, {"a": actual}, jobs, chunk_rows=100):
        pass
    # jaccard's own kernel runs only in big runs without a word metric (fast.loading)
    jaccard_from_chars(expected, actual)


def kind(t: Any) -> object:
    """A numba type's argument kind as `ahead.kind` computes it from a Python value; None when
    no Python value is typed so (the overload is then not exported)."""
    from numba.core import types

    if isinstance(t, types.Array) and not isinstance(t, types.Literal):
        if not t.aligned or not isinstance(t.dtype, (types.Integer, types.Float, types.Boolean)):
            return None
        return ("array", str(t.dtype), t.ndim, t.layout, not t.mutable)
    if isinstance(t, (types.Literal, types.Omitted)):
        return None
    if isinstance(t, types.Boolean):
        return "bool"
    if isinstance(t, (types.Integer, types.Float)):
        return str(t)
    if isinstance(t, types.UnicodeType):
        return "unicode_type"
    return None


def compile_kernels(out: Path, prefix: str | tuple[str, ...] = "matchlens."
                    ) -> dict[str, list[tuple[str, tuple]]]:
    """Compile every kernel of a loaded module under `prefix`, for each signature numba's JIT
    compiled it with in this process, into out/matchlens_aot.*; returns the index (kernel
    `module.qualname` -> [(export name, argument kinds)])."""
    from numba.core.registry import CPUDispatcher
    from numba.pycc import CC
    from numba.pycc import compiler as pycc_compiler

    # pycc compiles with default flags; `nogil=True` kernels must release the GIL there too
    # (Ctrl+C and the compare lanes rely on it: cli/interrupts.py).
    plain_flags = pycc_compiler.Flags

    def releasing_flags() -> Any:
        flags = plain_flags()
        flags.release_gil = True
        return flags

    pycc_compiler.Flags = releasing_flags
    cc = CC(ahead.MODULE)
    cc.output_dir = str(out)
    cc.verbose = False
    index: dict[str, list[tuple[str, tuple]]] = {}
    for module_name in sorted(m for m in sys.modules if m.startswith(prefix)):
        for _name, obj in sorted(vars(sys.modules[module_name]).items(), key=lambda kv: kv[0]):
            if not isinstance(obj, CPUDispatcher) or obj.py_func.__module__ != module_name:
                continue
            key = f"{module_name}.{obj.py_func.__qualname__}"
            for args in obj.signatures:
                kinds = tuple(kind(t) for t in args)
                if None in kinds:  # called only from compiled code: part of its callers
                    continue
                export = f"k{sum(map(len, index.values()))}"
                cc.export(export, obj.overloads[args].signature)(obj.py_func)
                index.setdefault(key, []).append((export, kinds))
    if not index:
        raise RuntimeError("no kernel was compiled while exercising the app: nothing to export")
    try:
        cc.compile()
    finally:
        pycc_compiler.Flags = plain_flags
    return index


def use_the_jit(work: Path) -> None:
    """Make this process's kernels numba's JIT dispatchers (an empty kernels root), whatever
    is built: only they learn signatures. Must run before any kernel module is imported."""
    loaded = [m for m in sys.modules if m.startswith(KERNEL_PREFIXES) and
              (m.endswith("_kernel") or not m.startswith(KERNELS_PACKAGE))]
    if loaded:
        raise RuntimeError(f"build the kernels in a fresh process ({loaded[0]} is imported)")
    os.environ[ahead.ENV_DIR] = str(work / "empty")
    ahead.built.cache_clear()


def install(root: Path | None = None, tests: Path | None = None) -> Path:
    """Exercise, compile and put this source's kernels in root/<source key>/ (root: the kernels
    root of `ahead`); returns that folder. Renamed into place whole, replacing an older build
    of the same key."""
    root = ahead.kernels_root() if root is None else root
    key = ahead.source_key()
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="matchlens-kernels-") as work:
        use_the_jit(Path(work))
        exercise(Path(work), tests)
        building = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
        try:
            index = compile_kernels(building, KERNEL_PREFIXES)
            (building / ahead.INDEX).write_text(json.dumps({"key": key, "kernels": index}),
                                                encoding="utf-8")
            target = root / key
            old = None
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{key}-old-", dir=root))
                os.replace(target, old / key)
            os.replace(building, target)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(building, ignore_errors=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m matchlens.core.scoring.kernel_build",
        description="Compile MatchLens's metric kernels ahead of time (numba.pycc) into the "
                    "user cache, so that runs need not import numba (a few minutes, once per "
                    "MatchLens, numba or Python version).")
    parser.add_argument("--dir", type=Path, default=None,
                        help=f"the kernels root (default: ${ahead.ENV_DIR}, else the user cache)")
    parser.add_argument("--tests", type=Path, default=None,
                        help="also run these tests (tests/core/metrics) to learn signatures")
    args = parser.parse_args(argv)
    try:
        import numba.pycc  # noqa: F401 - the compiler is needed here, and only here
    except ImportError as exc:
        print(f"matchlens: cannot build the kernels ({exc}); runs use numba's JIT",
              file=sys.stderr)
        return 1
    if not (shutil.which("cc") or shutil.which("gcc")):
        # optional: without a build every run uses numba's JIT as before
        print("matchlens: no C compiler (cc or gcc), which numba.pycc needs: kernels not "
              "built ahead of time; runs use numba's JIT", file=sys.stderr)
        return 0
    try:
        folder = install(args.dir, args.tests)
    except KeyboardInterrupt:
        print("matchlens: interrupted; no kernels installed", file=sys.stderr)
        return 130
    except OSError as exc:
        where = exc.filename or args.dir or ahead.kernels_root()
        print(f"matchlens: {where}: cannot write the kernels there ({exc.strerror or exc}); "
              f"choose another folder with --dir", file=sys.stderr)
        return 1
    index = json.loads((folder / ahead.INDEX).read_text(encoding="utf-8"))["kernels"]
    print(f"matchlens: {sum(map(len, index.values()))} overloads of {len(index)} kernels "
          f"compiled ahead of time into {folder}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
