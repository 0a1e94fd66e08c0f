"""What packaging/matchlens.spec trims from PyInstaller's Analysis, and what it adds back.

- `orphans`: system libraries PyInstaller collected for something the spec then left out
  (GTK, cairo, pango, Kerberos… came in for Qt's GTK theme plugin): a library stays when a
  kept binary needs it (ELF NEEDED, read with objdump), directly or through another.
- `scipy_subset`: scipy's assignment solver with two stub packages, instead of scipy.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent


def needed(path: str) -> set[str]:
    """The sonames an ELF file names as NEEDED (empty for anything objdump cannot read)."""
    out = subprocess.run(["objdump", "-p", path], capture_output=True, text=True, check=False)
    return set(re.findall(r"^\s*NEEDED\s+(\S+)", out.stdout, flags=re.MULTILINE))


def is_root(dest: str) -> bool:
    """Binaries kept for their own sake: everything inside a package folder, extension
    modules (lib-dynload, _cffi_backend…) and libpython. Other top-level libraries are there
    only because something needed them."""
    name = dest.rsplit("/", 1)[-1]
    return "/" in dest or ".cpython-" in name or ".abi3." in name or name.startswith("libpython")


def orphans(binaries: list[tuple[str, str, str]]) -> set[str]:
    """The top-level libraries (dest names) nothing kept needs."""
    by_name: dict[str, list[tuple[str, str, str]]] = {}
    for entry in binaries:
        by_name.setdefault(entry[0].rsplit("/", 1)[-1], []).append(entry)
    seen: set[str] = set()
    stack = [entry for entry in binaries if is_root(entry[0])]
    while stack:
        dest, src, _ = stack.pop()
        if dest in seen:
            continue
        seen.add(dest)
        real = os.path.realpath(src)
        for soname in needed(real) if os.path.isfile(real) else ():
            stack.extend(e for e in by_name.get(soname, ()) if e[0] not in seen)
    return {entry[0] for entry in binaries if not is_root(entry[0]) and entry[0] not in seen}


def scipy_subset(work: Path) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """(modules for the PYZ, binaries): the stub packages scipy and scipy.optimize from
    packaging/frozen/scipy_lsap (copied into `work` with the build's scipy version, which
    numba checks), and the build's scipy/optimize/_lsap extension."""
    spec = importlib.util.find_spec("scipy")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the build needs scipy installed (json_distance's array pairing)")
    optimize = Path(next(iter(spec.submodule_search_locations))) / "optimize"
    solver = sorted(optimize.glob("_lsap.*.so")) or sorted(optimize.glob("_lsap.*.pyd"))
    if not solver:
        raise SystemExit(f"no _lsap extension in {optimize}")
    stubs = work / "scipy_lsap" / "scipy"
    shutil.rmtree(stubs, ignore_errors=True)
    shutil.copytree(HERE / "scipy_lsap" / "scipy", stubs)
    with (stubs / "__init__.py").open("a", encoding="utf-8") as init:
        init.write(f"\n__version__ = {metadata.version('scipy')!r}\n")
    modules = [("scipy", str(stubs / "__init__.py"), "PYMODULE"),
               ("scipy.optimize", str(stubs / "optimize" / "__init__.py"), "PYMODULE")]
    return modules, [(f"scipy/optimize/{solver[0].name}", str(solver[0]), "EXTENSION")]


def compiled_kernels(aot: Path) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """(modules for the PYZ, binaries): the stand-in numba package (packaging/frozen/numba_aot)
    and the kernels packaging/frozen/aot_kernels.py compiled into `aot`."""
    compiled = sorted(aot.glob("matchlens_aot.*.so")) + sorted(aot.glob("matchlens_aot.*.pyd"))
    index = aot / "matchlens_aot_index.py"
    if not compiled or not index.exists():
        raise SystemExit(f"no compiled kernels in {aot}: run packaging/frozen/aot_kernels.py "
                         f"{aot} first (packaging/build.sh does)")
    modules = [("numba", str(HERE / "numba_aot" / "numba" / "__init__.py"), "PYMODULE"),
               ("matchlens_aot_index", str(index), "PYMODULE")]
    return modules, [(compiled[0].name, str(compiled[0]), "EXTENSION")]
