"""The database: its object (``db``, the models' base) and its migrations, created unbound and
bound to an app by :func:`init_app`."""

import sys
from typing import Any
from typing import ClassVar

from flask import Flask
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData
from sqlalchemy import Table
from sqlalchemy import event
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.orm.attributes import instance_state

from anotador.storage.config import MIGRATIONS
from anotador.storage.config import engine_options


class Base(DeclarativeBase):
    # Every model maps one table (bulk writes and `anotador check` use it as a Core table).
    __table__: ClassVar[Table]

    # Named constraints let Alembic alter and drop them the same way on SQLite and PostgreSQL.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_N_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)

# CPython 3.11 (3.11.2 and 3.11.7 seen; not 3.13) can free an object's attribute values while
# it makes a dict for a new attribute: if the collector runs during that allocation and a
# weakref callback it triggers sets an attribute on the same object. SQLAlchemy does that to its
# InstanceState: Session.close() (every request's teardown) sets state._strong_obj on states
# whose objects are already garbage in a cycle, and the state's own callback (_cleanup) sets
# attributes on it. A segfault, likely as soon as another thread allocates meanwhile (a threaded
# server): tests/test_threads.py. 3.12 does not crash there but drops the callback's store. A
# state given its dict while its object is alive (loaded or created) never takes that path.
if sys.implementation.name == "cpython" and sys.version_info < (3, 13):

    @event.listens_for(db.Model, "init", propagate=True)
    @event.listens_for(db.Model, "load", propagate=True)
    def _give_state_its_dict(target: Any, *args: Any) -> None:
        instance_state(target).__dict__  # noqa: B018 - materializes the dict (the point)


def init_app(app: Flask) -> None:
    """Bind the database and its migrations to ``app``; its configuration must already be loaded."""
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(
        app.config["SQLALCHEMY_DATABASE_URI"], app.config.get("SQLALCHEMY_ENGINE_OPTIONS")
    )
    db.init_app(app)
    # migrations/ beside the package in a checkout, inside it once installed
    # (anotador.storage.config).
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _prepare_sqlite_connection)


#: Milliseconds a SQLite connection waits for another's write to finish before it gives up
#: ("database is locked"): longer than any save takes, shorter than a phone's patience.
SQLITE_BUSY_TIMEOUT_MS = 15_000


def _prepare_sqlite_connection(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # SQLite ignores FOREIGN KEY constraints unless each connection asks for them.
    cursor.execute("PRAGMA foreign_keys=ON")
    # A server's threads and workers share one file: with the write-ahead log readers never
    # block the writer nor it them, and a writer waits its turn instead of failing.
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode=WAL")
    # Safe with WAL (a power cut may lose the last commits, never corrupt the file), and a
    # commit no longer waits for the disk twice.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
