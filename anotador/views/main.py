"""The health check, the icon and the language switch."""

import functools
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint
from flask import Response as FlaskResponse
from flask import abort
from flask import current_app
from flask import redirect
from flask import request
from flask import session
from flask import url_for
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response

from anotador.extensions import LANGUAGES

bp = Blueprint("main", __name__)


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    """Answer ``{"status": "ok"}`` without touching the database."""
    return {"status": "ok"}


@bp.get("/favicon.ico")
def favicon() -> FlaskResponse:
    """The icon browsers ask for at the root whatever the page links (``static/favicon.ico``,
    read once: a few kilobytes)."""
    response = FlaskResponse(icon(current_app.static_folder or ""), mimetype="image/x-icon")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response


@functools.cache
def icon(folder: str) -> bytes:
    return (Path(folder) / "favicon.ico").read_bytes()


@bp.get("/idioma/<lang>")
def set_language(lang: str) -> Response:
    """Remember the chosen language and go back to the page the switch was tapped on."""
    if lang not in LANGUAGES:
        abort(404)
    session["lang"] = lang
    return redirect(safe_next(request.args.get("next")), 303)


def safe_next(target: str | None) -> str:
    """``target`` when it is a page of this site that can be opened again (never another
    host; not the answer to a form, as a restored backup's), else the home page."""
    # isprintable: no control character or line break may reach the Location header.
    path = target or ""
    if path.isprintable() and path.startswith("/") and not path.startswith(("//", "/\\")):
        parts = urlsplit(path)
        if not parts.scheme and not parts.netloc and can_open(parts.path):
            return path
    return url_for("matches.index")


def can_open(path: str) -> bool:
    """Whether a GET of ``path`` reaches a route (a redirect to one, as a missing final
    slash, counts)."""
    adapter = current_app.url_map.bind("localhost")
    try:
        adapter.match(path, method="GET")
    except RequestRedirect:
        return True
    except HTTPException:
        return False
    return True
