"""The rules engine for the browser: its Python source as one zip, and the worker that runs
it in Pyodide (``static/js/engine.js`` starts it when a phone has to score without a
connection).

Both are public: they are the same rules that ``anotador score`` applies, and a phone caches
them before anyone signs in.
"""

from __future__ import annotations

import functools
import hashlib
import io
import zipfile
from pathlib import Path

from flask import Blueprint
from flask import Response
from flask import abort
from flask import current_app
from flask import request
from flask import url_for

from anotador import rules

bp = Blueprint("engine", __name__, url_prefix="/motor")

#: In the zip instead of the package's own ``__init__``: the browser needs the rules alone.
PACKAGE_INIT = b'"""anotador\'s rules engine, as the browser runs it."""\n'
#: A fixed time for every zip entry, so the same source always gives the same digest.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)
#: The bundle's name changes with its content: a phone may keep it for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Pyodide's standard library, under the static folder.
STDLIB = ("vendor", "pyodide", "python_stdlib.zip")


@functools.cache
def rules_bundle() -> tuple[str, bytes]:
    """The digest and bytes of a zip holding ``anotador/rules/*.py`` as this server runs them."""
    folder = Path(rules.__file__).parent
    entries = [("anotador/__init__.py", PACKAGE_INIT)] + [
        (f"anotador/rules/{path.name}", path.read_bytes()) for path in sorted(folder.glob("*.py"))
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in entries:
            bundle.writestr(zipfile.ZipInfo(name, ZIP_TIME), data)
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:16], data


@bp.get("/reglas-<digest>.zip")
def rules_zip(digest: str) -> Response:
    current, data = rules_bundle()
    if digest != current:
        abort(404)
    response = Response(data, mimetype="application/zip")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.get("/trabajador.js")
def worker() -> Response:
    """The worker script, from here rather than ``static/``: its response carries the one
    policy that lets it compile WebAssembly (:data:`anotador.web.security.ENGINE_WORKER_POLICY`)."""
    script = Path(current_app.static_folder or "", "js", "engine-worker.js").read_bytes()
    response = Response(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    response.make_conditional(request)
    return response


def pyodide_installed() -> bool:
    static = current_app.static_folder
    return static is not None and Path(static, "vendor", "pyodide", "pyodide.mjs").is_file()


@functools.cache
def file_digest(path: Path) -> str:
    """The file's digest, or "" when it cannot be read (the page is served all the same)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return ""


def engine_urls() -> dict[str, str]:
    """What ``engine.js`` needs to start the engine; no Pyodide folder when npm never ran.
    ``stdlib`` names the standard library served beside Pyodide (compiled or not): a phone's
    snapshot of the started engine is kept for it, so a restored one never reads another."""
    pyodide = stdlib = ""
    if pyodide_installed():
        pyodide = f"{request.script_root}{current_app.static_url_path}/vendor/pyodide/"
        stdlib = file_digest(Path(current_app.static_folder or "", *STDLIB))
    return {
        "worker": url_for("engine.worker"),
        "rules": url_for("engine.rules_zip", digest=rules_bundle()[0]),
        "pyodide": pyodide,
        "stdlib": stdlib,
    }
