"""Where the frozen app's compiled kernels are cached: the user's cache folder, never beside the binary.

numba keys its disk cache on the source file of a jitted function; a PyInstaller app ships no
sources (its code objects carry paths relative to the bundle), so numba's own locators either
refuse or key the cache on the current folder. This one keys it on the bundle's path under
NUMBA_CACHE_DIR, which the runtime hook (rthook_numba_cache.py) sets to
platformdirs.user_cache_dir("matchlens")/numba; numba checks a cached kernel against the
executable (a new build compiles afresh). Named to numba by NUMBA_CACHE_LOCATOR_CLASSES.
"""

from __future__ import annotations

import os
import sys
import tempfile

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator


class FrozenCacheLocator(UserProvidedCacheLocator):
    def __init__(self, py_func, py_file, base=None):  # noqa: ANN001
        bundle = getattr(sys, "_MEIPASS", os.path.dirname(sys.executable))
        super().__init__(py_func, os.path.join(bundle, py_file))
        if base is not None:
            self._cache_path = os.path.join(base, os.path.basename(self._cache_path))

    @classmethod
    def from_function(cls, py_func, py_file):  # noqa: ANN001, ANN206
        # The user's cache folder; should it be read-only, a private temporary one (numba
        # would otherwise refuse to load the kernel at all).
        fallback = os.path.join(tempfile.gettempdir(), f"matchlens-numba-{getattr(os, 'getuid', lambda: 0)()}")
        for base in (config.CACHE_DIR or None, fallback):
            self = cls(py_func, py_file, base)
            try:
                self.ensure_cache_path()
            except OSError:
                continue
            return self
        return None
