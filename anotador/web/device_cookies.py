"""The device cookie: a browser that signed in to an account keeps its own allowance.

OWASP's "Slow Down Online Guessing Attacks with Device Cookies": after a successful sign-in
(or sign-up) the browser gets a signed cookie naming the accounts it signed in to and a
random nonce of its own. A sign-in that presents it for that account counts its failures
against that device alone (``services.throttle.device_key``), so strangers who lock the
account out for unknown clients (``account:`` and ``address:`` keys) never lock out its
owner's phone. The cookie proves nothing else: it is no session, it opens nothing, and it
only travels to the sign-in page (its ``path``). The signature (the installation's secret
key) keeps a stranger from naming an account in a cookie of their own.
"""

from __future__ import annotations

import datetime
import secrets

from flask import current_app
from flask import request
from flask import url_for
from itsdangerous import BadSignature
from itsdangerous import URLSafeTimedSerializer
from werkzeug.wrappers import Response

from anotador.services.accounts import Device

COOKIE = "anotador_device"
#: As long as browsers keep a cookie (400 days); renewed by every sign-in.
MAX_AGE = datetime.timedelta(days=400)
#: Accounts one browser is trusted for (a family's shared tablet), the latest kept.
MAX_ACCOUNTS = 8
_SALT = "anotador device cookie"


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=_SALT)


def presented() -> Device | None:
    """The request's device cookie, or None (none, tampered, expired or malformed)."""
    value = request.cookies.get(COOKIE)
    if not value:
        return None
    try:
        data = _serializer().loads(value, max_age=int(MAX_AGE.total_seconds()))
    except BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("n"), str):
        return None
    accounts = data.get("a")
    if not isinstance(accounts, list) or not all(type(item) is int for item in accounts):
        return None
    return Device(nonce=data["n"], accounts=tuple(accounts))


def remember(response: Response, account_id: int) -> Response:
    """Give the browser (again) its device cookie, now naming ``account_id`` too."""
    device = presented()
    nonce = device.nonce if device is not None else secrets.token_urlsafe(16)
    others = [known for known in device.accounts if known != account_id] if device else []
    accounts = [account_id, *others][:MAX_ACCOUNTS]
    response.set_cookie(
        COOKIE,
        _serializer().dumps({"n": nonce, "a": accounts}),
        max_age=MAX_AGE,
        path=url_for("accounts.sign_in"),
        httponly=True,
        samesite="Lax",
    )
    return response
