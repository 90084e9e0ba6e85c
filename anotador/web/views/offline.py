"""The installable app: its manifest, its service worker (``static/js/sw.js``, served from
the root so that it may control every page) and the page shown for what was never cached.

Pages are per account: every HTML response says whose it is in ``X-Anotador-Account`` (an
opaque tag, the same for one account's session), so the service worker keeps each account's
pages apart and drops the cached pages when another account (or nobody) signs in.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from pathlib import Path
from typing import Any

from flask import Blueprint
from flask import Response
from flask import current_app
from flask import render_template
from flask import url_for
from flask_babel import gettext as _

from anotador import rules
from anotador.rules import Role
from anotador.services.documents import match_document
from anotador.storage.models import Match
from anotador.web import access
from anotador.web.extensions import LANGUAGES
from anotador.web.forms.hand import HandForm
from anotador.web.inputs import NOT_A_NUMBER
from anotador.words.i18n import EXPECTED
from anotador.words.i18n import locale_name
from anotador.words.i18n import points

bp = Blueprint("offline", __name__)

#: The theme colours of app.css (its accent in light mode, its background in dark mode).
THEME_LIGHT = "#0b5394"
THEME_DARK = "#000000"
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-192.png", "192x192", "maskable"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)
ACCOUNT_HEADER = "X-Anotador-Account"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, in the user's language."""
    body = {
        "name": _("Canasta scorekeeper"),
        "short_name": _("Scorekeeper"),
        "start_url": url_for("matches.index"),
        "scope": url_for("matches.index"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_LIGHT,
        "icons": [
            {
                "src": url_for("static", filename=path),
                "sizes": sizes,
                "type": "image/png",
                "purpose": purpose,
            }
            for path, sizes, purpose in ICONS
        ],
    }
    return Response(current_app.json.dumps(body), mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker; its first line names this release of the static files and of
    the engine's, so a new release installs a new worker (which drops the old copies)."""
    folder = current_app.static_folder or ""
    config = {
        "release": release(folder),
        "engine": release(folder, engine=True),
        "root": url_for("matches.index"),
        "offline": url_for("offline.fallback"),
        "signOut": url_for("accounts.sign_out"),
        "manifest": url_for("offline.manifest"),
        "static": url_for("static", filename=""),
        "header": ACCOUNT_HEADER,
    }
    script = f"self.ANOTADOR = {current_app.json.dumps(config)};\n" + worker_script(folder)
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


@functools.cache
def worker_script(folder: str) -> str:
    return (Path(folder) / "js" / "sw.js").read_text(encoding="utf-8")


#: What the engine is made of besides its content-named rules zip: Pyodide and its worker.
ENGINE_FILES = ("vendor/", "js/engine-worker.js")


@functools.cache
def release(folder: str, engine: bool = False) -> str:
    """A digest of the static files (read once per process: the same on every server): of
    the engine's (:data:`ENGINE_FILES`) with ``engine``, else of the others."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name.startswith(ENGINE_FILES) == engine:
            digest.update(name.encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


@bp.get("/sin-conexion")
def fallback() -> str:
    """What the service worker shows for a page it never cached, without a connection."""
    return render_template("offline/fallback.html")


@bp.after_app_request
def tag_account(response: Response) -> Response:
    if response.mimetype == "text/html":
        response.headers[ACCOUNT_HEADER] = account_tag()
    return response


def account_tag() -> str:
    """Whose pages these are: the same for one account's sessions until its password
    changes, "guest" signed in nowhere; it tells nothing about the account."""
    user = access.signed_in()
    if user is None:
        return "guest"
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, user.lasting_id().encode(), hashlib.sha256).hexdigest()[:16]


def offline_words() -> dict[str, Any]:
    """What static/js/offline.js says, in the page's language (it runs without a
    connection: the words travel with the page)."""
    return {"offline_words": offline_words_in(locale_name())}


@functools.lru_cache(maxsize=len(LANGUAGES))
def offline_words_in(language: str) -> dict[str, str]:
    """The words of :func:`offline_words` in ``language``, the current one (every page
    carries them: they are said once per process)."""
    return {
        "pending": _("Pending"),
        "provisionalBadge": _("Provisional"),
        "pendingNote": _(
            "Hands marked pending are saved on this phone and sent when there is a connection."
        ),
        "noEngine": _("The totals of the pending hands will show when the connection returns."),
        "provisional": _(
            "Provisional: this phone has not heard from the server for a while; the number "
            "and totals may change when the other phones' hands arrive."
        ),
        "editOffline": _(
            "No connection: corrections and undo need the connection. Nothing was changed; "
            "try again when there is signal."
        ),
        "refused": _("This hand saved on the phone was not accepted:"),
        "refusedAccess": _("This phone may no longer score this match; sign in again."),
        "dropRefused": _("Remove it from this phone"),
        "minus": "\u2212",
        "thousands": points(1000)[1],
        "toGo": _("%(points)s to go", points="{}"),
        "reached": _("Target reached"),
        "notANumber": str(NOT_A_NUMBER),
        "chooseCloser": _("Choose who went out, or that the stock ran out."),
        "hand": _("Hand"),
    }


def offline_hand(form: HandForm, match: Match) -> dict[str, Any]:
    """What the hand form needs to queue a new hand without a connection (where to send it
    is the block's ``data-send-url``): the match file it starts from, and for each input
    the match-file field it fills (``static/js/offline.js`` turns the form into a hand
    object with it, as :meth:`HandForm.to_hand` does on the server)."""
    game_rules, sides = form.game_rules, len(form.side_names)
    special = {spec.name for spec in game_rules.fields_with(Role.SPECIAL_HAND)}
    fields: dict[str, dict[str, Any]] = {
        "closer": {"type": "closer", "end": game_rules.variant.special_end},
        "note": {"path": "note", "type": "text"},
    }
    for spec in game_rules.hand_fields():
        fields[spec.name] = {"path": spec.name, "type": spec.kind}
    for index in range(sides):
        for spec in game_rules.side_fields():
            fields[f"s{index}_{spec.name}"] = {
                "side": index,
                "path": spec.name,
                "type": spec.kind,
                "special": spec.name in special,
            }
    return {
        "match": match.id,
        "document": match_document(match),
        "fields": fields,
        "planilla": url_for("matches.show", match_id=match.id),
        "account": account_tag(),
        # The engine's problems in the page's language, for the preview without a connection.
        "messages": {code: _(template) for code, template in rules.MESSAGES.items()},
        "expected": {english: str(said) for english, said in EXPECTED.items()},
    }
