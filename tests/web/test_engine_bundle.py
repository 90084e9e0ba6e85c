"""The rules engine as the browser gets it: one zip of anotador/rules, a worker allowed to
compile WebAssembly, and the page's script tag that says where they are."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from anotador import rules
from anotador.rules.api import score_document
from anotador.web.security import CONTENT_SECURITY_POLICY
from anotador.web.views.engine import rules_bundle

EXAMPLES = Path(__file__).parent.parent / "fixtures" / "examples"


def bundle_url(client) -> str:
    return f"/motor/reglas-{rules_bundle()[0]}.zip"


def test_the_bundle_holds_every_rules_module_and_nothing_of_the_web(client):
    response = client.get(bundle_url(client))

    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert "immutable" in response.headers["Cache-Control"]
    names = zipfile.ZipFile(io.BytesIO(response.data)).namelist()
    modules = sorted(f"anotador/rules/{p.name}" for p in Path(rules.__file__).parent.glob("*.py"))
    assert sorted(names) == ["anotador/__init__.py", *modules]


def test_an_old_or_made_up_digest_is_a_404(client):
    assert client.get("/motor/reglas-0123456789abcdef.zip").status_code == 404
    assert client.get("/motor/reglas-.zip").status_code == 404


def test_the_bundle_scores_alone_in_a_bare_interpreter(tmp_path):
    """What the phone runs needs only the standard library: unpacked where no installed
    package can be imported (-I -S), it gives the server's answer."""
    zipfile.ZipFile(io.BytesIO(rules_bundle()[1])).extractall(tmp_path)
    document = (EXAMPLES / "E02.json").read_text()
    program = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from anotador.rules.api import score_document\n"
        "print(json.dumps(score_document(sys.stdin.read())))\n"
    )
    found = subprocess.run(
        [sys.executable, "-I", "-S", "-c", program],
        input=document,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(found.stdout) == json.loads(json.dumps(score_document(document)))
    assert json.loads(found.stdout)["result"] is not None


def test_only_the_worker_may_compile_webassembly(client):
    with client.get("/motor/trabajador.js") as worker:
        worker_policy = worker.headers["Content-Security-Policy"]
        status, mimetype = worker.status_code, worker.mimetype
    page = client.get("/")

    assert (status, mimetype) == (200, "text/javascript")
    assert "'wasm-unsafe-eval'" in worker_policy
    assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "wasm" not in page.headers["Content-Security-Policy"]


def test_every_page_says_where_the_engine_is(client):
    page = client.get("/").get_data(as_text=True)

    assert 'data-worker="/motor/trabajador.js"' in page
    assert f'data-rules="{bundle_url(client)}"' in page


def test_without_pyodide_the_page_says_so(app, client, tmp_path, monkeypatch):
    (tmp_path / "static").mkdir()
    monkeypatch.setattr(app, "static_folder", str(tmp_path / "static"))
    page = client.get("/").get_data(as_text=True)

    assert 'data-pyodide=""' in page


def test_with_pyodide_the_page_points_at_its_folder(app, client, tmp_path, monkeypatch):
    static = tmp_path / "static"
    (static / "vendor" / "pyodide").mkdir(parents=True)
    (static / "vendor" / "pyodide" / "pyodide.mjs").write_text("")
    monkeypatch.setattr(app, "static_folder", str(static))
    page = client.get("/").get_data(as_text=True)

    assert 'data-pyodide="/static/vendor/pyodide/"' in page


@pytest.mark.parametrize("library", [b"one standard library", b"another"])
def test_the_page_names_the_standard_library_a_snapshot_is_kept_for(
    app, client, tmp_path, monkeypatch, library
):
    """A phone keeps its engine's snapshot per standard library: a restored interpreter holds
    the zip's index and never reads it again, so another zip must make another snapshot."""
    folder = tmp_path / "static" / "vendor" / "pyodide"
    folder.mkdir(parents=True)
    (folder / "pyodide.mjs").write_text("")
    (folder / "python_stdlib.zip").write_bytes(library)
    monkeypatch.setattr(app, "static_folder", str(tmp_path / "static"))
    page = client.get("/").get_data(as_text=True)

    assert f'data-stdlib="{hashlib.sha256(library).hexdigest()[:16]}"' in page


def test_pyodide_serves_its_standard_library_compiled(app):
    """``make`` compiles Pyodide's standard library (scripts/compile-stdlib.mjs): a phone's
    first start of the engine imports bytecode instead of compiling every module."""
    library = Path(app.static_folder, "vendor", "pyodide", "python_stdlib.zip")
    if not library.is_file():
        pytest.skip("Pyodide is not installed (npm was missing)")
    names = zipfile.ZipFile(library).namelist()

    assert "encodings/__init__.pyc" in names
    assert "json/decoder.pyc" in names
    assert [name for name in names if name.endswith(".py")] == []
