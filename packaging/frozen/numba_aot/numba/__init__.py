"""The standalone app's numba: MatchLens's kernels compiled ahead of time, no LLVM at run time.

packaging/frozen/aot_kernels.py compiles every kernel (with numba's own ahead-of-time compiler)
for the signatures the app calls it with, into the extension module `matchlens_aot`, and lists
them in `matchlens_aot_index`. Here `numba.njit` wraps a kernel's Python function in a `Kernel`
that picks the compiled overload whose argument kinds equal the call's (numpy arrays: dtype,
dimensions, layout, read-only; scalars: their numba type), as numba's dispatcher would. A call
no overload fits runs the Python function: same results, slower; MATCHLENS_KERNELS_STRICT=1
makes it a TypeError instead (packaging/smoke.py proves `--metrics all` needs no fallback).
Installed with pip, MatchLens uses the real numba.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import matchlens_aot as compiled
    from matchlens_aot_index import INDEX
except ImportError:  # a bundle built without them: every kernel runs as Python
    compiled, INDEX = None, {}

__version__ = "0+aot"
STRICT = os.environ.get("MATCHLENS_KERNELS_STRICT") == "1"
INT64 = (-(2**63), 2**63 - 1)


def kind(value: Any) -> object:
    """The argument kind numba would type `value` as (see aot_kernels.kind), or its type."""
    if isinstance(value, np.ndarray):
        flags = value.flags
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


class Kernel:
    """One kernel: its compiled overloads, and its Python function for any other call."""

    def __init__(self, py_func: Callable[..., Any]) -> None:
        self.py_func = py_func
        key = f"{py_func.__module__}.{py_func.__qualname__}"
        self.overloads = {kinds: getattr(compiled, name) for name, kinds in INDEX.get(key, ())}
        functools.update_wrapper(self, py_func)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs:
            run = self.overloads.get(tuple(kind(arg) for arg in args))
            if run is not None:
                return run(*args)
        if STRICT:
            kinds = ", ".join(str(kind(arg)) for arg in args)
            raise TypeError(f"no compiled {self.py_func.__qualname__} for ({kinds})"
                            f"{' with keywords' if kwargs else ''}")
        return self.py_func(*args, **kwargs)


def njit(*args: Any, **options: Any) -> Any:
    """`@numba.njit` and `@numba.njit(...)`: the options were used when compiling."""
    if len(args) == 1 and callable(args[0]) and not options:
        return Kernel(args[0])
    return Kernel


jit = njit
