"""Standard output that cannot take what a command prints: one sentence, never a crash.

`matchlens calibrate … | head -2` (the reader stops early) or `… > /dev/full` (a full disk)
raised BrokenPipeError/OSError from a `print` deep in the report and came out as "internal
error" (exit 70). Only a failure of standard output itself is meant here, so the stream is
wrapped for the command's run and its own errors are told apart from any other OSError
(a file the command reads or writes reports its own sentence). `score` has its own handling:
it keeps counting rows for the summary and the gate after the reader has gone.
`stdout_as_utf8` makes standard output UTF-8 for `score` and `diff` alike.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from matchlens.cli.crash import say
from matchlens.cli.exit_codes import EXIT_OK, EXIT_USAGE
from matchlens.core.errors import OutputError


class StdoutFailed(Exception):
    """Writing to standard output failed with `error`."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class _Guarded:
    """sys.stdout, with its write errors raised as StdoutFailed."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError:
                # a file name that is not UTF-8 (its bytes kept as lone surrogates) in a
                # sentence: shown as \xNN, as `ls -b` shows it, not an internal error
                return self._stream.write(_shown(text, self._stream))
        except OSError as err:
            raise StdoutFailed(err) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as err:
            raise StdoutFailed(err) from None

    def __getattr__(self, name: str) -> Any:  # isatty, encoding, fileno, …
        return getattr(self._stream, name)


def _shown(text: str, stream: Any) -> str:
    """`text` with what `stream` cannot encode as backslash escapes (a byte kept as a lone
    surrogate as its \\xNN)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        raw = text.encode(encoding, "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that is no byte, or a character outside `encoding`
        raw = text.encode(encoding, "backslashreplace")
    return raw.decode(encoding, "backslashreplace")


def stdout_as_utf8() -> None:
    """What a command prints on standard output is UTF-8, like a file written with -o, whatever
    the locale (a Windows redirect is cp1252; 東京 in a cell would stop the run with a
    traceback). A closed standard output is an OutputError (one sentence), not an internal
    error at the first write."""
    if sys.stdout is None:  # `matchlens score … >&-` starts Python with sys.stdout None
        raise OutputError("standard output: cannot write the table (it is closed)")
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("_", "-")
    if encoding not in ("utf-8", "utf8") and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")


def discard_stdout() -> None:
    """Send the rest of standard output (and the exit-time flush) to the null device, so the
    interpreter's last flush cannot fail the same way or print a traceback."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def printing_guarded(command: Callable[[Any], int]) -> Callable[[Any], int]:
    """`command` with standard output guarded: a reader that stopped early is not an error
    (exit 0, what `| head` expects); any other failure is one sentence and exit 2."""

    def run(args: Any) -> int:
        if sys.stdout is None:  # `matchlens diff a b >&-`: not an AttributeError (exit 70)
            say("matchlens: standard output: cannot write the report (it is closed)")
            return EXIT_USAGE
        real = sys.stdout
        sys.stdout = _Guarded(real)
        try:
            code = command(args)
            sys.stdout.flush()  # a failure shows here, not in the interpreter's last flush
            return code
        except StdoutFailed as failed:
            sys.stdout = real
            discard_stdout()
            if isinstance(failed.error, BrokenPipeError):
                return EXIT_OK
            say(f"matchlens: standard output: cannot write the report "
                f"({failed.error.strerror or failed.error})")
            return EXIT_USAGE
        finally:
            sys.stdout = real

    return run
