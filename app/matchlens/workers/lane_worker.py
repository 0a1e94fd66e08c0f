"""A lane's child process: reads pickled tasks on stdin, writes pickled results on stdout.

Run as `python -m matchlens.workers.lane_worker`. A separate process, not a thread, because
rapidfuzz holds the GIL for the whole edit-script computation (1.8 s at a million characters)
and a thread would freeze the window for exactly that long.
"""

from __future__ import annotations

import sys

from matchlens.workers.background import lower_priority
from matchlens.workers.frames import read_frame, write_frame


def main() -> int:
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the frame stream
    lower_priority()  # background work: the window wins a contended core
    from matchlens.core.diff.pair import timed_task, warm_up
    from matchlens.core.diff.span_table import ALIGN_TASK
    from matchlens.core.metrics.registry import local_metric_ids

    warm_up([ALIGN_TASK, *local_metric_ids()])
    write_frame(out, ("ready",))
    texts: tuple[int, str, str] = (-1, "", "")
    while True:
        message = read_frame(inp)
        if message is None or message[0] == "quit":
            return 0
        if message[0] == "texts":
            texts = message[1], message[2], message[3]
            continue
        _, text_id, token, name, options = message
        if text_id != texts[0]:
            write_frame(out, ("lost", token, name))
            continue
        try:
            result, seconds = timed_task(name, texts[1], texts[2], options)
        except Exception as err:  # reported to the panel; the lane stays up
            write_frame(out, ("failed", token, name, f"{type(err).__name__}: {err}"))
            continue
        write_frame(out, ("done", token, name, result, seconds))


if __name__ == "__main__":
    sys.exit(main())
