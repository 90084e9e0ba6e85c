"""Configuration values for the app factory.

Nothing here reads configuration at import time: the factory calls these functions with the
instance folder and the environment it was given.
"""

import datetime
import os
import secrets
from collections.abc import Callable
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from anotador.words import TRANSLATIONS

#: The package's own folder (``anotador/``; this module is in its ``storage/``).
PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: The folders of the app's files that are not Python code.
RESOURCES = ("templates", "static", "migrations")

#: The variable naming the data folder (the database and the secret key).
DATA_VARIABLE = "ANOTADOR_DATA"


def find_project_root(package_dir: Path) -> Path:
    """The folder that holds ``templates/``, ``static/`` and ``migrations/``.

    A checkout keeps them beside the package; a built wheel carries them inside it (setup.py
    copies them there), so an installed package is its own root.
    """
    if all((package_dir / name).is_dir() for name in RESOURCES):
        return package_dir
    return package_dir.parent


def is_checkout(package_dir: Path) -> bool:
    """Whether ``package_dir`` is the package of a source checkout (editable or not).

    A checkout has ``pyproject.toml`` and ``templates/`` beside the package; an installed
    package (in site-packages, by ``pip`` or ``pipx``) has neither.
    """
    root = package_dir.parent
    return (root / "pyproject.toml").is_file() and (root / "templates").is_dir()


#: Where ``templates/``, ``static/`` and ``migrations/`` are: the repository root in a checkout,
#: the package folder once installed.
PROJECT_ROOT = find_project_root(PACKAGE_DIR)
MIGRATIONS = PROJECT_ROOT / "migrations"

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
        # The catalogs live with the words (anotador/words/), not beside the package's root.
        "BABEL_TRANSLATION_DIRECTORIES": str(TRANSLATIONS),
        # A form's token lasts as long as its session: a table may pause for hours between
        # two hands (Flask-WTF's default is one hour).
        "WTF_CSRF_TIME_LIMIT": None,
        # scrypt is memory-hard (32 MiB a hash), in the standard library through OpenSSL.
        "PASSWORD_HASH_METHOD": "scrypt:32768:8:1",
        # Anyone who reaches the server may make an account (ANOTADOR_SIGN_UP=closed: only
        # `anotador users add`); the first one always needs the setup code.
        "SIGN_UP_OPEN": environ.get("ANOTADOR_SIGN_UP", "open").strip().lower() != "closed",
        "REMEMBER_COOKIE_DURATION": datetime.timedelta(days=60),
        "PERMANENT_SESSION_LIFETIME": datetime.timedelta(days=60),
        # Cookies never readable by scripts nor sent along with another site's requests;
        # ``Secure`` is added per request, on HTTPS ones (anotador/web/security.py), so that plain
        # HTTP on the local network keeps working.
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        **proxy_settings(environ),
        **sheet_settings(environ),
    }


#: The variables capping the printed sheets kept in the data folder's ``sheets/``: their
#: total size in MB, and the days one is kept.
SHEETS_MB_VARIABLE = "ANOTADOR_SHEETS_MB"
SHEETS_DAYS_VARIABLE = "ANOTADOR_SHEETS_DAYS"
DEFAULT_SHEETS_MB = 256
DEFAULT_SHEETS_DAYS = 30


def sheet_settings(environ: Mapping[str, str]) -> dict[str, int]:
    """``PDF_SHEETS_MAX_BYTES`` and ``PDF_SHEETS_MAX_AGE`` (seconds) for the kept sheets
    (anotador/sheets/shelf.py): ``ANOTADOR_SHEETS_MB`` (default 256) and
    ``ANOTADOR_SHEETS_DAYS`` (default 30), whole numbers; unset or empty, the default."""
    megabytes = whole_number(environ, SHEETS_MB_VARIABLE, DEFAULT_SHEETS_MB)
    days = whole_number(environ, SHEETS_DAYS_VARIABLE, DEFAULT_SHEETS_DAYS)
    return {
        "PDF_SHEETS_MAX_BYTES": megabytes * 1024 * 1024,
        "PDF_SHEETS_MAX_AGE": days * 24 * 3600,
    }


def whole_number(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if raw.isascii() and raw.isdigit() and len(raw) <= 6:
        return int(raw)
    raise ValueError(f"{name} must be a whole number (like {default}), not {raw!r}")


#: The variable saying how many reverse proxies stand in front of the app (usually 1).
BEHIND_PROXY_VARIABLE = "ANOTADOR_BEHIND_PROXY"


def proxy_settings(environ: Mapping[str, str]) -> dict[str, int]:
    """The ``PROXY_FIX_*`` settings (Werkzeug's ``ProxyFix``, anotador/web/security.py) for
    ``ANOTADOR_BEHIND_PROXY`` in ``environ``.

    ``N`` proxies in front: the client address, scheme and host (``X-Forwarded-For``,
    ``-Proto``, ``-Host``) are taken from the last ``N`` of them; port and prefix stay off
    (set ``PROXY_FIX_X_PORT`` or ``PROXY_FIX_X_PREFIX`` in the data folder's ``config.py`` for
    a proxy that sends them). Unset, empty or ``0``: no proxy, every forwarded header ignored
    (anyone could send one).
    """
    raw = environ.get(BEHIND_PROXY_VARIABLE, "").strip()
    if not raw:
        hops = 0
    elif raw.isascii() and raw.isdigit() and len(raw) <= 2:
        hops = int(raw)
    else:
        raise ValueError(
            f"{BEHIND_PROXY_VARIABLE} must be how many proxies are in front of the app "
            f"(0, 1, 2...), not {raw!r}"
        )
    return {
        "PROXY_FIX_X_FOR": hops,
        "PROXY_FIX_X_PROTO": hops,
        "PROXY_FIX_X_HOST": hops,
        "PROXY_FIX_X_PORT": 0,
        "PROXY_FIX_X_PREFIX": 0,
    }


def data_folder(
    environ: Mapping[str, str],
    *,
    package_dir: Path = PACKAGE_DIR,
    user_data_dir: Callable[[], str] | None = None,
) -> Path:
    """Where the app keeps its data (SQLite database, secret key, optional ``config.py``).

    ``ANOTADOR_DATA`` when set (relative to the current folder); else ``instance/`` of the
    checkout the package runs from, where developers have always kept theirs; else, for an
    installed package, the platform's per-user data folder (``~/.local/share/anotador`` on
    Linux, ``~/Library/Application Support/anotador`` on macOS, ``%LOCALAPPDATA%\\anotador``
    on Windows). ``DATABASE_URL`` moves only the database: the secret key stays here. The
    folder is not created here (the factory does).
    """
    chosen = environ.get(DATA_VARIABLE)
    if chosen:
        return Path(os.path.abspath(os.path.expanduser(chosen)))
    if is_checkout(package_dir):
        return package_dir.parent / "instance"
    if user_data_dir is None:
        import platformdirs

        return Path(platformdirs.user_data_dir("anotador", appauthor=False))
    return Path(user_data_dir())


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


#: Seconds a new PostgreSQL connection may take (libpq's ``connect_timeout``, at least 2):
#: a database host cut off the network fails a request, and ``/readyz``, this soon instead
#: of the system's TCP timeout (minutes).
DATABASE_CONNECT_TIMEOUT = 3


def engine_options(uri: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """SQLAlchemy's engine options for the database at ``uri``, ``given`` ones (the data
    folder's ``config.py``) taking precedence.

    Every pooled connection is pinged before a request uses it (``pool_pre_ping``): one a
    database restart closed is replaced then, instead of failing the request. PostgreSQL
    connections give up after :data:`DATABASE_CONNECT_TIMEOUT` seconds.
    """
    options: dict[str, Any] = {"pool_pre_ping": True}
    if uri.startswith(("postgresql", "postgres")):
        options["connect_args"] = {"connect_timeout": DATABASE_CONNECT_TIMEOUT}
    return {**options, **(given or {})}


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
