"""ui/compare/json_mode.py: both sides JSON puts the JSON distance panel first and enables
*Format JSON*, which formats both sides alike and, off again, gives the texts back. Set
MATCHLENS_SHOT=folder to save a 1280x720 PNG with Format JSON on."""

from __future__ import annotations

import os
from pathlib import Path

from tests.ui.conftest import set_pair, wait_done

EXPECTED = ('{"vendor":"ACME","total":100.50,"phone":"555-0100","items":[{"sku":"a","qty":1,'
            '"price":2.50},{"sku":"b","qty":2,"price":4.00}],"currency":"EUR"}')
ACTUAL = ('{"currency":"EUR","items":[{"price":2.50,"qty":1,"sku":"a"},{"qty":3,"sku":"b",'
          '"price":4.00}],"total":100.5,"vendor":"ACME"}')


def panel_order(tab):
    layout = tab.panels["json_distance"].parentWidget().layout()
    return [layout.itemAt(i).widget() for i in range(layout.count())
            if layout.itemAt(i).widget() is not None]


def test_json_pair_moves_its_panel_first_and_formats_alike(qtbot, compare_tab):
    tab, mode = compare_tab, compare_tab.json_mode
    home = panel_order(tab).index(tab.panels["json_distance"])
    assert home > 0 and not mode.action.isEnabled()
    set_pair(qtbot, tab, EXPECTED, ACTUAL)
    qtbot.waitUntil(lambda: mode.both_json, timeout=5000)
    assert panel_order(tab)[0] is tab.panels["json_distance"]
    mode.action.setChecked(True)
    wait_done(qtbot, tab)
    expected, actual = tab.texts()
    # the output's keys in the reference's order; 100.5 and 4.00 as written
    assert actual.splitlines()[:3] == ['{', '  "vendor": "ACME",', '  "total": 100.5,']
    assert '      "price": 4.00' in actual and '  "total": 100.50,' in expected
    # field by field: the only line without a partner is the dropped phone
    assert set(expected.splitlines()) - set(actual.splitlines()) == {
        '  "total": 100.50,', '  "phone": "555-0100",', '      "qty": 2,'}
    assert len(expected.splitlines()) == len(actual.splitlines()) + 1
    if os.environ.get("MATCHLENS_SHOT"):
        tab.resize(1280, 720)
        qtbot.wait(300)
        wait_done(qtbot, tab)
        tab.grab().save(str(Path(os.environ["MATCHLENS_SHOT"]) / "compare_format_json.png"))
    mode.action.setChecked(False)
    assert tab.texts() == (EXPECTED, ACTUAL)
    set_pair(qtbot, tab, "plain text", "other text")
    qtbot.waitUntil(lambda: not mode.both_json, timeout=5000)
    assert panel_order(tab).index(tab.panels["json_distance"]) == home
    assert not mode.action.isEnabled()


def test_an_edit_while_formatted_is_kept(qtbot, compare_tab):
    tab, mode = compare_tab, compare_tab.json_mode
    set_pair(qtbot, tab, '{"a": 1}', '{"a": 2}')
    qtbot.waitUntil(lambda: mode.both_json, timeout=5000)
    mode.action.setChecked(True)
    tab.panes["actual"].set_text('{"a": 3}')
    qtbot.waitUntil(lambda: not mode.action.isChecked(), timeout=5000)
    assert tab.texts()[1] == '{"a": 3}'
