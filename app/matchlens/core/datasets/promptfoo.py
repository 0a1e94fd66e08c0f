"""promptfoo's output JSON (`promptfoo eval -o out.json`) as a table to score.

The file holds `results.results`: one object per (test, prompt, provider) with `testIdx`,
`promptIdx`, `provider`, `prompt`, `vars` and `response.output`. Scoring wants one row per test
and the outputs side by side, so the results are pivoted: a row per `testIdx`, each var a
column (`question`, `expected`, as the config names them), and each prompt/provider pair a
column of outputs that is a variant of the actual column (`Table.variants`), so two prompts
compare without hand mapping.
"""

from __future__ import annotations

import re
from typing import Any

from matchlens.core.datasets.jsonfiles import walk_array
from matchlens.core.datasets.source import Source, settle
from matchlens.core.jsonpath import locate_steps
from matchlens.core.text.elide import elide

_NAME_CHARS = 60


def _summary(value: dict) -> tuple[dict, list[str | int]] | None:
    """(the EvaluateSummary, its path) when `value` is promptfoo's output file (or its
    `results` object alone)."""
    inner = value.get("results")
    if isinstance(inner, dict):
        return inner, ["results"]
    return (value, []) if isinstance(inner, list) else None


def is_promptfoo(value: dict) -> bool:
    found = _summary(value)
    if found is None:
        return False
    rows = found[0].get("results")
    return isinstance(rows, list) and bool(rows) and isinstance(rows[0], dict) and \
        "promptIdx" in rows[0] and "testIdx" in rows[0]


def promptfoo_table(source: Source, text: str, value: dict, display, name: str | None):
    from matchlens.core.datasets.headers import unique_header
    from matchlens.core.datasets.table import Table

    summary, at = _summary(value)  # type: ignore[misc]
    steps = [*at, "results"]
    start = locate_steps(text, steps)
    if start is None:  # cannot happen: the parsed value has it
        source.fail("cannot find results.results in the text")
    _, results, result_lines = walk_array(source, text, start, whole=False)
    for result, line in zip(results, result_lines, strict=True):
        _check_indices(source, result, line)
    runs = _run_numbers(results)
    variants = _variant_names(results, runs, summary.get("prompts"))
    number = {key: i for i, key in enumerate(variants)}
    tests: dict[Any, dict[str, Any]] = {}
    lines: dict[Any, int] = {}
    var_names: dict[str, None] = {}
    described = False
    for result, line, run in zip(results, result_lines, runs, strict=True):
        test = result.get("testIdx")
        row = tests.get(test)
        if row is None:
            row = tests[test] = {}
            lines[test] = line
            description = result.get("description") or \
                (result.get("testCase") or {}).get("description")
            if description is not None:
                row[_DESCRIPTION] = description
                described = True
            test_vars = result.get("vars") or (result.get("testCase") or {}).get("vars") or {}
            if isinstance(test_vars, dict):
                row.update({str(k): v for k, v in test_vars.items()})
                var_names.update(dict.fromkeys(map(str, test_vars)))
        row[_KEY.format(number[(*_variant_key(result), run)])] = _output(result)
    # the test's own description: "description", or "test description" when a var has that name
    own = "test description" if "description" in var_names else "description"
    plain = ([own] if described else []) + list(var_names)
    header = unique_header(plain + list(variants.values()))
    outputs = header.names[len(plain):]
    rename = {_KEY.format(i): out for i, out in enumerate(outputs)}
    rename[_DESCRIPTION] = header.names[0]
    rows = [{rename.get(k, k): v for k, v in row.items()} for row in tests.values()]
    settle(rows)
    note = (f"{source.name}: promptfoo output, {len(rows)} test{'' if len(rows) == 1 else 's'} "
            f"× {len(outputs)} prompt/provider output{'' if len(outputs) == 1 else 's'} "
            f"({', '.join(repr(o) for o in outputs)}); each output column is a variant")
    return Table(display, header.names, rows, list(lines.values()), "promptfoo", None,
                 source.encoding, notes=[note], variants=outputs, name=name)


_KEY = "\0variant {}"  # a placeholder key no var can have, replaced by the final column name
_DESCRIPTION = "\0description"  # the test's description, named once the vars are known


def _check_indices(source: Source, result: dict, line: int) -> None:
    """testIdx and promptIdx are numbers (or absent): a list or an object there is one
    sentence naming the line of the result."""
    for key in ("testIdx", "promptIdx"):
        value = result.get(key)
        if isinstance(value, list | dict):
            source.fail(f"promptfoo's {key} is {elide(repr(value), 40)}, not a number",
                        row=line)


def _run_numbers(results: list[dict]) -> list[int]:
    """0 for the first result of a (test, prompt, provider), 1 for its second (`--repeat`)..."""
    seen: dict[tuple[Any, Any, str], int] = {}
    out = []
    for result in results:
        key = (result.get("testIdx"), *_variant_key(result))
        out.append(seen.get(key, 0))
        seen[key] = out[-1] + 1
    return out


def _variant_key(result: dict) -> tuple[Any, str]:
    return result.get("promptIdx"), _provider(result)


def _provider(result: dict) -> str:
    provider = result.get("provider")
    if isinstance(provider, dict):
        return str(provider.get("label") or provider.get("id") or "provider")
    return str(provider or "provider")


def _prompt_label(result: dict, prompts: Any) -> str:
    prompt = result.get("prompt")
    label = None
    if isinstance(prompt, dict):
        label = prompt.get("label") or prompt.get("raw")
    index = result.get("promptIdx")
    if label is None and isinstance(prompts, list) and isinstance(index, int) \
            and 0 <= index < len(prompts) and isinstance(prompts[index], dict):
        label = prompts[index].get("label") or prompts[index].get("raw")
    return str(label if label is not None else f"prompt {index}")


def _variant_names(results: list[dict], runs: list[int],
                   prompts: Any) -> dict[tuple[Any, str, int], str]:
    """One short, single-line column name per (prompt, provider, run), in first-seen order; a
    repeated run of the same test and prompt (`promptfoo eval --repeat`) is a column of its
    own, `… (run 2)`, never dropped."""
    keys: dict[tuple[Any, str], str] = {}
    every_run: dict[tuple[Any, str, int], None] = {}
    for result, run in zip(results, runs, strict=True):
        key = _variant_key(result)
        if key not in keys:
            keys[key] = _one_line(_prompt_label(result, prompts))
        every_run[(*key, run)] = None
    several_prompts = len({k[0] for k in keys}) > 1
    several_providers = len({k[1] for k in keys}) > 1
    names = {}
    for (index, provider), label in keys.items():
        if several_prompts and several_providers:
            names[(index, provider)] = f"{provider} · {label}"
        elif several_prompts:
            names[(index, provider)] = label
        elif several_providers:
            names[(index, provider)] = provider
        else:
            names[(index, provider)] = "output"
    return {(index, provider, run): elide(names[(index, provider)], _NAME_CHARS)
            + (f" (run {run + 1})" if run else "")
            for index, provider, run in sorted(every_run, key=_first_seen(every_run))}


def _first_seen(every_run: dict) -> Any:
    """Order runs after one another: every first run (in first-seen order), then each second…"""
    order = {key: i for i, key in enumerate(every_run)}
    return lambda key: (key[2], order[key])


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _output(result: dict) -> Any:
    """`response.output`; a response that is not an object (a bare text) is the output."""
    response = result.get("response")
    if isinstance(response, dict):
        return response.get("output")
    return response
