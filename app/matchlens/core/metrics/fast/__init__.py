"""Batch helpers and compiled (numba) kernels of the metrics, each checked equal to its reference."""
