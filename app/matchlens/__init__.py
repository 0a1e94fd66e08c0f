"""MatchLens: see why an LLM output missed its reference."""

__version__ = "0.1.0"
