"""Where the phones at the table open the app: the listening address, the machine's address
on the local network, and the QR on the home page (the startup banner that prints them is
:func:`anotador.commands.startup.banner_lines`).

``anotador run`` (waitress, :mod:`anotador.commands.waitress_server`: what ``make run`` calls) and
``anotador serve`` (gunicorn, :mod:`anotador.commands.serve`) listen on ``HOST`` and ``PORT``
(``0.0.0.0`` and 5000 unless set) and print the banner once they are ready. QR
codes are made by segno (pure Python): text blocks for the terminal, an inline SVG for the
page (no script, no image request, nothing loaded from outside).
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from collections.abc import Mapping
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

import segno
from flask import Flask
from flask import Request
from flask import current_app
from markupsafe import Markup

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
#: Any address of this machine (IPv4, IPv6): what a phone opens is the LAN address.
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
#: A documentation network (TEST-NET-1, RFC 5737): connecting a UDP socket to it sends
#: nothing, and the system picks the local address it would route through.
PROBE_ADDRESS = ("192.0.2.1", 9)
#: Longer addresses (a forged Host header) get no QR code: a phone's address is short.
MAX_URL_LENGTH = 200
#: The app's setting that holds the address the server listens on (set by :func:`listen_on`).
LISTEN_HOST = "ANOTADOR_LISTEN_HOST"


def listen_address(environ: Mapping[str, str]) -> tuple[str, int]:
    """``HOST`` and ``PORT`` from ``environ``, else :data:`DEFAULT_HOST` and :data:`DEFAULT_PORT`.

    Raises ValueError when ``PORT`` is not a whole number from 1 to 65535.
    """
    host = environ.get("HOST", "").strip() or DEFAULT_HOST
    raw = environ.get("PORT", "").strip()
    if not raw:
        return host, DEFAULT_PORT
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 5 and 1 <= int(raw) <= 65535):
        raise ValueError(f"PORT must be a number from 1 to 65535, not {raw!r}")
    return host, int(raw)


def lan_ipv4() -> str | None:
    """This machine's IPv4 address on the local network; None without a network.

    A UDP socket's ``connect`` sends no packet: it only asks the system which address would
    be used to reach :data:`PROBE_ADDRESS`.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_ADDRESS)
            address = str(probe.getsockname()[0])
    except OSError:  # no route: no network
        return None
    try:
        parsed = ipaddress.IPv4Address(address)
    except ValueError:
        return None
    if parsed.is_loopback or parsed.is_unspecified or parsed.is_link_local:
        return None
    return address


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a name or an address, IPv6 without brackets) is this machine only."""
    if not host:
        return False
    if host.lower().rstrip(".") in {"localhost", "localhost.localdomain"}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_for_host(host: str, port: int, scheme: str = "http") -> str:
    """``scheme://host:port/`` (an IPv6 address in brackets, no port when it is the default)."""
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{shown}/" if port == default else f"{scheme}://{shown}:{port}/"


def phone_address(host: str, port: int) -> tuple[str, bool]:
    """The address a phone on the network opens for a server listening on ``host``:``port``,
    and whether other machines can open it at all.

    Listening on every address (``0.0.0.0``), that is the LAN address (this machine's own,
    ``127.0.0.1``, without a network); on a loopback address, only this machine can.
    """
    if host in WILDCARD_HOSTS:
        lan = lan_ipv4()
        if lan is None:
            return url_for_host("127.0.0.1", port), False
        return url_for_host(lan, port), True
    return url_for_host(host, port), not is_loopback(host)


def listen_on(app: Flask, host: str) -> None:
    """Tell ``app`` the address its server listens on: bound to this machine only
    (``--host 127.0.0.1``), its pages offer the phones no address they cannot open."""
    app.config[LISTEN_HOST] = host


def phones_locked_out(app: Flask) -> bool:
    """Whether ``app``'s server listens on a loopback address, which no phone can reach."""
    return is_loopback(app.config.get(LISTEN_HOST))


def page_url(request: Request) -> str | None:
    """The address another phone opens to reach this app, for the home page's QR code.

    The address the request came to (through a proxy, the public one: ``ProxyFix``); when it
    came to this machine only (``localhost``), the same port on the LAN address instead. None
    when there is none to offer (no network, a server listening on this machine only:
    :func:`phones_locked_out`, or a forged Host header).
    """
    try:
        parts = urlsplit(request.root_url)
        hostname, port = parts.hostname, parts.port
    except ValueError:
        return None
    url = request.root_url
    if is_loopback(hostname) or hostname in WILDCARD_HOSTS:  # 0.0.0.0 typed in a browser
        if phones_locked_out(current_app):
            return None
        lan = lan_ipv4()
        if lan is None:
            return None
        netloc = lan if port is None else f"{lan}:{port}"
        url = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    if len(url) > MAX_URL_LENGTH or not url.isprintable():
        return None
    return url


@functools.lru_cache(maxsize=32)
def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as an inline SVG (dark on white, sized by CSS: ``.qr-code``).

    No ``style`` attribute (the Content-Security-Policy allows none): colours are attributes.
    """
    svg = segno.make(url, error="m").svg_inline(
        dark="#000", light="#fff", border=2, omitsize=True, svgclass="qr-code"
    )
    return Markup(svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1))
