"""core/scoring/fields.py: `count_fields` streamed over pieces, its chunks shared with a forked
child, gives exactly the counts, reasons and notes of one process counting every row."""

from __future__ import annotations

import csv
import json
import os
import random

import pytest

from matchlens.core.datasets import iter_tables
from matchlens.core.diff.json_fields import FieldTally, field_rows
from matchlens.core.scoring import fields
from matchlens.core.scoring.mapping import ColumnMapping
from matchlens.core.scoring.parallel import can_fork


def make_rows(n: int, seed: int) -> list[dict]:
    """Invoice-like pairs: dropped, changed and reordered fields, prose, deep nesting."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        ref = {"id": i, "total": rng.randint(1, 9), "items": [{"sku": rng.choice("abc"),
                                                               "qty": rng.randint(1, 3)}
                                                              for _ in range(rng.randint(0, 3))]}
        out = json.loads(json.dumps(ref))
        roll = rng.random()
        if roll < 0.2:
            del out["total"]
        elif roll < 0.4:
            out["items"] = out["items"][::-1]
        elif roll < 0.5:
            out["extra"] = {"note": "x"}
        text, ref_text = json.dumps(out), json.dumps(ref)
        if roll > 0.95:
            text = "Sorry, no invoice."
        elif roll > 0.93:  # nested too deeply on both sides: a reason of its own
            text = ref_text = "[" * 5_000 + "]" * 5_000
        rows.append({"ref": ref_text, "out": text, "same": ref_text})
    return rows


def write(path, rows: list[dict]):
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["ref", "out", "same"])
        writer.writerows([r["ref"], r["out"], r["same"]] for r in rows)
    return path


@pytest.mark.parametrize("array_match", ["index", "unordered"])
def test_two_processes_count_what_one_counts(monkeypatch, tmp_path, array_match):
    if not can_fork():
        pytest.skip("no second core or not Linux: count_fields stays in one process")
    # small chunks so that a piece of 700 rows is shared: 7 chunks, some taken by the child
    monkeypatch.setattr(fields, "CHUNK_ROWS", 100)
    monkeypatch.setattr(fields, "FORK_MIN_ROWS", 200)
    forks, pids = [], []
    real_init, real_work = fields.Shared.__init__, fields.Shared.work
    real_merge = FieldTally.merge_part

    def counted(self, *args):
        forks.append(len(args[1]))
        real_init(self, *args)

    def work(self, i, found):  # which process counted each chunk travels with its counts
        real_work(self, i, found)
        found[i] = {**found[i], "pid": os.getpid()}

    def merge(self, part):
        pids.append(part["pid"])
        real_merge(self, part)

    monkeypatch.setattr(fields.Shared, "__init__", counted)
    monkeypatch.setattr(fields.Shared, "work", work)
    monkeypatch.setattr(FieldTally, "merge_part", merge)
    data = write(tmp_path / "t.csv", make_rows(2_000, seed=22))
    mapping = ColumnMapping("ref", ("out", "same"))
    options = {"array_match": array_match}
    one = fields.count_fields(iter_tables(data, chunk_rows=700), mapping, options,
                              parallel=False)
    assert forks == []
    two = fields.count_fields(iter_tables(data, chunk_rows=700), mapping, options)
    # pieces of about 700 rows (cut by bytes): those of 200 rows or more were shared, and
    # both this process and a child counted chunks of them
    assert len(forks) >= 2 and sum(forks) >= 1_500
    assert os.getpid() in pids and len(set(pids)) >= 2
    assert field_rows(two) == field_rows(one)
    assert two.summary() == one.summary()
    reasons = {r["reason"] for v in one.summary()["variants"] for r in v["reasons"]}
    assert any("not JSON" in r for r in reasons) and any("nested too deeply" in r
                                                         for r in reasons)
