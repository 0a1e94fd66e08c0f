"""The last line of defence of the command line: every failure leaves as one line.

* `say(text)` prints one line to standard error: a value too long to read (a 100 KB `--set`)
  is elided, any credential is masked, a closed or full stderr is not an error of its own.
* `run_guarded(command, args)` runs a headless command with all of this around it.
* `crash(exc)` is for what we did not foresee: the traceback (masked) goes to a report file,
  one line names that file, and the exit code is EXIT_CRASH: 70, the BSD sysexits code for an
  internal software error. Never 1 (the --fail-under gate: CI would read a crash as "quality
  below the gate") and never 2 (bad usage or input: the user's fault).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from matchlens import __version__
from matchlens.cli.exit_codes import EXIT_CRASH, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_USAGE
from matchlens.core.errors import MatchLensError
from matchlens.core.text.elide import elide

MAX_LINE = 1000  # characters of one stderr line; a longer one keeps its start and end


def _masked(text: str) -> str:
    try:
        from matchlens.embeddings.redact import scrub
    except Exception:  # a broken install must still report
        return text
    return scrub(text)


def say(text: str) -> None:
    """One line on standard error (elided, masked); silent when stderr is gone."""
    interrupts = sys.modules.get("matchlens.cli.interrupts")  # only if it was ever started
    if interrupts is not None:
        interrupts.hold_if_leaving()  # a signal is ending the run: its line, not this one
    line = elide(_masked(" ".join(str(text).splitlines())), MAX_LINE, whitespace="keep",
                 count=True)
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except UnicodeEncodeError:
        with contextlib.suppress(OSError, ValueError):
            encoding = getattr(stream, "encoding", None) or "utf-8"
            stream.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")
    except (OSError, ValueError):  # closed, a broken pipe, a full disk
        pass


def report_folder() -> Path:
    try:
        import platformdirs

        return Path(platformdirs.user_state_dir("matchlens", appauthor=False)) / "crash-reports"
    except Exception:
        import tempfile

        return Path(tempfile.gettempdir()) / "matchlens-crash-reports"


def write_report(exc: BaseException, argv: list[str] | None = None) -> Path | None:
    """The masked traceback and context in a new file; None when nothing could be written."""
    import platform  # here: only a crash needs them, and every run imports this module
    import traceback

    argv = sys.argv if argv is None else argv
    text = "".join(traceback.format_exception(exc))
    lines = [
        f"MatchLens {__version__} crashed at {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"Python {platform.python_version()} on {platform.platform()}",
        "command: " + " ".join(elide(repr(a), 200, whitespace="keep", count=True) for a in argv),
        "",
        text,
    ]
    body = _masked("\n".join(lines))
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    for folder in (report_folder(), Path.cwd()):
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            path = folder / name
            with open(path, "x", encoding="utf-8", errors="backslashreplace") as handle:
                handle.write(body)
            return path
        except OSError:
            continue
    return None


def crash(exc: BaseException) -> int:
    """Report an unexpected exception in one line; returns EXIT_CRASH."""
    path = write_report(exc)
    where = f"the details are in {path}" if path else "no report file could be written"
    say(f"matchlens: internal error ({type(exc).__name__}), a bug in MatchLens and not a "
        f"problem with your input; {where} (exit code {EXIT_CRASH})")
    return EXIT_CRASH


def run_guarded(command: Callable[[Any], int], args: Any) -> int:
    """Run a headless command: a MatchLensError is its one sentence (exit 2), Ctrl+C or SIGTERM
    exits 130/143 at once (atomic writers drop their temporaries on the way out), anything else
    is an internal error: one line, a report file, exit 70 (crash.py). Never a traceback."""
    previous = _exit_on_sigterm()
    try:
        return command(args)
    except MatchLensError as err:
        say(f"matchlens: {err}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        say("matchlens: interrupted; no output was written")
        return EXIT_INTERRUPTED
    except _Terminated:
        say("matchlens: terminated; no output was written")
        return EXIT_TERMINATED
    except RecursionError:
        say("matchlens: the input is nested too deeply to read (a JSON value, a JSONPath or "
                  "a config file hundreds of levels deep)")
        return EXIT_USAGE
    except MemoryError:
        say("matchlens: out of memory; the input is too large for this machine")
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 (the point: nothing unforeseen is a traceback)
        return crash(exc)
    finally:
        _restore_sigterm(previous)



class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so `finally` blocks and atomic writers clean up."""


def _exit_on_sigterm():
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    interrupts = sys.modules.get("matchlens.cli.interrupts")
    if interrupts is not None and interrupts.active():  # its watcher thread leaves for us
        return None

    def handler(signum, frame):
        raise _Terminated

    try:
        return signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):
        return None


def _restore_sigterm(previous) -> None:
    import signal

    if previous is not None:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGTERM, previous)
