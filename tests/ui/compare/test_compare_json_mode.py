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


# A reordered list: the output lists the reference's items last-first, with one price changed.
ORDER_E = ('{"order": 7, "items": [{"sku": "a", "price": 1}, {"sku": "b", "price": 2}, '
           '{"sku": "c", "price": 3}]}')
ORDER_A = ('{"order": 7, "items": [{"sku": "c", "price": 30}, {"sku": "b", "price": 2}, '
           '{"sku": "a", "price": 1}]}')


def test_the_item_pairing_is_named_and_a_click_selects_each_sides_own_item(qtbot, compare_tab,
                                                                           config):
    config.set_option("json_distance", "array_match", "unordered")
    tab, mode = compare_tab, compare_tab.json_mode
    statuses = []
    tab.sig_status.connect(statuses.append)
    set_pair(qtbot, tab, ORDER_E, ORDER_A)
    qtbot.waitUntil(lambda: mode.both_json, timeout=5000)
    mode.action.setChecked(True)
    wait_done(qtbot, tab)
    panel = tab.panels["json_distance"]
    qtbot.waitUntil(lambda: panel.result() is not None and panel.details.count() == 1,
                    timeout=10_000)
    # a <-> [2], b <-> [1], c <-> [0]: only c's price differs (3 -> 30): distance 1, listed
    # under the reference's index with the output's own path beside it
    assert panel.result().score == 1
    item = panel.details.item(0)
    assert item.text() == "$.items[2].price ↔ $.items[0].price: 3 → 30"
    # the explanation names the pairs made across indices (b stays at [1])
    assert "$.items: items paired across indices, reference ↔ output: [0] ↔ [2], [2] ↔ [0]" \
        in panel.result().explanation
    panel.details.itemClicked.emit(item)
    expected, actual = tab.editor("expected"), tab.editor("actual")
    assert expected.textCursor().selectedText() == "3"
    assert actual.textCursor().selectedText() == "30"
    # the selection sits in c's object on both sides: the reference's last item, the
    # output's first (formatted: "sku" on the line above "price")
    for editor in (expected, actual):
        cursor = editor.textCursor()
        above = editor.document().findBlockByNumber(cursor.blockNumber() - 1).text()
        assert above.strip() == '"sku": "c",'
    assert statuses[-1] == ("Selected $.items[2].price in the reference and $.items[0].price "
                            "in the output (items paired across indices).")
    if os.environ.get("MATCHLENS_SHOT"):
        tab.resize(1280, 720)
        qtbot.wait(300)
        wait_done(qtbot, tab)
        tab.grab().save(str(Path(os.environ["MATCHLENS_SHOT"]) / "compare_pairing.png"))
