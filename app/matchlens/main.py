"""The `matchlens` program: `score`, `diff` and `calibrate` run headless (the `cli` package, never Qt); every other form opens the window (`ui.app`). It sits above both, so neither imports the other."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """`argv` None: this is the process's own command line (the console script, `python -m`):
    then a run stopped by Ctrl+C or SIGTERM leaves at once (see `_leave_now`)."""
    try:
        code = _main(argv)
    except KeyboardInterrupt:  # Ctrl+C while starting up (imports), before a command's guard
        from matchlens.cli.crash import say

        say("matchlens: interrupted")
        code = _stopped_codes()[0]
    if argv is None and code in _stopped_codes():
        _leave_now(code)
    return code


def _stopped_codes() -> tuple[int, int]:
    """Ctrl+C's and SIGTERM's exit codes (imported only once the run is over: the window's
    start-up does not need them)."""
    from matchlens.cli.exit_codes import EXIT_INTERRUPTED, EXIT_TERMINATED

    return EXIT_INTERRUPTED, EXIT_TERMINATED


def _leave_now(code: int) -> None:
    """Exit without tearing down the interpreter: freeing a million rows' strings one by one
    took most of the second between Ctrl+C and the prompt. Everything that matters is done by
    now (temporary files removed, the forked worker reaped, the one line printed)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    os._exit(code)


def _finish(code: int) -> int:
    """A headless command is done: leave without the interpreter's teardown, which frees every
    module, numpy's objects and the last rows one by one (~8 ms of CPU at the end of a 10k-row
    `score`, for nothing: the process is ending). Every file is closed by now (atomic writers,
    the crash report, the embeddings cache, all in `with` blocks), the forked worker reaped.
    Standard output and error are flushed first; should that fail (a full disk, a closed
    pipe), return instead, so the interpreter's own exit reports it and exits 120 as before."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        return code
    interrupts = sys.modules.get("matchlens.cli.interrupts")
    if interrupts is not None:
        interrupts.hold_if_leaving()  # a signal is ending the run: its exit code, not this one
    os._exit(code)


def _one_blas_thread() -> None:
    """Before numpy is imported: OpenBLAS starts a thread per core at import, and that start
    cost ~45 ms of CPU (half of numpy's import) for every `matchlens score`, on a 2-core
    machine where the forked scoring worker wants the other core. A headless run multiplies no
    matrices (semantic_similarity takes one dot product of two embedding vectors a row: nothing
    worth sharing among threads). Only this process's own command line (the environment is
    inherited), and a user's own setting wins."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _main(argv: Sequence[str] | None) -> int:
    from matchlens.workers.background import run_child

    code = run_child(sys.argv[1:] if argv is None else argv)  # a frozen app's child process
    if code is not None:
        return code
    from matchlens.cli import parser as cli

    args = cli.parse_args(argv)
    if isinstance(args, int):
        return args
    if args.command in cli.HEADLESS:  # never loads Qt
        if argv is None:  # this process's own command line: Ctrl+C leaves within a moment
            from matchlens.cli import interrupts

            _one_blas_thread()
            interrupts.watch()
            cli.preload(args.command)
            return _finish(cli.run_headless(args))
        return cli.run_headless(args)
    from matchlens.ui.system_check import window_problem

    problem = window_problem()  # Qt's own answer to a missing display or library is an abort
    if problem:
        print(f"matchlens: {problem}", file=sys.stderr)
        return 2
    if args.command == "compare":  # long texts: their lanes start while Qt does
        from matchlens.workers.lane_spares import prestart_for

        prestart_for([args.expected_file, args.actual_file])
    try:
        from matchlens.ui.app import run_app  # Qt is loaded only here
    except ImportError as err:
        print(f"matchlens: cannot start the window ({err}); `matchlens score` works without it",
              file=sys.stderr)
        return 2
    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
