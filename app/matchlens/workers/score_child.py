"""The scoring child process: `python -m matchlens.workers.score_child`.

Each chunk is scored by the core pipeline's `score_rows`, as the window's thread would score
it. Scoring is mostly Python (pair de-duplication, word sets), so a scoring *thread* holds the GIL
most of the time, and every Python callback of the window (each table cell, each pyqtgraph
item) then waits for it: measured at 100,000 rows, repaints took 0.1–1.3 s. In a child process
the window keeps its GIL. The parent sends one chunk of rows at a time and waits for its scores
(strictly request/response: two processes blocked writing big frames to each other would
deadlock). No Qt here, and no state beyond the metric jobs.

The child also ranks the text columns for the table's text sorts, when asked to keep them: it
has every text already, and ranking a million strings in the window's process would make the
window wait for the GIL (ranks travel back as one int32 array per column, a plain copy).

Frames (workers.frames): 8-byte little-endian length, then a pickle.
  parent -> ("jobs", [(metric_id, threshold, options), ...])
  parent -> ("keep", [column key, ...])  optional: "expected", "actual:<variant>", "id"
  parent -> ("chunk", start, [variant, ...], with_ids), then one frame per column: the
            expected slice, each variant's actual slice, and the ids slice when with_ids
  child  -> ("ready",) once, then ("chunk", Chunk) or ("error", sentence) per chunk
  parent -> ("ranks",)  after the last chunk, when columns are kept
  child  -> ("rank", key, int32 array) per kept column, then ("ranks done",)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from typing import Any

from matchlens.workers.background import lower_priority
from matchlens.workers.frames import read_frame, write_frame


def make_jobs(specs: Sequence[tuple[str, float | None, dict]]) -> list:
    from matchlens.core.metrics.registry import get_metric
    from matchlens.core.scoring.batch import MetricJob

    return [MetricJob(get_metric(m), threshold, options) for m, threshold, options in specs]


class Kept:
    """The texts of the columns to rank, gathered chunk by chunk as numpy strings (UTF-8 and
    a 16-byte header each: 0.44 GB where a million rows of four columns of Python strings
    took 0.63 GB and more)."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.columns: dict[str, list] = {key: [] for key in keys}

    def add(self, expected: list, actuals: dict, ids: list | None) -> None:
        """Keep one chunk's texts; never raises (ranks are a nicety, the scores must arrive)."""
        try:
            for key, parts in self.columns.items():
                if key == "expected":
                    parts.append(compact(expected))
                elif key == "id":
                    parts.append(compact(ids or []))
                else:
                    parts.append(compact(actuals[key[len("actual:"):]]))
        except Exception:  # out of memory, most likely: give up ranking, free what was kept
            self.columns = {}

    def send_ranks(self, out: Any) -> None:
        for key in list(self.columns):
            write_frame(out, ("rank", key, column_ranks(self.columns.pop(key))))
        write_frame(out, ("ranks done",))


def compact(values: list) -> Any:
    """A chunk of one column: numpy strings (None as ""), or the Python strings when one has
    a lone surrogate (JSON's "\ud800"), which UTF-8 cannot hold."""
    import numpy as np

    texts = [t or "" for t in values]
    try:
        return np.array(texts, dtype=np.dtypes.StringDType())
    except UnicodeEncodeError:
        return texts


def column_ranks(parts: list) -> Any:
    """Each row's rank in its column's text order, from the chunks `compact` made."""
    import numpy as np

    from matchlens.core.scoring.view_order import dense_ranks, string_ranks

    if all(isinstance(part, np.ndarray) for part in parts):
        texts = np.concatenate(parts) if parts else np.array([], np.dtypes.StringDType())
        parts.clear()  # the chunks' memory goes before the sort's
        return string_ranks(texts)
    return dense_ranks([t for part in parts for t in list(part)])


def main() -> int:
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the frame stream
    lower_priority()  # background work: the window wins a contended core
    from matchlens.core.errors import MatchLensError

    with contextlib.suppress(ImportError):
        import matchlens.embeddings.metric  # noqa: F401  (registers semantic_similarity)
    from matchlens.core.scoring.pipeline import score_rows  # warm: numpy, rapidfuzz, metrics

    write_frame(out, ("ready",))
    jobs: list = []
    kept = Kept(())
    while True:
        message = read_frame(inp)
        if message is None or message[0] == "exit":
            return 0
        try:
            if message[0] == "jobs":
                jobs = make_jobs(message[1])
                continue
            if message[0] == "keep":
                kept = Kept(message[1])
                continue
            if message[0] == "ranks":
                kept.send_ranks(out)
                continue
            _, start, variants, with_ids = message
            expected = read_frame(inp)
            actuals = {variant: read_frame(inp) for variant in variants}
            ids = read_frame(inp) if with_ids else None
            scored = score_rows(expected, actuals, jobs, start=start)
            kept.add(expected, actuals, ids)  # before the reply: one frame per chunk, always
            write_frame(out, ("chunk", scored))
        except MatchLensError as err:
            write_frame(out, ("error", str(err)))
        except Exception as err:  # a bug in a metric: report it, keep the process usable
            write_frame(out, ("error", f"{type(err).__name__}: {err}"))


if __name__ == "__main__":
    sys.exit(main())
