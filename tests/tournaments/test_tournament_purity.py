"""The tournaments' core stays pure, like the rules engine: the standard library, the engine,
itself, (for the command only) click and (for the swiss draw only) its matching library,
rustworkx, with numpy; never Flask, SQLAlchemy or the app's modules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import anotador.tournaments

PACKAGE = Path(anotador.tournaments.__file__).resolve().parent
ALLOWED = ("anotador.rules", "anotador.tournaments")


def test_the_core_imports_only_the_stdlib_the_engine_and_itself():
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) > 5
    outside = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if module.startswith(ALLOWED) or top in sys.stdlib_module_names:
                    continue
                if top == "click" and path.name == "commands.py":
                    continue
                if top in ("rustworkx", "numpy") and path.name == "swiss.py":
                    continue
                outside.append(f"{path.name}: {module}")
    assert outside == []
