"""The core/ui split is a checked contract, not a convention."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_core_and_cli_leave_qt_and_openai_unloaded():
    code = (
        "import sys, matchlens.core.scoring.batch, matchlens.core.config, matchlens.cli.parser, "
        "matchlens.cli.score, matchlens.core.metrics.registry as r; r.all_metrics(); "
        "bad = [m for m in ('PySide6', 'pyqtgraph', 'superqt', 'openai', 'matchlens.ui') "
        "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run([str(ruff), "check", "app", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _import_graph() -> dict[str, set[str]]:
    """Every internal import of the package, those inside functions included (grimp reads the
    whole syntax tree): module -> the modules it imports."""
    import grimp

    graph = grimp.build_graph("matchlens")
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def _cyclic_groups(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_the_cycle_finder_finds_a_cycle_through_a_deferred_import():
    # a -> b -> c -> a (c's import inside a function counts the same), d alone
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cyclic_groups(graph) == [["a", "b", "c"]]
    assert _cyclic_groups({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules_counting_imports_inside_functions():
    assert _cyclic_groups(_import_graph()) == []


def test_no_private_name_is_imported_from_another_module():
    import ast

    crossings = []
    for path in sorted((ROOT / "app" / "matchlens").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("matchlens"):
                crossings += [f"{path.relative_to(ROOT)}:{node.lineno} {node.module}.{a.name}"
                              for a in node.names
                              if a.name.startswith("_") and not a.name.startswith("__")]
    assert crossings == []


def test_documented_import_paths_keep_working():
    # the README's paths from before the redesign, kept for one release
    from matchlens.core.diff.readable.chunks import readable_diff
    from matchlens.core.readable import readable_diff as old_readable_diff
    from matchlens.embeddings import scrub

    assert old_readable_diff is readable_diff
    assert old_readable_diff("a cat", "a hat").distance == 1
    assert "abcdefghijklmnop" not in scrub("key sk-abcdefghijklmnop1234", "sk-abcdefghijklmnop1234")
    done = subprocess.run([sys.executable, "-c",
                           "import matchlens.dask, matchlens.api.partitions as p; "
                           "assert matchlens.dask.score is p.score; "
                           "assert matchlens.dask.summary is p.summary"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
