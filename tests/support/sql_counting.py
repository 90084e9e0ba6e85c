"""Counting the SQL statements a piece of code sends (constant-query checks)."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from flask import Flask

from anotador.storage.database import db


@contextmanager
def count_statements(app: Flask) -> Iterator[list[str]]:
    """Collect, in the list it yields, every statement sent to ``app``'s database."""
    statements: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
