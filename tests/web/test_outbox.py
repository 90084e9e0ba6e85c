"""The outbox's endpoint: queued hands stored once, conflicts answered with both hands, bad
requests refused with a message; and the installable app's manifest and service worker."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from test_sharing import make_link
from test_sharing import opened

from anotador.storage.database import db
from anotador.storage.models import Match

HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [{"clean": 2, "dirty": 1, "table_points": 400}, {"dirty": 1, "table_points": 250}],
}
THEIRS = {
    "end": "closed",
    "closer": 1,
    "sides": [{"table_points": 200}, {"clean": 1, "table_points": 300}],
}


def key(n: int) -> str:
    return f"{n:032x}"


def send(client: FlaskClient, match_id: int, **body: Any):
    return client.post(f"/partidas/{match_id}/manos/pendientes", json=body)


def closers(app: Flask, match_id: int) -> list[int | None]:
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        return [hand.inputs["closer"] for hand in match.hands]


def test_a_retried_send_stores_the_hand_once(app: Flask, client: FlaskClient, make_match):
    match_id = make_match()
    first = send(client, match_id, request_key=key(1), number=1, hand=HAND)
    assert (first.status_code, first.get_json()) == (201, {"status": "saved", "number": 1})
    again = send(client, match_id, request_key=key(1), number=1, hand=HAND)
    assert (again.status_code, again.get_json()) == (200, {"status": "duplicate", "number": 1})
    assert closers(app, match_id) == [0]


def test_hands_queued_in_order_are_appended_in_order(app: Flask, client: FlaskClient, make_match):
    match_id = make_match()
    for number, hand in enumerate([HAND, THEIRS, HAND], start=1):
        assert (
            send(client, match_id, request_key=key(number), number=number, hand=hand).status_code
            == 201
        )
    assert closers(app, match_id) == [0, 1, 0]


def test_another_phone_saved_hand_n_first_the_answer_is_the_conflict(
    app: Flask, client: FlaskClient, make_match
):
    match_id = make_match(hands=[THEIRS])
    answer = send(client, match_id, request_key=key(1), number=1, hand=HAND)
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["status"] == "conflict"
    assert [hand["number"] for hand in body["theirs"]] == [1]
    assert body["theirs"][0]["ending"] == "Cerró: Ellos."
    assert body["mine"]["ending"] == "Cerró: Nosotros."
    mine = body["mine"]["sides"][0]
    assert mine["name"] == "Nosotros"
    assert ["Limpias", 2] in mine["counts"]
    assert mine["score"] == "+1.800"
    assert "mano 2" in body["words"]["append"]
    assert closers(app, match_id) == [1]  # nothing stored until a person chooses


def test_keep_both_puts_mine_after_theirs(app: Flask, client: FlaskClient, make_match):
    match_id = make_match(hands=[THEIRS])
    version = send(client, match_id, request_key=key(1), number=1, hand=HAND).get_json()["version"]
    body = {"request_key": key(1), "number": 1, "hand": HAND, "version": version}
    answer = send(client, match_id, resolution="append", **body)
    assert (answer.status_code, answer.get_json()["number"]) == (201, 2)
    assert send(client, match_id, resolution="append", **body).get_json()["status"] == "duplicate"
    assert closers(app, match_id) == [1, 0]


def test_drop_theirs_replaces_their_hand_with_mine_once(
    app: Flask, client: FlaskClient, make_match
):
    match_id = make_match(hands=[THEIRS])
    version = send(client, match_id, request_key=key(1), number=1, hand=HAND).get_json()["version"]
    body = {"request_key": key(1), "number": 1, "hand": HAND, "version": version}
    assert send(client, match_id, resolution="replace", **body).status_code == 201
    assert send(client, match_id, resolution="replace", **body).get_json()["status"] == "duplicate"
    assert closers(app, match_id) == [0]


def test_a_choice_made_on_an_old_state_is_a_new_conflict(
    app: Flask, client: FlaskClient, make_match
):
    match_id = make_match(hands=[THEIRS])
    version = send(client, match_id, request_key=key(1), number=1, hand=HAND).get_json()["version"]
    assert send(client, match_id, request_key=key(2), number=2, hand=THEIRS).status_code == 201
    stale = {"request_key": key(1), "number": 1, "hand": HAND, "version": version}
    answer = send(client, match_id, resolution="replace", **stale)
    assert answer.status_code == 409
    assert [hand["number"] for hand in answer.get_json()["theirs"]] == [1, 2]
    assert closers(app, match_id) == [1, 1]


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        "[]",
        '"hand"',
        json.dumps({"number": 1, "hand": HAND}),
        json.dumps({"request_key": "x" * 32, "number": 1, "hand": HAND}),
        json.dumps({"request_key": key(1), "number": "uno", "hand": HAND}),
        json.dumps({"request_key": key(1), "number": 0, "hand": HAND}),
        json.dumps({"request_key": key(1), "number": 2**40, "hand": HAND}),
        json.dumps({"request_key": key(1), "number": 1, "hand": [HAND]}),
        json.dumps({"request_key": key(1), "number": 1, "hand": HAND, "resolution": "both"}),
        json.dumps({"request_key": key(1), "number": 1, "hand": HAND, "resolution": "replace"}),
        json.dumps(
            {"request_key": key(1), "number": 1, "hand": HAND, "resolution": "replace"}
            | {"shown": key(2)}
        ),
    ],
)
def test_a_request_that_cannot_be_read_is_a_400_with_a_message(
    app: Flask, client: FlaskClient, make_match, body: str
):
    match_id = make_match()
    answer = client.post(
        f"/partidas/{match_id}/manos/pendientes", data=body, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.get_json()["status"] == "refused"
    assert answer.get_json()["message"]
    assert closers(app, match_id) == []


def test_a_hand_the_rules_refuse_is_a_422_in_the_users_language(
    app: Flask, client: FlaskClient, make_match
):
    match_id = make_match()
    answer = send(
        client, match_id, request_key=key(1), number=1, hand={"end": "closed", "sides": []}
    )
    assert answer.status_code == 422
    assert answer.get_json()["message"]
    assert closers(app, match_id) == []


def test_a_table_link_may_send_a_spectator_may_not(app: Flask, client: FlaskClient, make_match):
    match_id = make_match()
    table = opened(app, make_link(client, match_id, "table"))
    spectator = opened(app, make_link(client, match_id, "spectator"))
    # Signed in nowhere, as for the hand form: sent to sign in; nothing stored.
    assert send(spectator, match_id, request_key=key(1), number=1, hand=HAND).status_code == 302
    assert spectator.get(f"/partidas/{match_id}/manos/pendientes").status_code == 302
    assert closers(app, match_id) == []
    token = table.get(f"/partidas/{match_id}/manos/pendientes").get_json()
    assert token["document"]["hands"] == []
    assert send(table, match_id, request_key=key(1), number=1, hand=HAND).status_code == 201
    assert closers(app, match_id) == [0]


def test_the_send_needs_the_csrf_token_in_a_header(app_factory):
    app = app_factory(WTF_CSRF_ENABLED=True)
    match_id = create_stored_match(app, match_document())
    phone = signed_in(app, OWNER)
    assert send(phone, match_id, request_key=key(1), number=1, hand=HAND).status_code == 400
    token = phone.get(f"/partidas/{match_id}/manos/pendientes").get_json()["csrf_token"]
    answer = phone.post(
        f"/partidas/{match_id}/manos/pendientes",
        json={"request_key": key(1), "number": 1, "hand": HAND},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 201
    assert closers(app, match_id) == [0]


def test_the_hand_form_describes_each_input_for_the_outbox(client: FlaskClient, make_match):
    match_id = make_match()
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    found = re.search(
        r'<script type="application/json" id="offline-hand"[^>]*>(.*?)</script>', page
    )
    assert found
    info = json.loads(found.group(1))
    assert info["fields"]["s1_table_points"] == {
        "side": 1,
        "path": "table_points",
        "type": "points",
        "special": False,
    }
    assert info["fields"]["closer"]["type"] == "closer"
    assert info["document"]["hands"] == []
    assert f'data-send-url="/partidas/{match_id}/manos/pendientes"' in page


def test_the_manifest_and_the_service_worker(client: FlaskClient):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.get_json(force=True)
    assert body["start_url"] == "/"
    assert body["display"] == "standalone"
    assert {icon["purpose"] for icon in body["icons"]} == {"any", "maskable"}
    for icon in body["icons"]:
        response = client.get(icon["src"])
        response.close()
        assert response.status_code == 200
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript"
    assert "no-cache" in worker.headers["Cache-Control"]
    assert worker.get_data(as_text=True).startswith("self.ANOTADOR = ")
    home = client.get("/").get_data(as_text=True)
    assert 'rel="manifest"' in home
    assert 'name="theme-color" media="(prefers-color-scheme: dark)"' in home


def test_pages_say_whose_they_are(app: Flask, client: FlaskClient):
    mine = client.get("/").headers["X-Anotador-Account"]
    assert mine != "guest"
    assert app.test_client().get("/cuenta/entrar").headers["X-Anotador-Account"] == "guest"
    create_account(app, "Otra")
    assert signed_in(app, "Otra").get("/").headers["X-Anotador-Account"] not in (mine, "guest")


def test_signing_out_ends_the_remembered_session_too(client: FlaskClient):
    """The service worker drops the cached pages when the tag changes: after a sign-out the
    pages are a guest's, even with the remember cookie the sign-in left."""
    assert client.get("/").headers["X-Anotador-Account"] != "guest"
    assert client.post("/cuenta/salir", data={"confirm": "1"}).status_code == 303
    assert client.get("/").headers["X-Anotador-Account"] == "guest"


def test_the_panel_offers_each_hand_shown_and_replacing_one_leaves_the_others(
    app: Flask, client: FlaskClient, make_match
):
    match_id = make_match(hands=[THEIRS, THEIRS])
    answer = send(client, match_id, request_key=key(1), number=1, hand=HAND)
    assert answer.status_code == 409
    theirs = answer.get_json()["theirs"]
    assert [hand["replace"] for hand in theirs] == [
        "La mía reemplaza la mano 1",
        "La mía reemplaza la mano 2",
    ]
    assert len({hand["fingerprint"] for hand in theirs}) == 2  # equal inputs, two hands
    body = {"request_key": key(1), "number": 1, "hand": HAND, "resolution": "replace"}
    chosen = {**body, "target": 2, "shown": theirs[1]["fingerprint"]}
    assert send(client, match_id, **chosen).get_json() == {"status": "saved", "number": 2}
    assert closers(app, match_id) == [1, 0]
    # Sent again (the answer was lost): already stored, nothing else replaced.
    assert send(client, match_id, **chosen).get_json()["status"] == "duplicate"
    assert closers(app, match_id) == [1, 0]


def test_a_queued_hand_another_phone_saved_too_is_already_stored(
    app: Flask, client: FlaskClient, make_match
):
    match_id = make_match(hands=[THEIRS])
    answer = send(client, match_id, request_key=key(1), number=1, hand=THEIRS)
    assert (answer.status_code, answer.get_json()) == (200, {"status": "duplicate", "number": 1})
    assert closers(app, match_id) == [1]
