"""Error pages: one template, a title and message per HTTP status in the user's language;
the page of a stored match the rules engine refuses (``matches/broken.html``); and the 503
every page and endpoint answers while the database cannot be reached.

A database that cannot be reached (stopped, restarting, a network cut, a pool that cannot
give a connection in time) is not a bug: the request gets a 503 with ``Retry-After``, the
app's own error page in the request's language (the session's choice or the browser's: no
database read) drawn for nobody signed in, since who is signed in cannot be read; the
endpoints that answer JSON (marked :func:`answers_json`) answer JSON. Nothing is kept: the
next request tries the database again (stale pooled connections are pinged before use:
``config.engine_options``), so the app serves again as soon as the database is back.
"""

from collections.abc import Callable
from typing import Any
from typing import TypeVar

from flask import Flask
from flask import current_app
from flask import g
from flask import jsonify
from flask import render_template
from flask import request
from flask import url_for
from flask.typing import ResponseReturnValue
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from sqlalchemy import exc as sa_exc
from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import InternalServerError

from anotador import services
from anotador.storage.database import db
from anotador.web.extensions import login_manager
from anotador.words import labels
from anotador.words.labels import problem_line

#: Status code -> (title, message) shown on the error page, in the user's language (the words
#: are the label table's).
MESSAGES: dict[int, tuple[LazyString, LazyString]] = {
    code: (labels.lazy("error_title", code), labels.lazy("error_message", code))
    for code in labels.WORDS["error_title"]
}

CSRF_MESSAGE = _l("The session expired or the form is not valid; try again.")


#: Seconds a browser or a phone's script is asked to wait before trying again while the
#: database cannot be reached (a PostgreSQL restart takes a few).
RETRY_AFTER_SECONDS = 5

#: What SQLAlchemy raises when the database cannot be reached or dropped the connection: the
#: driver's connection errors (``OperationalError``: refused, shut down, terminated, SQLite's
#: file that cannot be opened or stays locked; ``InterfaceError``: a connection already
#: closed) and a pool that could not give a connection in time (``TimeoutError``).
UNREACHABLE = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError)

View = TypeVar("View", bound=Callable[..., Any])


def answers_json(view: View) -> View:
    """Mark ``view`` as an endpoint that answers JSON (a script reads it): its errors that
    are not the view's own (the database unreachable) answer JSON too."""
    view.answers_json = True  # type: ignore[attr-defined]
    return view


def wants_json() -> bool:
    """Whether the request went to an endpoint marked :func:`answers_json`."""
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, "answers_json", False))


def register_error_handlers(app: Flask) -> None:
    """Render :data:`MESSAGES` through ``errors/error.html`` for each handled status."""
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, _http_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(500, _server_error)
    app.register_error_handler(services.matches.StoredMatchInvalid, _stored_match_invalid)
    for unreachable in UNREACHABLE:
        app.register_error_handler(unreachable, database_unreachable)
    # Registered after Flask-SQLAlchemy's teardown, so it runs before it.
    app.teardown_appcontext(end_request_transaction)


def is_unreachable(error: BaseException | None) -> bool:
    """Whether ``error`` says the database cannot be reached (:data:`UNREACHABLE`, or any
    driver error that cost the connection)."""
    if isinstance(error, UNREACHABLE):
        return True
    return isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated


def database_unreachable(error: Exception) -> ResponseReturnValue:
    """503 with ``Retry-After``: the error page (JSON for :func:`answers_json` endpoints),
    drawn without the database, for nobody signed in."""
    current_app.logger.warning("The database cannot be reached: %s", error)
    end_transaction()
    # Who is signed in cannot be read: the rest of the request is drawn for nobody (else
    # Flask-Login would ask the database again for the page's header).
    g._login_user = login_manager.anonymous_user()
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    if wants_json():
        title, message = MESSAGES[503]
        body = {"ok": False, "error": "unavailable", "title": str(title), "message": str(message)}
        return jsonify(body), 503, headers
    page, code = render_error(503)
    return page, code, headers


def end_transaction() -> None:
    """Roll back what the failed request left half done (never committed later), whatever
    state its connection is in."""
    try:
        db.session.rollback()
    except sa_exc.SQLAlchemyError:  # the connection is gone: nothing to undo on it
        db.session.close()


def end_request_transaction(error: BaseException | None) -> None:
    """End the request's transaction before Flask-SQLAlchemy closes the session. The database
    may have dropped the connection after the answer was made (a restart while phones save):
    the rollback of that close then raises, past every error handler, and the server would
    answer 500 instead of the answer the view made. The connection's loss costs nothing here
    (what was committed stays, the rest is gone with it); the next request takes another."""
    if not db.session().in_transaction():
        return
    try:
        # close(), not rollback(): the rows a caller still holds keep what they read.
        db.session.close()
    except sa_exc.SQLAlchemyError as lost:
        current_app.logger.warning("The database dropped a request's connection: %s", lost)
        db.session().invalidate()  # its connections given up without a rollback


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


def _server_error(error: HTTPException) -> ResponseReturnValue:
    # The database failing after the view (an after-request hook reading the account) or
    # inside another error's page reaches here: it is still an outage, not a bug.
    if isinstance(error, InternalServerError) and is_unreachable(error.original_exception):
        return database_unreachable(error.original_exception)  # type: ignore[arg-type]
    end_transaction()
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
