# PyInstaller runtime hook: runs in the frozen app before any of its code. The compiled
# kernels' cache goes to the user's cache folder (see matchlens_numba_cache.py); a user's own
# NUMBA_CACHE_DIR wins. Costs no numba import: only two environment variables.
import os

if "NUMBA_CACHE_DIR" not in os.environ:
    import platformdirs

    os.environ["NUMBA_CACHE_DIR"] = os.path.join(platformdirs.user_cache_dir("matchlens"), "numba")
os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES",
                      "matchlens_numba_cache.FrozenCacheLocator,UserProvidedCacheLocator")
