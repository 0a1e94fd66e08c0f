"""The kernels of metrics/fast compiled ahead of time: `njit`, the decorator the kernel modules
use, and finding a built kernel module that belongs to this very source.

Importing numba and its first use cost about 0.6 s a process, before any kernel runs: that was
the whole of `--metrics all`'s extra time on a 10k-row file. numba's ahead-of-time compiler
(numba.pycc) turns every kernel, for the argument types the app calls it with, into one
extension module that loads in milliseconds without numba or LLVM. `core.scoring.kernel_build`
builds it (`python -m matchlens.core.scoring.kernel_build`, a few minutes) into
`<user cache>/matchlens/kernels/<key>/` or `$MATCHLENS_KERNELS_DIR/<key>/`, where `key` is a hash
of every source file of metrics/fast (and of the readable diff's compiled steps, which use
`njit` too), numba's, numpy's and Python's versions and the machine:
a developer who edits a kernel (or upgrades numba) gets no module for the new key, never old
machine code.

`njit(**options)` returns, when a module for this key is built, an `AheadKernel`: a call whose
argument kinds (numpy arrays: dtype, dimensions, layout, read-only; scalars: their numba type,
as numba's own dispatcher types them) match a compiled overload runs it; any other call goes to
the real numba JIT, imported then (same machine code as without a build, never the slow Python
function). Without a build it is `numba.njit(**options)` itself, as before. The standalone app
finds no build here and imports its stand-in numba (packaging/frozen/numba_aot), which holds the
same compiled module.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import platform
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

ENV_DIR = "MATCHLENS_KERNELS_DIR"  # the folder of built modules, instead of the user cache's
# A call no compiled overload fits is a TypeError instead of the JIT (checks that a build
# covers a run, as in the standalone app: packaging/smoke.py)
STRICT = "MATCHLENS_KERNELS_STRICT"
MODULE = "matchlens_aot"  # the extension module's name (its PyInit_ symbol)
INDEX = "index.json"  # beside it: {"key": ..., "kernels": {module.qualname: [[export, kinds]]}}
SOURCE_DIR = Path(__file__).resolve().parent
# the readable diff's compiled steps (the compare view's long texts) use `njit` too
DIFF_SOURCES = tuple(SOURCE_DIR.parents[1] / "diff" / "readable" / name
                     for name in ("compiled.py", "compiled_regions.py"))
INT64 = (-(2**63), 2**63 - 1)


def kernels_root() -> Path:
    """The folder holding one sub-folder per built key."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("matchlens", appauthor=False)) / "kernels"


def numba_version() -> str:
    """numba's installed version, read without importing numba ("" when not installed)."""
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return ""


def source_key() -> str:
    """The hash a built module must carry to be used: every .py file of metrics/fast (a kernel
    may read a constant of a neighbour) and the readable diff's compiled steps, numba, numpy,
    Python and the machine."""
    digest = hashlib.sha256()
    for path in [*sorted(SOURCE_DIR.glob("*.py")), *DIFF_SOURCES]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update("|".join((numba_version(), np.__version__, sys.implementation.cache_tag,
                            platform.machine(), platform.system())).encode())
    return digest.hexdigest()[:32]


def kind(value: Any) -> object:
    """The argument kind numba types `value` as (kernel_build.kind gives the same for a numba
    type), or its Python type when no compiled overload could take it."""
    if isinstance(value, np.ndarray):
        flags = value.flags
        if not flags.aligned:
            return type(value)
        layout = "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A"
        return ("array", value.dtype.name, value.ndim, layout, not flags.writeable)
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, int):
        return "int64" if INT64[0] <= value <= INT64[1] else "uint64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, (np.integer, np.floating)):
        return value.dtype.name
    if isinstance(value, str):
        return "unicode_type"
    return type(value)


def frozen_kinds(kinds: Any) -> Any:
    """JSON's lists back to the tuples `kind` returns."""
    return tuple(frozen_kinds(k) for k in kinds) if isinstance(kinds, list) else kinds


@functools.cache
def built() -> dict[str, dict[tuple, Callable[..., Any]]] | None:
    """This source's built kernels (`module.qualname` -> {argument kinds: compiled function}),
    or None: no build for this key, a damaged one (the JIT then, as without it), or this is
    the standalone app, whose stand-in numba carries its own."""
    if getattr(sys, "frozen", False):
        return None
    folder = kernels_root() / source_key()
    try:
        index = json.loads((folder / INDEX).read_text(encoding="utf-8"))
        library = next(folder.glob(f"{MODULE}.*"))
    except (OSError, ValueError, StopIteration):
        return None
    if not isinstance(index, dict) or index.get("key") != folder.name:
        return None
    spec = importlib.util.spec_from_file_location(MODULE, library)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        return {name: {frozen_kinds(kinds): getattr(module, export) for export, kinds in overloads}
                for name, overloads in index["kernels"].items()}
    except (ImportError, AttributeError, KeyError, TypeError, ValueError):
        return None  # built for another numpy ABI, or damaged


class AheadKernel:
    """One kernel: its compiled overloads, and numba's JIT (imported on first need) for any
    call none of them fits, or when compiled code of the JIT calls this kernel."""

    def __init__(self, py_func: Callable[..., Any], options: dict[str, Any],
                 overloads: dict[tuple, Callable[..., Any]]) -> None:
        self.py_func = py_func
        self.options = options
        self.overloads = overloads
        functools.update_wrapper(self, py_func)

    @functools.cached_property
    def jitted(self) -> Any:
        """The kernel as numba's dispatcher (numba imported now)."""
        import numba

        teach_numba()
        return numba.njit(**self.options)(self.py_func)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            run = self.overloads.get(tuple(kind(arg) for arg in args))
            if run is not None:
                return run(*args)
        if os.environ.get(STRICT) == "1":
            kinds = ", ".join(str(kind(arg)) for arg in args)
            raise TypeError(f"no compiled {self.py_func.__qualname__} for ({kinds})"
                            f"{' with keywords' if kwargs else ''}")
        return self.jitted(*args, **kwargs)


@functools.cache
def teach_numba() -> None:
    """Make numba type an AheadKernel as its JIT dispatcher, so that a kernel compiled by the
    JIT can call another kernel of its module (a global of its Python function)."""
    from numba.core import types
    from numba.core.typing.typeof import typeof_impl

    @typeof_impl.register(AheadKernel)
    def typeof_ahead(value: AheadKernel, context: Any) -> Any:  # noqa: ARG001 - numba's API
        return types.Dispatcher(value.jitted)


def njit(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """`@numba.njit(**options)`, taking each kernel from this source's built module when there
    is one (without importing numba), numba's JIT otherwise."""

    def decorate(py_func: Callable[..., Any]) -> Any:
        found = built()
        if found is None:
            import numba

            return numba.njit(**options)(py_func)
        key = f"{py_func.__module__}.{py_func.__qualname__}"
        return AheadKernel(py_func, options, found.get(key, {}))

    return decorate
