"""Browser hardening on every response, and the reverse proxy's view of the request.

:class:`HardenedResponses` wraps the app's WSGI callable, so every response gets the same
headers, whatever made it: a page, JSON, a PDF or CSV download, a static file, a redirect, an
error page (404, 405, 413, 400, 500), even one that Flask's own handlers or an extension
built. Every cookie the app sets (the session's, Flask-Login's remember cookie) leaves
``HttpOnly`` and ``SameSite=Lax``, and ``Secure`` when the request came over HTTPS: decided
per request, so the same server keeps working over plain HTTP on the local network (where a
``Secure`` cookie would never come back) and is strict behind an HTTPS proxy. HSTS likewise
only on HTTPS.

Behind a reverse proxy (``ANOTADOR_BEHIND_PROXY=1``, or the ``PROXY_FIX_*`` settings:
:func:`anotador.storage.config.proxy_settings`),
Werkzeug's ``ProxyFix`` runs first and takes the scheme, host and client address from the
proxy's ``X-Forwarded-*`` headers; without it those headers are ignored.

Why not Flask-Talisman: its defaults redirect every plain-HTTP request to HTTPS and set
``SESSION_COOKIE_SECURE`` for the whole app (both break the LAN use); with those off, it
still has no per-request ``Secure`` for cookies nor ``Cross-Origin-Opener-Policy``, and it
reads ``X-Forwarded-Proto`` from anyone. What would be left of it is a few constant headers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse
    from _typeshed.wsgi import WSGIApplication
    from _typeshed.wsgi import WSGIEnvironment
    from flask import Flask

#: Only the app's own files: no inline script, no inline style (``style=`` attributes
#: included), no frame, no plugin; images may be ``data:`` URLs; forms post to the app only.
#: PDFs go out as attachments (downloaded, opened from the file): shown inline, Chrome's
#: viewer would need ``object-src`` and inline styles for its own page (crbug.com/271452).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

#: The path of the one response that may compile WebAssembly: the worker that runs the rules
#: engine in Pyodide (``anotador/web/views/engine.py``). A dedicated worker obeys the policy of its
#: own script's response, so the pages keep the strict one above.
ENGINE_WORKER_PATH = "/motor/trabajador.js"
ENGINE_WORKER_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)

#: The match page keeps the screen awake (``static/js/app.js``); nothing else is needed.
PERMISSIONS_POLICY = ", ".join(
    [
        "camera=()",
        "microphone=()",
        "geolocation=()",
        "payment=()",
        "usb=()",
        "screen-wake-lock=(self)",
    ]
)

#: On every response. ``same-origin`` referrers: a shared match's link (a token in the URL)
#: never reaches another site, and Flask-WTF's HTTPS check of a form's same-site Referer
#: still passes (``no-referrer`` would refuse every form over HTTPS).
HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: On HTTPS responses only (a browser ignores it over HTTP anyway). One year; not for the
#: subdomains, which a club's domain may serve otherwise.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"

#: The ``X-Forwarded-*`` headers ``ProxyFix`` may trust, each with how many proxies set it.
PROXY_FIX_SETTINGS = {
    "PROXY_FIX_X_FOR": "x_for",
    "PROXY_FIX_X_PROTO": "x_proto",
    "PROXY_FIX_X_HOST": "x_host",
    "PROXY_FIX_X_PORT": "x_port",
    "PROXY_FIX_X_PREFIX": "x_prefix",
}


def init_app(app: Flask) -> None:
    """Wrap ``app.wsgi_app``: hardening inside, ``ProxyFix`` (when configured) outside, so
    the hardening sees the scheme the proxy reported."""
    app.wsgi_app = HardenedResponses(app.wsgi_app)  # type: ignore[method-assign]
    hops = {
        argument: int(app.config.get(setting) or 0)
        for setting, argument in PROXY_FIX_SETTINGS.items()
    }
    if any(hops.values()):
        app.wsgi_app = ProxyFix(app.wsgi_app, **hops)  # type: ignore[method-assign]


class HardenedResponses:
    """WSGI middleware: :data:`HEADERS` on every response, HSTS and ``Secure`` cookies on
    HTTPS ones, ``HttpOnly`` and ``SameSite=Lax`` on every cookie."""

    def __init__(self, wsgi_app: WSGIApplication) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        secure = environ.get("wsgi.url_scheme") == "https"
        policy = CONTENT_SECURITY_POLICY
        if environ.get("PATH_INFO") == ENGINE_WORKER_PATH:
            policy = ENGINE_WORKER_POLICY

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, harden(headers, secure=secure, policy=policy), exc_info)

        return self.wsgi_app(environ, start)


def harden(
    headers: list[tuple[str, str]], *, secure: bool, policy: str = CONTENT_SECURITY_POLICY
) -> list[tuple[str, str]]:
    """``headers`` with the hardening headers set (replacing any of the same name), the
    content security ``policy`` among them, and every ``Set-Cookie`` given the attributes it
    lacks."""
    added = dict(HEADERS, **{"Content-Security-Policy": policy})
    if secure:
        added["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY
    names = {name.lower() for name in added}
    kept = [
        (name, harden_cookie(value, secure=secure) if name.lower() == "set-cookie" else value)
        for name, value in headers
        if name.lower() not in names
    ]
    return kept + list(added.items())


def harden_cookie(value: str, *, secure: bool) -> str:
    """A ``Set-Cookie`` value with ``HttpOnly``, ``SameSite=Lax`` (unless it says otherwise)
    and, on HTTPS, ``Secure`` added when missing."""
    attributes = {part.split("=", 1)[0].strip().lower() for part in value.split(";")[1:]}
    missing = []
    if "httponly" not in attributes:
        missing.append("HttpOnly")
    if "samesite" not in attributes:
        missing.append("SameSite=Lax")
    if secure and "secure" not in attributes:
        missing.append("Secure")
    return "; ".join([value, *missing]) if missing else value
