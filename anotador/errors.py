"""Error pages: one template, a Spanish title and message per HTTP status."""

from flask import Flask
from flask import render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from anotador.extensions import db

#: Status code -> (title, message) shown on the error page.
MESSAGES: dict[int, tuple[str, str]] = {
    400: (
        "Solicitud no válida",
        "No pudimos entender lo que enviaste; revisá los datos y volvé a intentarlo.",
    ),
    404: ("Página no encontrada", "La página que buscás no existe o fue movida."),
    405: ("Acción no permitida", "Esa acción no se puede hacer en esta página."),
    413: ("Envío demasiado grande", "Lo que enviaste es demasiado grande para procesarlo."),
    500: ("Error interno", "Algo salió mal de nuestro lado; probá de nuevo en un momento."),
}

CSRF_MESSAGE = "La sesión expiró o el formulario no es válido; volvé a intentarlo."


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
        "errors/error.html", code=code, title=title, message=message or default_message
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
