"""The application factory."""

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.routing import BaseConverter
from werkzeug.routing import IntegerConverter
from werkzeug.routing import Map

from anotador.commands import matches as commands
from anotador.ratings import models as rating_models  # noqa: F401 - and the ratings
from anotador.ratings import views as ratings
from anotador.storage import caching
from anotador.storage import config
from anotador.storage import database
from anotador.storage import models  # noqa: F401 - registers the tables with SQLAlchemy
from anotador.tournaments.operations import tables as tournament_tables
from anotador.tournaments.store import models as tournament_models  # noqa: F401 - its tables
from anotador.tournaments.web import clock as tournament_clock
from anotador.tournaments.web import views as tournaments
from anotador.web import access
from anotador.web import assets
from anotador.web import errors
from anotador.web import extensions
from anotador.web import flashes
from anotador.web import security
from anotador.web import templating
from anotador.web.views import accounts
from anotador.web.views import engine
from anotador.web.views import groups
from anotador.web.views import hands
from anotador.web.views import history
from anotador.web.views import live
from anotador.web.views import main
from anotador.web.views import matches
from anotador.web.views import offline
from anotador.web.views import outbox
from anotador.web.views import pdf
from anotador.web.views import players
from anotador.web.views import sharing


def create_app(
    test_config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
) -> Flask:
    """Create the app.

    Configuration is applied in this order, each step overriding the previous ones: defaults
    from :func:`anotador.storage.config.load_config`, the instance folder's ``config.py``
    (optional), ``SECRET_KEY`` and ``DATABASE_URL`` from the environment, ``FLASK_*`` variables,
    and last ``test_config``. The instance folder is the data folder,
    :func:`anotador.storage.config.data_folder` (``ANOTADOR_DATA``, else ``instance/`` in a
    checkout, else the user's data folder), unless ``instance_path`` is given (tests use it to
    stay out of the developer's own); it is created if missing.
    """
    if instance_path is None:
        instance_path = config.data_folder(os.environ)
    app = Flask(
        "anotador",
        instance_path=os.path.abspath(instance_path),
        instance_relative_config=True,
        template_folder=config.PROJECT_ROOT / "templates",
        static_folder=config.PROJECT_ROOT / "static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(config.load_config(app.instance_path, os.environ))
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(config.env_overrides(os.environ))
    app.config.from_prefixed_env()
    if test_config is not None:
        app.config.from_mapping(test_config)

    database.init_app(app)
    extensions.init_app(app)
    caching.init_app(app)
    # A tournament's table is final once its round closes, and its points stay bounded.
    tournament_tables.init_app(app, access.user_id)
    # Every <id:...> in a route is a row id: anything a database integer cannot hold is a 404
    # at routing, before any query (PostgreSQL refuses such a number with an error).
    app.url_map.converters["id"] = RowIdConverter
    # A score sheet's key (anotador.sheets.sheet_key) in its link: anything else is a 404.
    app.url_map.converters["sheet_key"] = SheetKeyConverter
    templating.register_template_helpers(
        app,
        more_globals=(
            engine.engine_urls,
            offline.offline_hand,
            flashes.page_flashes,
            *ratings.TEMPLATE_GLOBALS,
            *tournament_clock.TEMPLATE_GLOBALS,
        ),
        more_context=(offline.offline_words,),
    )
    flashes.init_app(app)
    assets.init_app(app)
    app.register_blueprint(main.bp)
    app.register_blueprint(matches.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(pdf.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(accounts.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(engine.bp)
    app.register_blueprint(live.bp)
    app.session_interface = live.PollingSessions()
    app.register_blueprint(offline.bp)
    app.register_blueprint(outbox.bp)
    app.register_blueprint(ratings.bp)
    errors.register_error_handlers(app)
    commands.register_commands(app)
    # Last: its WSGI wrappers see every response the app and its extensions make.
    security.init_app(app)
    return app


class RowIdConverter(IntegerConverter):
    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, min=1, max=2**31 - 1)


class SheetKeyConverter(BaseConverter):
    regex = "[0-9a-f]{64}"
