"""`matchlens diff` (cli/diff.py) on JSON: json_distance's differing paths, every one in
`--json` (`fields`), up to 50 under its line in the text form, then a count."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def invoice(tmp_path):
    e, a = tmp_path / "expected.json", tmp_path / "actual.json"
    e.write_text(json.dumps({"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2},
                                       {"sku": "c", "qty": 3}], "name": "Ada"}), "utf-8")
    a.write_text(json.dumps({"items": [{"sku": "a", "qty": 1}, {"sku": "c", "qty": 3}],
                             "phone": "1"}), "utf-8")
    return e, a


def test_json_lists_every_path_with_kind_and_values(cli, invoice):
    run = cli("diff", *invoice, "--json", "--metrics", "json_distance")
    assert run.code == 0, run.err
    entry = json.loads(run.out)["scores"]["json_distance"]
    # by index: [1] b vs c (sku, qty: 2), [2] c has no partner (1), name missing, phone extra
    assert entry["score"] == 5
    assert entry["fields"] == [
        {"path": "$.items[1].sku", "kind": "differs", "expected": "b", "actual": "c"},
        {"path": "$.items[1].qty", "kind": "differs", "expected": 2, "actual": 3},
        {"path": "$.items[2]", "kind": "missing", "expected": {"sku": "c", "qty": 3},
         "actual": None},
        {"path": "$.name", "kind": "missing", "expected": "Ada", "actual": None},
        {"path": "$.phone", "kind": "extra", "expected": None, "actual": "1"},
    ]


def test_unordered_pairing_reaches_the_paths(cli, invoice):
    run = cli("diff", *invoice, "--json", "--metrics", "json_distance",
              "--set", "json_distance.array_match=unordered")
    entry = json.loads(run.out)["scores"]["json_distance"]
    # a->a, c->c; b dropped: 1; name missing, phone extra: 3 in all
    assert [(f["path"], f["kind"]) for f in entry["fields"]] == [
        ("$.items[1]", "missing"), ("$.name", "missing"), ("$.phone", "extra")]


def test_many_paths_json_never_cut_text_shows_fifty_then_a_count(cli, tmp_path):
    e, a = tmp_path / "e.json", tmp_path / "a.json"
    e.write_text(json.dumps({f"k{i}": i for i in range(120)}), "utf-8")
    a.write_text(json.dumps({f"k{i}": i + 1 for i in range(120)}), "utf-8")
    entry = json.loads(cli("diff", e, a, "--json", "--metrics", "json_distance").out)
    assert len(entry["scores"]["json_distance"]["fields"]) == 120
    lines = cli("diff", e, a, "--metrics", "json_distance").out.splitlines()
    listed = [line for line in lines if line.strip().startswith("differs")]
    assert len(listed) == 50  # SHOWN_PATHS
    assert listed[0].split()[1:] == ["$.k0:", "0", "→", "1"]
    # 120 - 50 = 70 more
    assert lines[-1].strip() == "… and 70 more differing paths (--json lists every one)"


def test_equal_json_has_an_empty_fields_list(cli, invoice):
    e, _ = invoice
    entry = json.loads(cli("diff", e, e, "--json", "--metrics", "json_distance").out)
    assert entry["scores"]["json_distance"]["fields"] == []
