"""metrics.fast.ahead: a module compiled ahead of time is used for this source only, without
importing numba, and any call it has no overload for goes to numba's JIT with the same result.

A toy kernel module (two kernels, one calling the other) is compiled once by
core.scoring.kernel_build.compile_kernels in a child process (~20 s), under this source's key;
every check runs in a fresh child, as a run of the app would (`ahead.built` is decided once a
process). The real kernels' build (minutes) is checked in tests/test_packaging.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from matchlens.core.metrics.fast import ahead

TOY = '''
from matchlens.core.metrics.fast import ahead


@ahead.njit(nogil=True)
def double(x):
    return x * 2


@ahead.njit(nogil=True)
def total(values):
    s = 0
    for v in values:
        s += double(v)
    return s
'''

BUILD = '''
import json, sys
from pathlib import Path
import numpy as np
from matchlens.core.metrics.fast import ahead
from matchlens.core.scoring import kernel_build
import toykernel
toykernel.total(np.arange(5, dtype=np.int64))  # the one signature the build learns
out = Path(sys.argv[1])
index = kernel_build.compile_kernels(out, prefix="toykernel")
(out / ahead.INDEX).write_text(json.dumps({"key": out.name, "kernels": index}))
'''

RUN = '''
import json, sys
import numpy as np
import toykernel
from matchlens.core.metrics.fast import ahead
values = np.arange(1, 6, dtype=sys.argv[1])
kind = type(toykernel.total).__name__
result = float(toykernel.total(values))
print(json.dumps({"kind": kind, "result": result, "numba": "numba" in sys.modules,
                  "built": ahead.built() is not None}))
'''


def child(code: str, args: list[str], toy: Path, kernels: Path, **env: str
          ) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(toy), os.environ.get("PYTHONPATH", ""), *sys.path])
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": path,
                                            ahead.ENV_DIR: str(kernels), **env})


@pytest.fixture(scope="module")
def toy_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(folder of toykernel.py, kernels root holding its build under this source's key)."""
    base = tmp_path_factory.mktemp("ahead")
    toy, kernels = base / "toy", base / "kernels"
    toy.mkdir()
    (toy / "toykernel.py").write_text(TOY, encoding="utf-8")
    out = kernels / ahead.source_key()
    out.mkdir(parents=True)
    made = child(BUILD, [str(out)], toy, base / "none",
                 NUMBA_CACHE_DIR=str(base / "numba-cache"))
    assert made.returncode == 0, made.stderr[-2000:]
    return toy, kernels


def run(toy_build: tuple[Path, Path], dtype: str, **env: str) -> dict:
    toy, kernels = toy_build
    done = child(RUN, [dtype], toy, kernels, **env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_built_kernel_runs_without_numba(toy_build):
    got = run(toy_build, "int64")
    # 2 * (1 + 2 + 3 + 4 + 5) = 30, from the compiled overload: numba never imported
    assert got == {"kind": "AheadKernel", "result": 30.0, "numba": False, "built": True}


def test_a_call_the_build_lacks_goes_to_the_jit_with_the_same_result(toy_build):
    # float64 values were never compiled ahead: numba's JIT compiles `total`, whose global
    # `double` is an AheadKernel (typed as its own JIT dispatcher)
    got = run(toy_build, "float64")
    assert got == {"kind": "AheadKernel", "result": 30.0, "numba": True, "built": True}


def test_strict_makes_a_missing_overload_an_error(toy_build):
    toy, kernels = toy_build
    done = child(RUN, ["float64"], toy, kernels, MATCHLENS_KERNELS_STRICT="1")
    assert done.returncode != 0
    assert "no compiled total for (('array', 'float64', 1, 'C', False))" in done.stderr


def test_a_stale_build_is_ignored(toy_build, tmp_path):
    # the same build under the key of other sources (a kernel edited since): not looked at
    toy, kernels = toy_build
    stale = tmp_path / "kernels"
    shutil.copytree(kernels / ahead.source_key(), stale / ("0" * 32))
    got = run((toy, stale), "int64")
    assert got == {"kind": "CPUDispatcher", "result": 30.0, "numba": True, "built": False}


def test_a_build_whose_index_names_another_key_is_ignored(toy_build, tmp_path):
    toy, kernels = toy_build
    copy = tmp_path / "kernels" / ahead.source_key()
    shutil.copytree(kernels / ahead.source_key(), copy)
    index = json.loads((copy / ahead.INDEX).read_text(encoding="utf-8"))
    (copy / ahead.INDEX).write_text(json.dumps({**index, "key": "0" * 32}), encoding="utf-8")
    assert run((toy, copy.parent), "int64")["built"] is False


def test_a_damaged_build_is_ignored(toy_build, tmp_path):
    # its index names an export the module lacks: every kernel from the JIT, no crash
    toy, kernels = toy_build
    copy = tmp_path / "kernels" / ahead.source_key()
    shutil.copytree(kernels / ahead.source_key(), copy)
    index = json.loads((copy / ahead.INDEX).read_text(encoding="utf-8"))
    for overloads in index["kernels"].values():
        for overload in overloads:
            overload[0] = "k999"
    (copy / ahead.INDEX).write_text(json.dumps(index), encoding="utf-8")
    got = run((toy, copy.parent), "int64")
    assert got == {"kind": "CPUDispatcher", "result": 30.0, "numba": True, "built": False}


def test_the_key_changes_with_any_source_file_of_metrics_fast(tmp_path, monkeypatch):
    before = ahead.source_key()
    copy = tmp_path / "fast"
    shutil.copytree(ahead.SOURCE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(ahead, "SOURCE_DIR", copy)
    assert ahead.source_key() == before
    kernel = copy / "word_kernel.py"
    kernel.write_text(kernel.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert ahead.source_key() != before


def test_the_key_changes_with_the_readable_diffs_compiled_steps(tmp_path, monkeypatch):
    before = ahead.source_key()
    copies = []
    for source in ahead.DIFF_SOURCES:
        copy = tmp_path / source.name
        shutil.copy(source, copy)
        copies.append(copy)
    monkeypatch.setattr(ahead, "DIFF_SOURCES", tuple(copies))
    assert ahead.source_key() == before
    for copy in copies:  # an edit of either changes the key
        text = copy.read_text(encoding="utf-8")
        copy.write_text(text + "\n# edited\n", encoding="utf-8")
        assert ahead.source_key() != before
        copy.write_text(text, encoding="utf-8")
        assert ahead.source_key() == before


def test_the_key_changes_with_numba(monkeypatch):
    before = ahead.source_key()
    monkeypatch.setattr(ahead, "numba_version", lambda: "0.0.1")
    assert ahead.source_key() != before


def test_no_build_means_numba_itself(tmp_path):
    # the kernels root is empty: the kernel modules get numba's dispatchers, as before
    code = textwrap.dedent('''
        import sys
        from matchlens.core.metrics.fast import word_kernel
        print(type(word_kernel.split_words).__name__, "numba" in sys.modules)
    ''')
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={**os.environ, ahead.ENV_DIR: str(tmp_path)})
    assert done.stdout.split() == ["CPUDispatcher", "True"], done.stderr[-2000:]
