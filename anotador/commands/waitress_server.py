"""``anotador run`` (what ``make run`` calls): the app under waitress, on Linux, macOS and
Windows alike.

Why waitress: it is a production server in pure Python (no compiler, no fork: it runs where
gunicorn cannot, on Windows), and its one I/O thread reads every request whole, head and
body (a large body spilled to a temporary file), before a worker thread runs the app. A
phone on a weak signal, or a client trickling bytes on purpose, holds a connection, never a
thread: the others keep being served. Werkzeug's development server, which served here
before, gives each connection a thread from its first byte and says it is not for this.

One process, :data:`THREADS` threads: a table's phones, a club night. ``anotador serve``
(gunicorn, several processes) is for a club's server.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from anotador.commands import startup
from anotador.storage import config
from anotador.web import addresses
from anotador.web import security

#: Threads running the app. A PDF or a restore keeps one busy; a slow client keeps none.
THREADS = 8
#: Open connections at most (each phone following a match live keeps one between polls).
CONNECTION_LIMIT = 500
#: Seconds a connection may stay silent before it is closed.
CHANNEL_TIMEOUT = 60
#: Bytes of a request body at most, above what the app reads (its largest: a restore's
#: upload, ``RESTORE_MAX_BYTES``), spooled to a temporary file while it arrives.
BODY_MARGIN = 1024 * 1024


def server_options(app: Flask, host: str, port: int) -> dict[str, Any]:
    """waitress's settings for serving ``app`` on ``host``:``port``."""
    from anotador.web.views.history import RESTORE_MAX_BYTES

    largest = max(
        int(app.config.get("RESTORE_MAX_BYTES", RESTORE_MAX_BYTES)),
        int(app.config.get("MAX_CONTENT_LENGTH") or config.MAX_CONTENT_LENGTH),
    )
    return {
        "host": host,
        "port": port,
        "threads": THREADS,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        "max_request_body_size": largest + BODY_MARGIN,
        # X-Forwarded-* reach the app, whose ProxyFix alone decides whom to believe
        # (ANOTADOR_BEHIND_PROXY), as under gunicorn.
        "clear_untrusted_proxy_headers": False,
        "ident": "anotador",
    }


class HardenedErrorTask(ErrorTask):
    """waitress's own answers (a request it cannot read: 400, a head or body too large: 431,
    413), with the headers every answer of the app carries."""

    def execute(self) -> None:
        self.response_headers.extend(security.HEADERS.items())
        super().execute()


class HardenedChannel(HTTPChannel):
    error_task_class = HardenedErrorTask


def listen(app: Flask, host: str, port: int) -> Any:
    """A waitress server bound to ``host``:``port`` (not serving yet)."""
    sockets: dict[int, Any] = {}
    server = create_server(app, map=sockets, **server_options(app, host, port))
    for listener in sockets.values():  # one per address (IPv4, IPv6)
        listener.channel_class = HardenedChannel
    return server


def serve(app: Flask, host: str, port: int, echo: Callable[[str], object] = print) -> None:
    """Prepare ``app``'s database and serve it with waitress until stopped (Ctrl+C)."""
    startup.prepare(app, echo)
    addresses.listen_on(app, host)
    server = listen(app, host, port)
    startup.echo_banner(app, host, port, echo, sys.stdout.encoding)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
