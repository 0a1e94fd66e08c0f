"""What the standalone app carries instead of numba/LLVM and scipy (packaging/frozen/): the
stand-in numba's choice of compiled overload, its Python fallback, the scipy subset, and the
spec's pruning of system libraries nothing kept needs. The compiled kernels themselves are
checked on the built app by packaging/smoke.py (MATCHLENS_KERNELS_STRICT=1)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numba
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "packaging" / "frozen"


def load(name: str, path: Path) -> ModuleType:
    """A module from a file under a private name (the stand-in must not shadow numba here)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def standin() -> ModuleType:
    return load("standin_numba", FROZEN / "numba_aot" / "numba" / "__init__.py")


@pytest.fixture(scope="module")
def aot() -> ModuleType:
    # packaging/frozen/aot_kernels.py builds through it
    from matchlens.core.scoring import kernel_build

    return kernel_build


def values() -> list[object]:
    grid = np.arange(12, dtype=np.int64).reshape(3, 4)
    frozen = np.frombuffer(b"abc", dtype=np.uint8)
    return [np.zeros(3, np.int64), np.zeros(3, np.uint32), frozen, np.zeros(2, np.bool_),
            np.zeros(2, np.float64), grid, np.asfortranarray(grid), grid[:, ::2],
            np.arange(10)[::3], np.zeros((0,), np.int32), 7, -(2**63), 2**63, 2**64 - 1,
            1.5, True, np.bool_(False), np.uint64(3), np.int32(4), np.float32(1.0), "naïve"]


def test_the_standin_types_arguments_as_numba_does(standin, aot):
    # kernel_build.kind(numba type) is what the build records for an overload; the stand-in's
    # kind(value), and metrics.fast.ahead's in the installed app, must be the same for the
    # value numba typed that way, or a compiled kernel is missed (slow) or, worse, a wrong one
    # is picked.
    from matchlens.core.metrics.fast import ahead

    for value in values():
        assert standin.kind(value) == aot.kind(numba.typeof(value)), value
        assert ahead.kind(value) == aot.kind(numba.typeof(value)), value


def test_a_call_no_overload_fits_runs_the_python_function(standin, monkeypatch):
    calls = []

    def total(xs):
        calls.append(xs.dtype.name)
        return int(xs.sum())

    compiled = ModuleType("fake_compiled")
    compiled.k0 = lambda xs: -1  # stands for the compiled overload: tells the two paths apart
    key = f"{total.__module__}.{total.__qualname__}"
    monkeypatch.setattr(standin, "compiled", compiled)
    monkeypatch.setattr(standin, "INDEX", {key: [("k0", (("array", "int64", 1, "C", False),))]})
    kernel = standin.njit(cache=True, nogil=True)(total)
    assert kernel.__name__ == "total"
    assert kernel(np.arange(4, dtype=np.int64)) == -1 and calls == []
    assert kernel(np.arange(4, dtype=np.int32)) == 6 and calls == ["int32"]
    assert kernel(xs=np.arange(4, dtype=np.int64)) == 6  # keywords: never the compiled wrapper
    monkeypatch.setattr(standin, "STRICT", True)
    with pytest.raises(TypeError, match=r"total for \(\('array', 'int32'"):
        kernel(np.arange(4, dtype=np.int32))


def test_the_scipy_subset_is_scipys_solver(tmp_path):
    # The stub packages and the real _lsap extension, imported in a fresh interpreter where
    # they come first on sys.path, answer as the real scipy does.
    sys.path.insert(0, str(FROZEN))
    try:
        bundle_trim = load("bundle_trim_under_test", FROZEN / "bundle_trim.py")
    finally:
        sys.path.remove(str(FROZEN))
    modules, binaries = bundle_trim.scipy_subset(tmp_path)
    (tmp_path / "scipy" / "optimize").mkdir(parents=True)
    for name, src, _ in modules:
        dest = tmp_path / Path(*name.split(".")) / "__init__.py"
        dest.write_text(Path(src).read_text(encoding="utf-8"), encoding="utf-8")
    dest, src, _ = binaries[0]
    (tmp_path / dest).write_bytes(Path(src).read_bytes())
    import subprocess

    code = ("import sys, numpy as np; from scipy.optimize import linear_sum_assignment as f; "
            "import scipy; r, c = f(np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])); "
            "print(scipy.__version__, r.tolist(), c.tolist(), "
            "sorted(m for m in sys.modules if m.startswith('scipy')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(tmp_path)}).stdout
    import scipy
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]]))
    assert out.split(" [")[0] == scipy.__version__
    assert f"{rows.tolist()} {cols.tolist()}" in out
    assert "['scipy', 'scipy.optimize', 'scipy.optimize._lsap']" in out


def test_system_libraries_nothing_kept_needs_are_pruned():
    sys.path.insert(0, str(FROZEN))
    try:
        bundle_trim = load("bundle_trim_orphans", FROZEN / "bundle_trim.py")
    finally:
        sys.path.remove(str(FROZEN))
    core = Path(np.__file__).parent / "_core"
    umath = next(core.glob("_multiarray_umath.*.so"))
    blas_name = sorted(bundle_trim.needed(str(umath)))
    blas = [n for n in blas_name if "openblas" in n]
    assert blas, f"numpy's core needs no OpenBLAS here: {blas_name}"
    libs = Path(np.__file__).parent.parent / "numpy.libs"
    entries = [(f"numpy/_core/{umath.name}", str(umath), "EXTENSION"),
               (blas[0], str(libs / blas[0]), "BINARY"),       # needed by a kept extension
               ("libunrelated.so.1", str(libs / blas[0]), "BINARY")]  # needed by nothing
    assert bundle_trim.orphans(entries) == {"libunrelated.so.1"}
