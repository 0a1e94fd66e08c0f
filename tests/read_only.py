"""A real folder nobody can write into, for the tests of what happens beside read-only data.

`chmod 555` stops an ordinary user but not root (CAP_DAC_OVERRIDE), and these tests run as
root on this machine. The immutable attribute (`chattr +i`, ext4/xfs/btrfs) stops root too:
no file can be created, renamed or removed in the folder. So: chmod when not root, chattr +i
when root; the folder is then checked for real (a file creation must fail), and the test is
skipped only when neither makes it read-only (root without CAP_LINUX_IMMUTABLE, tmpfs).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _refuses_new_files(folder: Path) -> bool:
    probe = folder / ".can-i-write"
    try:
        probe.write_bytes(b"")
    except OSError:
        return True
    probe.unlink()
    return False


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """`folder` made unwritable (its files stay readable) for the block, then as it was."""
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    chattr = shutil.which("chattr")
    if as_root:
        if chattr is None:
            pytest.skip("running as root and no chattr: cannot make a folder read-only here")
        done = subprocess.run([chattr, "+i", str(folder)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"running as root and chattr +i failed: {done.stderr.strip()}")
    else:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
    try:
        if not _refuses_new_files(folder):
            pytest.skip(f"{folder} still accepts new files: cannot test a read-only folder")
        yield folder
    finally:
        if as_root:
            subprocess.run([chattr, "-i", str(folder)], check=True)
        else:
            folder.chmod(mode)
