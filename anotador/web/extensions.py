"""The web's Flask extensions (CSRF, languages, sign-in), created unbound and bound to an app by
:func:`init_app` (the database's are in :mod:`anotador.storage.database`)."""

from flask import Flask
from flask import has_request_context
from flask import request
from flask import session
from flask_babel import Babel
from flask_babel import lazy_gettext as _l
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect

from anotador.words import i18n

csrf = CSRFProtect()
babel = Babel()
babel.domain_instance = i18n.RequestDomain()
login_manager = LoginManager()
login_manager.login_view = "accounts.sign_in"
login_manager.login_message = _l("Sign in to see that page.")
login_manager.login_message_category = "info"

#: The languages of the interface; the first is the default.
LANGUAGES = ("es", "en", "it")


def select_locale() -> str:
    """The language chosen with the switch, else the browser's preference, else Spanish
    (also outside a request: a command's messages)."""
    if not has_request_context():
        return LANGUAGES[0]
    chosen = session.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def init_app(app: Flask) -> None:
    """Bind every extension to ``app``; its configuration must already be loaded."""
    csrf.init_app(app)
    login_manager.init_app(app)
    babel.init_app(app, locale_selector=select_locale, default_locale=LANGUAGES[0])
