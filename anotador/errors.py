"""Error pages: one template, a title and message per HTTP status in the user's language."""

from flask import Flask
from flask import render_template
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from anotador.extensions import db

#: Status code -> (title, message) shown on the error page, in the user's language.
MESSAGES: dict[int, tuple[LazyString, LazyString]] = {
    400: (
        _l("Invalid request"),
        _l("We could not understand what was sent; check the data and try again."),
    ),
    404: (_l("Page not found"), _l("The page you are looking for does not exist or was moved.")),
    405: (_l("Action not allowed"), _l("That action cannot be done on this page.")),
    413: (_l("Upload too large"), _l("What was sent is too large to process.")),
    500: (_l("Internal error"), _l("Something went wrong on our side; try again in a moment.")),
}

CSRF_MESSAGE = _l("The session expired or the form is not valid; try again.")


def register_error_handlers(app: Flask) -> None:
    """Render :data:`MESSAGES` through ``errors/error.html`` for each handled status."""
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, _http_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(500, _server_error)


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
