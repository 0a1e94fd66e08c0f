"""Which tasks share the highlight's lane (and its edit script): `scheduler.shares_script`."""

from __future__ import annotations

from matchlens.core.diff.pair import first_task, run_task
from matchlens.core.diff.span_table import ALIGN_TASK
from matchlens.core.text import edit_script
from matchlens.ui.compare.scheduler import shares_script

ALIGN = {"case_sensitive": True, "granularity": "char", "view": "readable", "normalise": []}


def test_same_texts_share_other_texts_run_elsewhere():
    tasks = {ALIGN_TASK: ALIGN,
             "levenshtein_distance": {"case_sensitive": True, "normalise": []},
             "levenshtein_similarity": {"case_sensitive": False, "normalise": []},
             "cer": {"normalise": []},
             "wer": {"normalise": ["lowercase"]},
             "bleu": {}}
    assert shares_script(ALIGN_TASK, tasks)
    assert shares_script("levenshtein_distance", tasks)
    assert not shares_script("levenshtein_similarity", tasks)  # folds case: other texts
    assert not shares_script("bleu", tasks)  # needs no edit script at all
    # the highlight folding case too: now similarity shares and distance does not
    folded = {**tasks, ALIGN_TASK: {**ALIGN, "case_sensitive": False}}
    assert shares_script("levenshtein_similarity", folded)
    assert not shares_script("levenshtein_distance", folded)
    # alone (an option change re-asks one metric): nothing to share with, one lane anyway
    assert shares_script("levenshtein_similarity", {"levenshtein_similarity": {}})


def test_a_shared_task_finds_the_script_the_highlight_left(monkeypatch):
    # what sharing buys: after the highlight, the distance metric's script is a cache hit
    e, a = "The cat sat on the mat. " * 50, "The cat sat on a mat! " * 50
    run_task(ALIGN_TASK, e, a, ALIGN)
    calls = []
    original = edit_script.Levenshtein.opcodes
    monkeypatch.setattr(edit_script.Levenshtein, "opcodes",
                        lambda *args, **kw: calls.append(1) or original(*args, **kw))
    run_task("levenshtein_distance", e, a, {"case_sensitive": True, "normalise": []})
    assert calls == []
    run_task("levenshtein_distance", e + ".", a, {"case_sensitive": True, "normalise": []})
    assert calls == [1]  # other texts: computed (the spy sees rapidfuzz's calls)


def test_a_first_long_text_runs_the_longest_metrics_first(qtbot):
    """Before anything was timed, one lane answers the highlight's tasks first, then the
    metrics longest first (as measured at 1M characters), so two lanes finish together."""
    from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_TASK
    from matchlens.ui.compare.scheduler import ScoreScheduler

    scheduler = ScoreScheduler(sync_limit=10, lanes=1)
    order: list[str] = []
    scheduler.sig_result.connect(lambda name, _payload: order.append(name))
    names = ["wer", "bleu", "token_f1", "chrf", "rouge_l", "levenshtein_similarity"]
    first = first_task("levenshtein_distance")
    tasks = {PREVIEW_TASK: ALIGN, DISTANCE_TASK: ALIGN, ALIGN_TASK: ALIGN, first: {},
             **{name: {} for name in names}}
    try:
        scheduler.request("The cat sat on the mat. " * 40, "The cat sat on a mat! " * 40,
                          tasks, new_text=True)
        qtbot.waitUntil(lambda: not scheduler.is_busy(), timeout=60000)
    finally:
        scheduler.shutdown()
    metrics = [name for name in order if name in names]
    assert metrics == ["levenshtein_similarity", "rouge_l", "chrf", "bleu", "wer", "token_f1"]
    assert order.index(PREVIEW_TASK) < order.index(DISTANCE_TASK) < order.index(metrics[0])
    # a metric's first answer (the distance the distance task kept) before the script
    assert order.index(DISTANCE_TASK) < order.index(first) < order.index(ALIGN_TASK)


def test_quick_metrics_answer_right_after_the_preview(qtbot):
    """exact_match and contains (before and after they were timed) are the first metrics the
    lanes take: while one lane works through the highlight's tasks, the other
    answers them before every slower metric (on a long reordered pair they waited minutes
    behind ROUGE-L, their panels "Not computed yet")."""
    from matchlens.core.diff.preview import DISTANCE_TASK, PREVIEW_TASK
    from matchlens.ui.compare.scheduler import ScoreScheduler

    scheduler = ScoreScheduler(sync_limit=10, lanes=2)
    order: list[str] = []
    scheduler.sig_result.connect(lambda name, _payload: order.append(name))
    slow = ["rouge_l", "chrf", "token_f1"]
    tasks = {PREVIEW_TASK: ALIGN, DISTANCE_TASK: ALIGN, ALIGN_TASK: ALIGN,
             **{name: {} for name in [*slow, "exact_match", "contains"]}}
    try:
        for text in ("The cat sat on the mat. ", "A dog sat on the mat! "):  # twice: timed
            order.clear()
            scheduler.request(text * 40, "The cat sat on a mat! " * 40, tasks, new_text=True)
            qtbot.waitUntil(lambda: not scheduler.is_busy(), timeout=60000)
            quick = {order.index("exact_match"), order.index("contains")}
            assert max(quick) < min(order.index(n) for n in slow), order
    finally:
        scheduler.shutdown()
