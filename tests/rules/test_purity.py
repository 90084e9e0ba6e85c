"""The scoring engine and the ``score`` command stay pure Python.

``anotador.rules`` imports nothing but the standard library and itself, and scoring a file
from the command line loads none of the web app's heavy dependencies.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import anotador.rules

RULES_DIR = Path(anotador.rules.__file__).resolve().parent
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "examples" / "E01.json"
HEAVY = ("flask", "sqlalchemy", "wtforms", "weasyprint", "flask_wtf", "psycopg")

PROBE = """
import json, sys
import anotador.rules
import anotador.commands.main
try:
    anotador.commands.main.main(["score", sys.argv[1]], standalone_mode=False)
finally:
    loaded = sorted({name.split(".")[0] for name in sys.modules} & set(sys.argv[2:]))
    print("HEAVY=" + json.dumps(loaded))
"""


def test_scoring_a_file_loads_no_web_dependencies():
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(FIXTURE), *HEAVY],
        capture_output=True,
        text=True,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    output, marker = done.stdout.rstrip("\n").rsplit("\n", 1)
    assert json.loads(output)["totals"] == [3460, 3455]
    assert json.loads(marker.removeprefix("HEAVY=")) == []


def imported_modules(path: Path) -> list[tuple[str, int]]:
    """(module, level) of every import statement in ``path``; level > 0 is relative."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found


def test_rules_package_imports_only_stdlib_and_itself():
    files = sorted(RULES_DIR.glob("*.py"))
    assert len(files) > 5
    outside = []
    for path in files:
        for module, level in imported_modules(path):
            if level > 0 or module == "anotador.rules" or module.startswith("anotador.rules."):
                continue
            if module.split(".")[0] in sys.stdlib_module_names:
                continue
            outside.append(f"{path.name}: {module}")
    assert outside == []
