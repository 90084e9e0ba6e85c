"""Configuration values for the app factory.

Nothing here reads configuration at import time: the factory calls these functions with the
instance folder and the environment it was given.
"""

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The repository root, which holds ``templates/``, ``static/`` and ``migrations/``.
PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: Forms are a few hundred bytes; anything near this is a mistake or an abuse.
MAX_CONTENT_LENGTH = 1024 * 1024

_SECRET_KEY_FILE = "secret_key"


def load_config(
    instance_path: str | os.PathLike[str], environ: Mapping[str, str]
) -> dict[str, Any]:
    """Return the default configuration for an app whose instance folder is ``instance_path``.

    Without ``SECRET_KEY`` in ``environ``, the key is read from (or, the first time, written to)
    the instance folder's ``secret_key`` file, so sessions survive restarts. The instance folder
    must exist.
    """
    instance = Path(instance_path)
    return {
        "SECRET_KEY": environ.get("SECRET_KEY") or _persistent_secret_key(instance),
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'anotador.sqlite3'}",
        "MAX_CONTENT_LENGTH": MAX_CONTENT_LENGTH,
    }


def env_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """Return the settings that ``SECRET_KEY`` and ``DATABASE_URL`` in ``environ`` override."""
    overrides: dict[str, Any] = {}
    if environ.get("SECRET_KEY"):
        overrides["SECRET_KEY"] = environ["SECRET_KEY"]
    if environ.get("DATABASE_URL"):
        overrides["SQLALCHEMY_DATABASE_URI"] = database_uri(environ["DATABASE_URL"])
    return overrides


def database_uri(url: str) -> str:
    """Return ``url`` with PostgreSQL URLs pointed at the psycopg 3 driver.

    Hosting services hand out ``postgres://`` or ``postgresql://`` URLs; SQLAlchemy reads the
    first as an error and the second as psycopg2, which is not installed.
    """
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


def _persistent_secret_key(instance: Path) -> str:
    path = instance / _SECRET_KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if not key:
        key = secrets.token_hex(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(key + "\n")
    return key
