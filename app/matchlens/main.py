"""The `matchlens` entry point: `score` and `diff` run headless; every other form opens the window."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from matchlens.ui.background import run_child

    code = run_child(sys.argv[1:] if argv is None else argv)  # a frozen app's child process
    if code is not None:
        return code
    from matchlens import cli

    args = cli.parse_args(argv)
    if isinstance(args, int):
        return args
    if args.command in ("score", "calibrate", "diff"):  # headless: never loads Qt
        return cli.run_headless(args)
    try:
        from matchlens.ui.app import run_app  # Qt is loaded only here
    except ImportError as err:
        print(f"matchlens: cannot start the window ({err}); `matchlens score` works without it",
              file=sys.stderr)
        return 2
    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
