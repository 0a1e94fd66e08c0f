"""Compile MatchLens's numba kernels ahead of time for the standalone app (build step).

    python packaging/frozen/aot_kernels.py OUTDIR

The frozen app carries no LLVM (llvmlite alone is ~150 MiB): its kernels are compiled here, by
numba's own ahead-of-time compiler (numba.pycc), into one extension module, OUTDIR/
matchlens_aot.*.so, for every signature the app calls them with. The signatures are learnt by
running the app's scoring on exercise data (ASCII, non-ASCII, empty and long texts, every
metric), then read off numba's dispatchers. OUTDIR/matchlens_aot_index.py maps each kernel
(module.qualname) to its exported overloads and their argument kinds; the stand-in numba package
(packaging/frozen/numba_aot/numba) reads it in the frozen app: a call whose arguments match an
overload runs the compiled code (with the GIL released, as `nogil=True` asks), any other call
the kernel's Python function (same results, slower), or a TypeError under
MATCHLENS_KERNELS_STRICT=1 (packaging/smoke.py).
"""

from __future__ import annotations

import csv
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE = "matchlens_aot"

# Texts of every kind the kernels branch on: ASCII only (uint8 code arrays), beyond ASCII
# (uint32), empty, whitespace, punctuation runs, long texts.
WORDS_ASCII = ("the cat sat on a mat , total 42 ; Paris is the capital of France . "
               "Answer : yes no maybe 3.14 e-mail x@y.z ( quoted ) \" ' -- ... & &amp; "
               "<skipped> hyphen-\nated 1,000.5 U.S.A. don't").split(" ")
WORDS_WIDE = ("naïve café Straße Ελληνικά русский 日本語 中文 한국어 עברית عربي 🙂 👍🏽 "
              "Ærø — – “quoted” ‘single’ … ½ №5 ｆｕｌｌ").split()


def texts(rng: random.Random, words: tuple[str, ...], n: int) -> list[tuple[str, str]]:
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


def exercise(work: Path) -> None:
    """Score exercise files with every metric in this process, then run the metrics' tests
    (when pytest and tests/ are at hand: they reach every branch), so numba compiles each kernel
    for every signature the app uses."""
    from matchlens.main import main

    rng = random.Random(26)
    sets = {"ascii": texts(rng, WORDS_ASCII, 300),
            "wide": texts(rng, WORDS_WIDE + WORDS_ASCII, 300),
            "mixed": texts(rng, WORDS_ASCII, 150) + texts(rng, WORDS_WIDE, 150)}
    files = [ROOT / "resources" / "samples" / "qa_extraction_sample.csv"]
    for name, pairs in sets.items():
        path = work / f"{name}.csv"
        with path.open("w", encoding="utf-8", newline="") as f:
            out = csv.writer(f)
            out.writerow(["expected", "output_a"])
            out.writerows(pairs)
        files.append(path)
    for path in files:
        try:
            main(["score", str(path), "--expected", "expected", "--actual", "output_a",
                  "--metrics", "all", "-o", str(work / "out.csv"), "--quiet"])
        except SystemExit as done:
            if done.code not in (0, 1, None):
                raise SystemExit(f"exercising {path} failed: exit {done.code}") from None
    # jaccard's own kernel runs only in a run of 150k rows or more without a word metric
    # (core.metrics.fast.loading): called here on both kinds of text
    from matchlens.core.metrics.fast.jaccard_kernel import jaccard_from_chars

    for pairs in sets.values():
        jaccard_from_chars([e for e, _ in pairs], [a for _, a in pairs])
    tests = ROOT / "tests" / "core" / "metrics"
    try:
        import pytest
    except ImportError:
        print(f"== pytest is not installed: the kernels' signatures come from the exercise "
              f"files only, not {tests}")
        return
    if tests.is_dir():
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        pytest.main(["-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=",
                     str(tests)])


def kind(t) -> object:  # noqa: ANN001 - a numba type
    """An argument's kind as the stand-in numba computes it from a Python value; None when the
    stand-in cannot tell it (the overload is then not exported)."""
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


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.splitlines()[2].strip())
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "app"))
    with tempfile.TemporaryDirectory(prefix="matchlens-aot-") as work:
        os.environ["NUMBA_CACHE_DIR"] = str(Path(work) / "numba-cache")
        exercise(Path(work))

    import numba
    from numba.core.registry import CPUDispatcher
    from numba.pycc import CC
    from numba.pycc import compiler as pycc_compiler

    # pycc compiles with default flags; `nogil=True` kernels must release the GIL there too
    # (Ctrl+C and the compare lanes rely on it: cli/interrupts.py).
    plain_flags = pycc_compiler.Flags

    def releasing_flags():  # noqa: ANN202
        flags = plain_flags()
        flags.release_gil = True
        return flags

    pycc_compiler.Flags = releasing_flags

    cc = CC(MODULE)
    cc.output_dir = str(out)
    cc.verbose = False
    index: dict[str, list[tuple[str, tuple]]] = {}
    skipped: list[str] = []
    for module_name in sorted(m for m in sys.modules if m.startswith("matchlens.")):
        for _name, obj in sorted(vars(sys.modules[module_name]).items(), key=lambda kv: kv[0]):
            if not isinstance(obj, CPUDispatcher) or obj.py_func.__module__ != module_name:
                continue
            key = f"{module_name}.{obj.py_func.__qualname__}"
            for args in obj.signatures:
                kinds = tuple(kind(t) for t in args)
                sig = obj.overloads[args].signature
                if None in kinds:
                    skipped.append(f"{key}{sig}")
                    continue
                export = f"k{sum(map(len, index.values()))}"
                cc.export(export, sig)(obj.py_func)
                index.setdefault(key, []).append((export, kinds))
    if not index:
        raise SystemExit("no kernel was compiled while exercising the app: nothing to export")
    cc.compile()
    lines = [f'"""Written by packaging/frozen/aot_kernels.py (numba {numba.__version__}): each '
             f'kernel\'s overloads in {MODULE}, with their argument kinds."""', "",
             "INDEX = {"]
    lines += [f"    {key!r}: {overloads!r}," for key, overloads in sorted(index.items())]
    lines += ["}", ""]
    (out / f"{MODULE}_index.py").write_text("\n".join(lines), encoding="utf-8")
    count = sum(map(len, index.values()))
    print(f"== compiled ahead of time: {count} overloads of {len(index)} kernels "
          f"({len(skipped)} called only from compiled code, left to their callers)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
