"""``anotador serve``: the app under gunicorn, several worker processes, for a club's server or
a Raspberry Pi at home.

gunicorn runs in this process (:class:`Server`, a ``gunicorn.app.base.BaseApplication``): the
app is built and its database prepared (:func:`anotador.commands.startup.prepare`) once, in the
master, then each worker is a fork of it. Connections are never shared across the fork:
the master closes its pool before forking and each worker drops what it inherited.

gunicorn is not available on Windows (the dependency's marker): ``anotador run`` serves
there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from anotador.commands import startup
from anotador.storage.database import db
from anotador.web import addresses

#: Each worker's threads (gunicorn's ``gthread`` workers, whose poller here reads each request
#: whole first: :mod:`anotador.commands.gunicorn_worker`): a long request (a PDF, a restore) keeps
#: only one thread busy, a slow client none, and a worker never times out while its main
#: loop runs.
THREADS = 4
WORKER_CLASS = "anotador.commands.gunicorn_worker.BufferingThreadWorker"
#: Seconds a worker may go without answering its master before it is restarted.
TIMEOUT = 120
#: Seconds an idle connection is kept open. A phone following a match live polls about
#: every second (static/js/live.js): between polls its connection waits in the worker's
#: poller, holding no thread, and the next poll reuses it.
KEEPALIVE = 5
#: Without ``WEB_CONCURRENCY``, workers per CPU core, within these bounds (each worker holds
#: the app, WeasyPrint included: some 100 MB).
MIN_WORKERS, MAX_WORKERS = 2, 8


def default_workers(environ: Mapping[str, str], cores: int | None) -> int:
    """``WEB_CONCURRENCY`` when set (a whole number from 1 to 64), else one worker per core
    plus one, from :data:`MIN_WORKERS` to :data:`MAX_WORKERS`.

    Raises ValueError on a ``WEB_CONCURRENCY`` that is not such a number.
    """
    raw = environ.get("WEB_CONCURRENCY", "").strip()
    if raw:
        if raw.isascii() and raw.isdigit() and len(raw) <= 2 and 1 <= int(raw) <= 64:
            return int(raw)
        raise ValueError(f"WEB_CONCURRENCY must be a number from 1 to 64, not {raw!r}")
    return max(MIN_WORKERS, min(MAX_WORKERS, (cores or 1) + 1))


def bind_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def gunicorn_options(
    app: Flask, host: str, port: int, workers: int, echo: Callable[[str], object]
) -> dict[str, Any]:
    """The gunicorn settings for serving ``app`` on ``host``:``port`` with ``workers``."""

    def when_ready(arbiter: Any) -> None:  # the master listens: the phones may come
        startup.echo_banner(app, host, port, echo, sys.stdout.encoding)

    def post_fork(arbiter: Any, worker: Any) -> None:
        with app.app_context():
            for engine in db.engines.values():
                engine.dispose(close=False)  # the master's connections stay the master's

    return {
        "bind": [bind_address(host, port)],
        "workers": workers,
        "worker_class": WORKER_CLASS,
        "threads": THREADS,
        "timeout": TIMEOUT,
        "keepalive": KEEPALIVE,
        "accesslog": "-",
        # The scheme comes from the app's ProxyFix only (ANOTADOR_BEHIND_PROXY): gunicorn
        # would otherwise believe X-Forwarded-Proto from any local client.
        "secure_scheme_headers": {},
        # No control socket in the user's home (gunicorn's own runtime management).
        "control_socket_disable": True,
        "when_ready": when_ready,
        "post_fork": post_fork,
    }


def serve(
    app: Flask, host: str, port: int, workers: int, echo: Callable[[str], object] = print
) -> None:
    """Prepare ``app``'s database and serve it with gunicorn until stopped (Ctrl+C, SIGTERM)."""
    startup.prepare(app, echo)
    addresses.listen_on(app, host)
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()
    Server(app, gunicorn_options(app, host, port, workers, echo)).run()


class Server(BaseApplication):
    """gunicorn's arbiter serving one app object, with settings given here (no config file,
    no command line of its own)."""

    def __init__(self, app: Flask, options: Mapping[str, Any]) -> None:
        self.application = app
        self.options = dict(options)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application
