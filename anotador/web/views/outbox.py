"""The outbox's endpoint: hands a phone queued without a connection (``static/js/offline.js``).

``GET`` gives the sender a CSRF token for its ``POST`` (the queue may outlive the page that
filled it). ``POST`` takes ``{"request_key", "number", "hand"}`` (the match-file hand object,
recorded as hand ``number``), and, to settle a conflict the person chose about,
``"resolution"``: ``append``, or ``replace`` with the ``target`` hand's number and the
``shown`` fingerprint the panel showed of it (a phone from before these sends the
``version`` the choice was made on instead). It answers JSON: ``saved`` (201) or
``duplicate`` (200: already stored, by its request key or as the same inputs) with the
hand's number; ``conflict`` (409) with the hands other phones saved since (each with its
fingerprint) and this one, as readable summaries; ``refused`` (400 for a request that cannot
be read, 422 for a hand the rules refuse) with a message in the user's language.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask import request
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf

from anotador import services
from anotador.services.documents import match_document
from anotador.services.hands import changed_reading
from anotador.services.outbox import RESOLUTIONS
from anotador.services.outbox import Choice
from anotador.services.outbox import fingerprint
from anotador.storage.models import Match
from anotador.web import access
from anotador.web import inputs
from anotador.web import match_page
from anotador.web.errors import answers_json
from anotador.web.views.offline import account_tag
from anotador.words import labels
from anotador.words.i18n import points
from anotador.words.i18n import problem_message

bp = Blueprint("outbox", __name__, url_prefix="/partidas/<id:match_id>/manos/pendientes")

Answer = tuple[dict[str, Any], int]


def get_match(match_id: int) -> Match:
    return access.match_for(match_id, access.Level.SCORE)


@bp.get("")
@answers_json
def token(match_id: int) -> Answer:
    """A fresh CSRF token, whose queue this session may send (its account tag), and the
    match file as it is now with its version (the pending hands are scored on it)."""
    match = get_match(match_id)
    body = {
        "csrf_token": generate_csrf(),
        "account": account_tag(),
        "version": match.version,
        "document": match_document(match),
    }
    return body, 200


@bp.post("")
@answers_json
def send(match_id: int) -> Answer:
    """Store one queued hand (see the module's docstring)."""
    get_match(match_id)
    try:
        body = inputs.json_value(request.get_data(), _("The hand sent could not be read."))
        key, number, hand, choice = read_request(body)
    except inputs.BadInput as refused:
        return {"status": "refused", "message": refused.message}, 400
    sent = services.outbox.send_hand(lambda: get_match(match_id), hand, key, number, choice)
    if sent.conflict:
        return conflict(get_match(match_id), number, hand, sent.version), 409
    outcome = sent.outcome
    assert outcome is not None
    if outcome.duplicate:
        return {"status": "duplicate", "number": outcome.hand_number}, 200
    if not outcome.ok:
        errors = [p for p in outcome.problems if p.severity == "error"]
        message = "; ".join(problem_message(p) for p in errors)
        return {"status": "refused", "message": message}, 422
    return {"status": "saved", "number": outcome.hand_number}, 201


def read_request(body: Any) -> tuple[str, int, dict[str, Any], Choice]:
    """The request's key, number, hand and the person's choice, or BadInput."""
    if not isinstance(body, dict):
        raise inputs.BadInput(_("The hand sent could not be read."))
    key = inputs.request_key(body.get("request_key"))
    number = inputs.row_id(body.get("number"))
    hand = body.get("hand")
    if number is None or number < 1 or not isinstance(hand, dict):
        raise inputs.BadInput(_("The hand sent could not be read."))
    choice = Choice(
        resolution=inputs.choice(body.get("resolution"), RESOLUTIONS),
        target=inputs.row_id(body.get("target")),
        shown=inputs.digest(body.get("shown")),
        version=inputs.row_id(body.get("version")),
    )
    replacing = choice.resolution == "replace"
    if replacing and choice.shown is None and choice.version is None:
        raise inputs.BadInput(_("The hand sent could not be read."))
    if replacing and choice.shown is not None and choice.target is None:
        raise inputs.BadInput(_("The hand sent could not be read."))
    return key, number, hand, choice


def conflict(match: Match, number: int, mine: dict[str, Any], version: int) -> dict[str, Any]:
    """The conflict as the phone shows it: every hand other phones saved from ``number`` on
    (the hands a choice may touch: each with its fingerprint and the words of replacing it)
    and the queued one, each summarized, with the words of the choice."""
    scored = services.matches.score(match)
    words = match_page.Words.current(scored.game.rules.variant.name)
    theirs = []
    for n in range(number, len(scored.score.hands) + 1):
        shown = summary(scored.game, n, scored.score.hands[n - 1], words)
        shown["fingerprint"] = fingerprint(match.hands[n - 1])
        shown["replace"] = _("Mine replaces hand %(number)d", number=n)
        theirs.append(shown)
    index = min(number, len(match.hands) + 1) - 1
    game, score, problems = changed_reading(match, index, mine)
    if game is not None and score is not None:
        own = summary(game, index + 1, score.hands[index], words)
    else:
        errors = [problem_message(p) for p in problems if p.severity == "error"]
        own = {"number": index + 1, "ending": "; ".join(errors), "sides": []}
    last = len(match.hands)
    return {
        "status": "conflict",
        "number": number,
        "version": version,
        "theirs": theirs,
        "mine": own,
        "words": {
            "title": _("Hand %(number)d: another phone saved a hand meanwhile", number=number)
            if theirs
            else _("Another phone deleted hands meanwhile"),
            "theirs": _("Saved by another phone"),
            "mine": _("Yours, waiting on this phone"),
            "append": _("Keep both: theirs as they are, mine as hand %(number)d", number=last + 1)
            if theirs
            else _("Save mine as hand %(number)d", number=last + 1),
            "drop_mine": _("Drop mine"),
        },
    }


def summary(game: Any, number: int, scored_hand: Any, words: match_page.Words) -> dict[str, Any]:
    """Hand ``number`` as a person recognises it: who went out, and per side its counts
    (canastas...), the parts of its score and the score."""
    row = match_page.hand_row(game, number, scored_hand, words)
    counts = [spec for spec in game.rules.side_fields() if spec.kind == "count"]
    sides = []
    for index, (info, inputs_of_side) in enumerate(
        zip(game.sides, game.hands[number - 1].sides, strict=True)
    ):
        sides.append(
            {
                "name": info.name,
                "score": points(row.cells[index][0], signed=True),
                "counts": [
                    [labels.say("field", spec.name), inputs_of_side.get(spec.name)]
                    for spec in counts
                    if inputs_of_side.get(spec.name)
                ],
                "parts": [[name, points(value, signed=True)] for name, value in row.parts[index]],
            }
        )
    return {"number": number, "ending": row.ending, "sides": sides, "notes": row.notes}
