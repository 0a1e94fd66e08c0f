"""Compile MatchLens's numba kernels ahead of time for the standalone app (build step).

    python packaging/frozen/aot_kernels.py OUTDIR

The frozen app carries no LLVM (llvmlite alone is ~150 MiB): its kernels are compiled here, by
numba's own ahead-of-time compiler (numba.pycc), into one extension module, OUTDIR/
matchlens_aot.*.so, for every signature the app calls them with: the installed app's build
(core.scoring.kernel_build: every metric scored on exercise data, then the metrics' tests, which
reach every branch), installed under OUTDIR/kernels/<source key>/ (tests/test_packaging.py
checks it against numba's JIT) and copied here. OUTDIR/matchlens_aot_index.py maps each kernel
(module.qualname) to its exported overloads and their argument kinds; the stand-in numba package
(packaging/frozen/numba_aot/numba) reads it in the frozen app: a call whose arguments match an
overload runs the compiled code (with the GIL released, as `nogil=True` asks), any other call
the kernel's Python function (same results, slower), or a TypeError under
MATCHLENS_KERNELS_STRICT=1 (packaging/smoke.py).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.splitlines()[2].strip())
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "app"))
    import numba

    from matchlens.core.metrics.fast import ahead
    from matchlens.core.scoring import kernel_build

    folder = kernel_build.install(out / "kernels", tests=ROOT / "tests" / "core" / "metrics")
    for library in folder.glob(f"{ahead.MODULE}.*"):
        shutil.copy2(library, out / library.name)
    index = json.loads((folder / ahead.INDEX).read_text(encoding="utf-8"))["kernels"]
    lines = [f'"""Written by packaging/frozen/aot_kernels.py (numba {numba.__version__}): each '
             f'kernel\'s overloads in {ahead.MODULE}, with their argument kinds."""', "",
             "INDEX = {"]
    lines += [f"    {key!r}: {[(e, ahead.frozen_kinds(k)) for e, k in overloads]!r},"
              for key, overloads in sorted(index.items())]
    lines += ["}", ""]
    (out / f"{ahead.MODULE}_index.py").write_text("\n".join(lines), encoding="utf-8")
    count = sum(map(len, index.values()))
    print(f"== compiled ahead of time: {count} overloads of {len(index)} kernels ({folder.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
