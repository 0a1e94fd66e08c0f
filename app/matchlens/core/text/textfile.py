"""Reading a text file the user named: UTF-8 (with or without BOM), one sentence on failure;
bounded in size, a device refused, a FIFO waited for aloud (`core.bounded`)."""

from __future__ import annotations

from pathlib import Path

from matchlens.core.bounded import InputBoundError, read_bytes
from matchlens.core.errors import MatchLensError


class FileReadError(MatchLensError):
    """A file the user asked for could not be read as text; the message is one sentence."""


def read_text_file(path: Path) -> str:
    """UTF-8 (BOM or not) with line endings as the editor keeps them (\\n)."""
    try:
        data = read_bytes(path, str(path))
    except InputBoundError as err:
        raise FileReadError(f"Could not open {path}: it {err}.") from None
    except FileNotFoundError:
        raise FileReadError(f"Could not open {path}: there is no such file.") from None
    except IsADirectoryError:
        raise FileReadError(f"Could not open {path}: it is a folder, not a file.") from None
    except OSError as err:
        raise FileReadError(f"Could not open {path}: {err.strerror or err}.") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FileReadError(
            f"Could not open {path}: it is not UTF-8 text (byte 0x{data[err.start]:02x} at "
            f"position {err.start + 1}).") from None
    # Qt turns \r\n and \r into paragraph breaks; converting first keeps every offset we score
    # equal to what the editor shows.
    return text.replace("\r\n", "\n").replace("\r", "\n")
