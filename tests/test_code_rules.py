"""House rules that code review would otherwise have to remember."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "anotador"
MODULES = sorted(PACKAGE.rglob("*.py"))
#: The web layer: request values reach it, and only the input policy may read them.
#: (The views and forms of ``web/``, and of any area that has its own: ``views.py``, ``forms.py``.)
WEB = [
    path
    for path in MODULES
    if path.parent.name in ("views", "forms") or path.name in ("views.py", "forms.py")
]
MAX_LINES = 400


def test_the_scan_sees_the_package():
    assert len(MODULES) > 40
    assert all(path.exists() for path in WEB)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_400_lines(path: Path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)}: {lines} lines: split it by job"


@pytest.mark.parametrize("path", WEB, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_web_layer_reads_numbers_through_the_input_policy(path: Path):
    """``int()`` reads "١٢" as 12 and ``isdigit`` says yes to "²": anotador.web.inputs decides."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        if isinstance(function, ast.Name) and function.id in ("int", "float"):
            found.append(f"{function.id}() at line {node.lineno}")
        if isinstance(function, ast.Attribute) and function.attr in ("isdigit", "isdecimal"):
            found.append(f".{function.attr}() at line {node.lineno}")
    assert found == [], f"{path.relative_to(PACKAGE)}: use anotador.web.inputs instead of {found}"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def contract_layers() -> list[str]:
    """The modules of the layers contract that ``lint-imports`` checks (``make lint``)."""
    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [
        contract["layers"]
        for contract in pyproject["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers"
    ]
    return [name.strip() for line in layers for name in re.split(r"[:|]", line)]


def test_every_module_is_in_a_layer_of_the_contract():
    """A new module goes into a layer of pyproject.toml's contract (or into a package that is
    one): the contract does not see where a module left out of it points."""
    layers = contract_layers()
    names = [module_name(path) for path in MODULES]
    assert sorted(set(layers) - set(names)) == [], "the contract names modules that are gone"
    left_out = [
        name
        for name in names
        if not any(name == layer or name.startswith(layer + ".") for layer in layers)
        # A package that holds layers (``anotador.web``: the factory, the pages, the toolkit).
        and not any(layer.startswith(name + ".") for layer in layers)
    ]
    assert left_out == []
