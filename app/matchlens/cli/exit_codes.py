"""The exit codes of the command line, the only copy: every command and guard imports them here.

0 done; 1 the `--fail-under` gate failed; 2 bad usage or bad input (one sentence); 70 an
internal error (EX_SOFTWARE of BSD's sysexits: never 1, which CI would read as a failed gate,
nor 2, the user's fault); 130 and 143 interrupted by SIGINT or SIGTERM (128 + the signal
number, as shells report).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_CRASH = 70
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
