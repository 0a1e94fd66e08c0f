"""The Label menu and the compare view's label buttons: labelling from wherever the row is.

The batch tab owns the labels (`ui.batch.labelling`); the window adds the menu, and tells the
tab which dataset row the compare view shows, so Ctrl+1 / Ctrl+2 / F8 label the row in front
of the person whichever view it is in.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow, QMenu


def install_label_menu(window: QMainWindow) -> QMenu | None:
    tab = window.batch_tab
    labelling = getattr(tab, "labelling", None)
    if labelling is None:
        return None
    menu = QMenu("&Label", window)
    actions = labelling.actions
    for key in ("pass", "fail", "clear", "note"):
        menu.addAction(actions[key])
    menu.addSeparator()
    menu.addAction(actions["next"])
    menu.addAction(actions["next_failing"])
    menu.addSeparator()
    menu.addAction(actions["export"])
    menu.addAction(actions["clear_all"])
    bar = window.menuBar()
    help_menu = next((a for a in bar.actions() if a.text() == "&Help"), None)
    if help_menu is not None:
        bar.insertMenu(help_menu, menu)
    else:
        bar.addMenu(menu)

    def compare_row() -> int | None:
        if window.tabs.currentWidget() is window.compare_tab:
            return window.rows.row
        return None

    def described(row: int) -> None:
        pair = tab.pair_for_row(row)
        if pair is not None:
            window.compare_tab.context_label.setText(pair[2])

    labelling.session.sig_where.connect(window.show_notice)
    labelling.compare_shown = lambda: window.tabs.currentWidget() is window.compare_tab
    labelling.compare_row = compare_row
    labelling.open_row = window.open_batch_row
    labelling.on_compare_changed = described
    # On the compare tab's row bar after "Next failing ▶", shown while a dataset row is open.
    window.compare_tab.row_bar.add_buttons([
        (text, actions[key].trigger, actions[key].toolTip())
        for key, text in (("pass", "✓ Pass"), ("fail", "✗ Fail"),
                          ("next", "Next unlabelled ▶"))])
    window.rows.update_actions()
    return menu
