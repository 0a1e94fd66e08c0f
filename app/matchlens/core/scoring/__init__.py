"""Scoring a dataset: the plan, the column mapping, batches in one or two processes, the one pipeline behind `score`, the API, `calibrate`, the window and Dask, tallies and variants."""
