"""`calibrate --label` reads every label word cli.md lists (good/bad too) and ✓/✗; a column
holding none is one sentence and writes no `-o` (issue 28 item 14)."""

from __future__ import annotations

import pytest

from matchlens.core.datasets import parse_label
from tests.cli.conftest import run_in_process


@pytest.mark.parametrize(("text", "value"), [
    ("good", True), ("BAD", False), ("✓", True), ("✗", False), ("✔", True), ("✘", False),
    (" correct ", True), ("incorrect", False), ("pass", True), ("0", False), ("maybe", None)])
def test_label_words(text, value):
    assert parse_label(text) is value


def test_good_bad_and_ticks_are_labels(tmp_path, capsys):
    data = tmp_path / "lab.csv"
    data.write_text("expected,actual,label\na,a,good\na,b,bad\nx,x,✓\nx,y,✗\n",
                    encoding="utf-8")
    run = run_in_process(capsys, "calibrate", str(data), "--expected", "expected", "--actual",
                         "actual", "--label", "label", "--metric", "exact_match")
    assert run.code == 0, run.err
    assert "4 labelled (2 pass, 2 fail)" in run.out


def test_a_column_with_no_label_is_a_sentence_and_no_file(tmp_path, capsys):
    data = tmp_path / "lab.csv"
    data.write_text("expected,actual,label\na,a,maybe\na,b,dunno\n", encoding="utf-8")
    out = tmp_path / "t.toml"
    run = run_in_process(capsys, "calibrate", str(data), "--expected", "expected", "--actual",
                         "actual", "--label", "label", "--metric", "exact_match", "-o", str(out))
    assert run.code == 2
    assert "column 'label' holds no pass/fail label (it holds 'maybe', 'dunno'" in run.err
    assert not out.exists()


def test_calibrate_o_on_a_full_disk_is_a_sentence_and_no_file(tmp_path, capsys, monkeypatch):
    """Issue 28 item 13: exit 70 before. The disk fills as the thresholds file is written
    (the device's error, injected at the file object the atomic writer hands out)."""
    import contextlib
    import errno

    from matchlens.core import config as config_module

    real = config_module.atomic_writer

    class FullDisk:
        def __init__(self, handle) -> None:
            self.handle = handle

        def write(self, text):
            self.handle.write(text[:10])
            raise OSError(errno.ENOSPC, "No space left on device")

    @contextlib.contextmanager
    def full(path, **kwargs):
        with real(path, **kwargs) as handle:
            yield FullDisk(handle)

    monkeypatch.setattr(config_module, "atomic_writer", full)
    data = tmp_path / "lab.csv"
    data.write_text("expected,actual,label\na,a,pass\na,b,fail\n", encoding="utf-8")
    out = tmp_path / "t.toml"
    run = run_in_process(capsys, "calibrate", str(data), "--expected", "expected", "--actual",
                         "actual", "--label", "label", "--metric", "exact_match", "-o", str(out))
    assert run.code == 2, run.err
    assert "t.toml: cannot write (No space left on device)" in run.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab.csv"]  # no file, no temporary
