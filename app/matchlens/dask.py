"""`import matchlens.dask`: score a Dask DataFrame partition by partition (`pip install
'matchlens[dask]'`). The code lives in `matchlens.api.partitions`; this name is the public one.

    import matchlens.dask
    scored = matchlens.dask.score(ddf, expected="expected", actual="output")
    summary = matchlens.dask.summary(scored)
"""

from matchlens.api.partitions import score, summary

__all__ = ["score", "summary"]
