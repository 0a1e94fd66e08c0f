"""The histogram grid keeps its layout while rows arrive: every height change re-lays out the
grid and repaints every plot, which a big run cannot afford on each redraw."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from matchlens.core.paths import sample_dataset
from matchlens.core.scoring.batch import BatchResult, Chunk
from matchlens.ui.batch.plot_style import SteadyLabel
from tests.ui.batch_support import EventCounter, load, make_tab


def test_plots_keep_their_size_while_rows_arrive(qtbot, config):
    tab = make_tab(qtbot, config)
    try:
        load(qtbot, tab, sample_dataset())  # the panels are built and laid out
        done = tab.result
        grid = tab.histograms
        run = BatchResult.empty(done.rows, done.variants, done.jobs)  # a new run of the file
        grid.reset(run, {job.id: job.threshold for job in done.jobs})
        qtbot.waitUntil(lambda: not grid.is_drawing())
        counter = EventCounter(QEvent.Type.Resize)
        for panel in grid.panels.values():
            panel.plot.installEventFilter(counter)
        for start in range(0, done.rows, 20):  # ten chunks, each drawn before the next
            stop = min(start + 20, done.rows)
            for key in run.scores:
                run.scores[key][start:stop] = done.scores[key][start:stop]
                run.status[key][start:stop] = done.status[key][start:stop]
            grid.add_chunk(Chunk(start, stop, {k: v[start:stop] for k, v in run.scores.items()},
                                 {k: v[start:stop] for k, v in run.status.items()}, {}))
            grid.redraw()
            qtbot.waitUntil(lambda: not grid.is_drawing())
        shown = grid.panels["levenshtein_similarity"].summaries[0]
        assert f"/{done.rows:,})" in shown  # the last chunk's counts are on screen
        assert counter.count == 0
    finally:
        tab.shutdown()


def test_a_label_grows_with_its_text_and_never_shrinks_back(qtbot):
    label = SteadyLabel()
    qtbot.addWidget(label)
    label.resize(120, 20)
    label.show()
    label.set_steady_text("short")
    one_line = label.minimumHeight()
    label.set_steady_text("a much longer text that needs several lines at this width")
    grown = label.minimumHeight()
    assert grown >= 3 * label.fontMetrics().lineSpacing() > one_line  # several lines at 120 px
    label.set_steady_text("short again")
    assert label.minimumHeight() == grown
    label.resize(600, grown)  # a wider window re-lays out anyway: the height fits the text
    qtbot.wait(20)
    assert label.minimumHeight() == one_line
    label.reserve(2)  # a new run keeps room for two lines
    assert label.minimumHeight() == 2 * label.fontMetrics().lineSpacing()


def test_a_hidden_label_is_measured_at_its_real_width_once_shown(qtbot):
    box = QWidget()
    qtbot.addWidget(box)
    box.resize(400, 200)
    layout = QVBoxLayout(box)
    label = SteadyLabel(box)
    layout.addWidget(label)
    text = "words " * 40  # a few lines at ~400 px, many more at 100 px
    label.set_steady_text(text)  # hidden: not measured yet
    box.show()
    qtbot.waitExposed(box)
    qtbot.wait(20)
    assert label.width() > 300
    plain = QLabel(text)  # Qt's own measure, with no minimum height in the way
    plain.setWordWrap(True)
    assert label.minimumHeight() == plain.heightForWidth(label.width())
    assert label.minimumHeight() < plain.heightForWidth(100) / 2  # not measured at 100 px
