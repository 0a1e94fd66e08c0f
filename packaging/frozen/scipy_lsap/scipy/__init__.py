"""The standalone app's scipy: only what MatchLens calls (see scipy/optimize/__init__.py).

The frozen app carries scipy's compiled assignment solver and nothing else of scipy (importing
the real scipy.optimize loads scipy.linalg, sparse and special with their own OpenBLAS):
json_distance's `array_match = "unordered"` is the one caller
(matchlens.core.metrics.json_walk). Installed with pip, MatchLens uses the real scipy.
The build appends `__version__` (numba reads it).
"""
