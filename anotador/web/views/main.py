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
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response

from anotador.storage.database import db
from anotador.web.errors import RETRY_AFTER_SECONDS
from anotador.web.errors import answers_json
from anotador.web.extensions import LANGUAGES

bp = Blueprint("main", __name__)

READY_PROBE = text("SELECT 1")


@bp.get("/healthz")
@answers_json
def healthz() -> dict[str, str]:
    """Liveness: answer ``{"status": "ok"}`` without touching the database (the process
    serves; restarting it would not bring a stopped database back)."""
    return {"status": "ok"}


@bp.get("/readyz")
@answers_json
def readyz() -> tuple[dict[str, str], int, dict[str, str]]:
    """Readiness, what a load balancer asks: 200 while the database answers ``SELECT 1``,
    else 503 (within :data:`anotador.storage.config.DATABASE_CONNECT_TIMEOUT` seconds), so that a
    host that cannot reach it is taken out until it can."""
    try:
        with db.engine.connect() as connection:
            connection.execute(READY_PROBE)
    except SQLAlchemyError as error:
        current_app.logger.warning("Not ready: the database cannot be reached: %s", error)
        body = {"status": "unavailable", "database": "unreachable"}
        return body, 503, {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    return {"status": "ok", "database": "ok"}, 200, {"Cache-Control": "no-store"}


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
