"""One-time messages ("Hand 4 saved.") belong to the page the request that said them led to.

A request that flashes and redirects tags its messages with the address it sends to, and only
that page shows them (``page_flashes``, in ``base.html``). A page another one fetches in the
background (the live table swapping the planilla, a save sent without leaving the page) leaves
messages meant for another address where they are; a page the browser navigates to drops them
(their page was never shown: they are stale). Messages said without a redirect show on the
page that said them.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask
from flask import Response
from flask import get_flashed_messages
from flask import request
from flask import session

#: The session's key for the address the pending messages are for (Flask's own: ``_flashes``).
FOR = "_flashes_for"
REDIRECTS = frozenset({301, 302, 303, 307, 308})


def init_app(app: Flask) -> None:
    app.after_request(tag_redirect)


def here() -> str:
    return request.script_root + request.path


def navigated() -> bool:
    """Whether the browser shows this response as a page (its own fetches say otherwise;
    without the header, as from an older browser, it does)."""
    return request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"


def tag_redirect(response: Response) -> Response:
    """Pending messages go with a redirect of the request that said them (or of the page they
    were for, sending on): to its address."""
    if response.status_code in REDIRECTS and response.location and session.get("_flashes"):
        target = session.get(FOR)
        if target in (None, here()) or request.method != "GET":
            session[FOR] = urlsplit(response.location).path
    return response


def page_flashes() -> list[tuple[str, str]]:
    """The one-time messages this page shows, as ``(category, message)``."""
    if not session.get("_flashes"):
        return []
    target = session.get(FOR)
    if target is not None and target != here():
        if navigated():
            session.pop("_flashes", None)
            session.pop(FOR, None)
        return []
    session.pop(FOR, None)
    # With categories: pairs (Flask's type says strings or pairs).
    return get_flashed_messages(with_categories=True)  # type: ignore[return-value]
