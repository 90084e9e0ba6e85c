"""Error pages: one template, a title and message per HTTP status in the user's language;
and the page of a stored match the rules engine refuses (``matches/broken.html``)."""

from typing import Any

from flask import Flask
from flask import render_template
from flask import request
from flask import url_for
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from anotador import labels
from anotador import services
from anotador.extensions import db
from anotador.labels import problem_line

#: Status code -> (title, message) shown on the error page, in the user's language (the words
#: are the label table's).
MESSAGES: dict[int, tuple[LazyString, LazyString]] = {
    code: (labels.lazy("error_title", code), labels.lazy("error_message", code))
    for code in labels.WORDS["error_title"]
}

CSRF_MESSAGE = _l("The session expired or the form is not valid; try again.")


def register_error_handlers(app: Flask) -> None:
    """Render :data:`MESSAGES` through ``errors/error.html`` for each handled status."""
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, _http_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(500, _server_error)
    app.register_error_handler(services.matches.StoredMatchInvalid, _stored_match_invalid)


def render_error(code: int, message: str | None = None) -> tuple[str, int]:
    """Return the error page for ``code``, with ``message`` instead of the default one."""
    title, default_message = MESSAGES[code]
    page = render_template(
        "errors/error.html", code=code, title=str(title), message=str(message or default_message)
    )
    return page, code


def _http_error(error: HTTPException) -> tuple[str, int]:
    return render_error(error.code or 500)


def _csrf_error(error: CSRFError) -> tuple[str, int]:
    return render_error(400, CSRF_MESSAGE)


def _server_error(error: HTTPException) -> tuple[str, int]:
    # The failed request may have left a transaction half done; never commit it later.
    db.session.rollback()
    return render_error(500)


#: Status of every page of a match the engine refuses. 409 Conflict: the request is fine (422
#: would blame what was sent, and a GET sends nothing); the match's stored state conflicts
#: with the rules, and the user can resolve it (export it as stored, correct, import it).
BROKEN_STATUS = 409
#: Problems listed on that page (a file written by a bad tool may hold hundreds).
BROKEN_SHOWN = 50


def _stored_match_invalid(error: services.matches.StoredMatchInvalid) -> Any:
    """Any page of a match whose stored hands or names the engine refuses (the planilla, the
    hand form, undo, delete, abandon, the PDF): what is wrong, in the user's language, and
    the stored file to download. Nothing is cached or written."""
    db.session.rollback()
    match_id = (request.view_args or {}).get("match_id")
    errors = [p for p in error.problems if p.severity == "error"] or error.problems
    lines = [problem_line(problem) for problem in errors]
    if request.endpoint == "hands.preview":  # the hand form's live preview asks for JSON
        problems = [{"field": "", "message": line, "severity": "error"} for line in lines]
        return {"ok": False, "sides": [], "problems": problems}, BROKEN_STATUS
    state = services.queries.match_state(match_id) if isinstance(match_id, int) else None
    names = ""
    if state is not None:
        # Control characters (one may be the very problem) are left out of the heading.
        text = " · ".join(name for name, _players in state.names)
        names = "".join(char for char in text if char.isprintable())
    page = render_template(
        "matches/broken.html",
        code=BROKEN_STATUS,
        names=names,
        lines=lines[:BROKEN_SHOWN],
        hidden=len(lines) > BROKEN_SHOWN,
        export_url=url_for("matches.export", match_id=match_id) if state is not None else None,
    )
    return page, BROKEN_STATUS
