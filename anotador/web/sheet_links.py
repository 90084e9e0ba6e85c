"""Signed links to one state of a match's score sheet: what the match page gives a browser.

A sheet is a pure function of one state of its match (``views.pdf.match_sheet_key``), so a
link naming that key always answers the same bytes: the browser keeps them for good and a
reload costs a 304. The link is signed (HMAC with the app's secret key, through
itsdangerous) for the match, the key, an expiry and the credential that gave the browser
its access (``access.Grant``: its account as the session keeps it, or an opened link).
While the signature is good and the browser still presents that credential, a sheet some
worker already drew is served from the session alone, without reading the database.

What that trusts for at most :data:`LINK_HOURS` (and one hour more): a session whose
account changed its password elsewhere, a member who left the group, a link revoked since
the page was shown; each of them may still download the one state of the sheet it was
shown then. Past the expiry, with another browser, or when no worker kept the sheet, the
link is checked like the match's own address and still works for whoever may read the
match now.
"""

from __future__ import annotations

import hashlib
import hmac
import time

import itsdangerous
from flask import current_app

from anotador.web import access
from anotador.web import inputs

#: Whole hours a link stays good after the hour it was given in. Links given in the same
#: hour are the same, so a page shown again keeps the link the browser already has.
LINK_HOURS = 12
SALT = "anotador.sheet-link"
#: The latest expiry read (the year 2500): anything larger is no link of this app's.
LATEST = 16_725_225_600


def expiry(now: float | None = None) -> int:
    """The expiry (seconds since the epoch) of a link given ``now``."""
    hour = int(time.time() if now is None else now) // 3600
    return (hour + 1 + LINK_HOURS) * 3600


def signature(match_id: int, key: str, until: int, credential: str) -> str:
    secret = current_app.config["SECRET_KEY"]
    signer = itsdangerous.Signer(secret, salt=SALT, digest_method=hashlib.sha256)
    return signer.get_signature(f"{match_id}:{key}:{until}:{credential}").decode()


def signed_for_this_browser(match_id: int, key: str, until: object, given: object) -> bool:
    """Whether ``given`` signs ``match_id``, ``key`` and ``until`` (not past) for one of the
    credentials this browser's session presents (read from the session alone)."""
    try:
        expires = inputs.integer(until, 0, LATEST)
    except inputs.BadInput:
        return False
    if expires is None or expires < time.time() or not isinstance(given, str):
        return False
    presented = given.encode()
    return any(
        hmac.compare_digest(presented, signature(match_id, key, expires, credential).encode())
        for credential in access.presented_credentials()
    )
