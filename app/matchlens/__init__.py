"""MatchLens: see why an LLM output missed its reference.

In Python (a notebook, a pipeline):

    import matchlens
    scored = matchlens.score(df, expected="expected", actual="output")   # a pandas DataFrame
    scored.attrs["matchlens"]                                             # the summary
    matchlens.compare("expected text", "actual text")                     # a diff in Jupyter
    matchlens.fields(df, expected="ref", actual="out")                    # wrong JSON fields
    matchlens.show(df, expected="expected", actual="output")             # the batch tab
    import matchlens.dask                                                 # pip install 'matchlens[dask]'

Importing this package stays cheap (no pandas, numpy, Qt or openai): the API is loaded on first
use, through the module `__getattr__` below.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

# name -> (module, attribute); None as attribute = the module itself
_LAZY = {
    "score": ("matchlens.api.scoring", "score"),
    "compare": ("matchlens.api.comparison", "compare"),
    "fields": ("matchlens.api.fields", "fields"),
    "Comparison": ("matchlens.api.comparison", "Comparison"),
    "show": ("matchlens.api.window", "show"),
    "MatchLensError": ("matchlens.core.errors", "MatchLensError"),
    "dask": ("matchlens.dask", None),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'matchlens' has no attribute {name!r}")
    import importlib

    module_name, attribute = _LAZY[name]
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
