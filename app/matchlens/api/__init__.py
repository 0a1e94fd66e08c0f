"""The Python API (notebooks, pipelines): the same scorer as `matchlens score`, DataFrames in
and out.

    plan        the run as `matchlens score` would make it: config, metrics, jobs (picklable)
    inputs      a pandas/polars DataFrame, an Arrow table or a path -> the core's Table
    frames      a BatchResult -> the score and `_pass` columns, named as the CLI names them
    scoring     matchlens.score(): the core pipeline's score_table, the summary its Tally
    comparison  matchlens.compare(): one pair, as chunks, edits and scores, drawn in Jupyter
    window      matchlens.show(): the app's batch tab on a DataFrame

Nothing here imports Qt (a test checks it); `window` starts the app as a separate process.
"""
