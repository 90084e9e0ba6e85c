"""Sharing: table and spectator links, groups, and every list scoped to its account."""

from __future__ import annotations

import io
import json

from flask import Flask
from flask.testing import FlaskClient
from stored import E1_FORM
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from test_hands import record

from anotador import services
from anotador.statistics import reads as statistics
from anotador.storage.database import db
from anotador.storage.models import Match

SIDES = [
    {"name": "Nos", "players": ["Ana", "Carla"]},
    {"name": "Ellos", "players": ["Beto", "Dani"]},
]
HAND = {
    "end": "stock_out",
    "sides": [{"table_points": 120, "hand_points": 20}, {"table_points": 90, "hand_points": 10}],
}


def owned_match(app: Flask, **document: object) -> int:
    return create_stored_match(app, match_document(sides=SIDES, **document))


def make_link(owner: FlaskClient, match_id: int, kind: str) -> str:
    response = owner.post(f"/partidas/{match_id}/enlaces", data={"kind": kind, "on": "1"})
    assert response.status_code == 303
    page = owner.get(response.headers["Location"]).get_data(as_text=True)
    token = page.split("/enlace/", 2 if kind == "spectator" else 1)
    links = [part.split('"', 1)[0] for part in page.split("/enlace/")[1:]]
    assert links, token
    return links[0] if kind == "table" or len(links) == 1 else links[1]


def opened(app: Flask, token: str) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(f"/enlace/{token}").status_code == 303
    return phone


def test_a_table_link_lets_a_phone_without_an_account_score(app: Flask, client: FlaskClient):
    match_id = owned_match(app)
    token = make_link(client, match_id, "table")
    phone = opened(app, token)
    page = phone.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Anotar mano" in page
    assert "Abandonar" not in page  # the owner's
    assert record(phone, match_id, E1_FORM).headers["Location"] == f"/partidas/{match_id}"
    with app.app_context():
        assert db.session.get(Match, match_id).hand_count == 1
    welcome = phone.get("/").get_data(as_text=True)
    assert f"/partidas/{match_id}" in welcome  # the phone's home lists the opened match
    # Revoked: the phone is sent to sign in, and the old link is gone.
    client.post(f"/partidas/{match_id}/enlaces", data={"kind": "table", "on": "0"})
    assert phone.get(f"/partidas/{match_id}").status_code == 302
    assert app.test_client().get(f"/enlace/{token}").status_code == 404
    assert make_link(client, match_id, "table") != token


def test_a_spectator_link_only_reads(app: Flask, client: FlaskClient):
    match_id = owned_match(app)
    phone = opened(app, make_link(client, match_id, "spectator"))
    page = phone.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Nos" in page
    assert "Anotar mano" not in page
    assert "Deshacer" not in page
    assert phone.get(f"/partidas/{match_id}/planilla.pdf").status_code == 200
    assert phone.get(f"/partidas/{match_id}/manos/nueva").status_code == 302
    assert phone.post(f"/partidas/{match_id}/deshacer").status_code == 302


def test_a_table_link_reads_only_once_the_match_is_over(app: Flask, client: FlaskClient):
    match_id = owned_match(app, options={"target": 100})
    phone = opened(app, make_link(client, match_id, "table"))
    assert record(phone, match_id, E1_FORM).status_code in (302, 303)  # wins the match
    with app.app_context():
        assert db.session.get(Match, match_id).status == "finished"
    page = phone.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Anotar mano" not in page
    assert phone.get(f"/partidas/{match_id}/manos/1").status_code == 302
    refused = client.post(f"/partidas/{match_id}/enlaces", data={"kind": "table", "on": "1"})
    assert refused.status_code == 303  # with a message: no new table link for a finished match


def test_a_group_member_sees_the_match_and_its_players_and_not_the_rest(app: Flask):
    create_account(app, "Miembro")
    # With a hand each: the statistics count matches played.
    shared = owned_match(app, hands=[HAND])
    private = owned_match(app, title="Privada", hands=[HAND])
    owner = signed_in(app)
    created = owner.post("/grupos", data={"name": "Familia"})
    group_id = int(created.headers["Location"].rsplit("/", 1)[1])
    invited = owner.post(f"/grupos/{group_id}/invitaciones", data={"name": "miembro"})
    assert invited.status_code == 303
    assert owner.post(f"/partidas/{shared}/grupo", data={"group": str(group_id)}).status_code == 303
    member = signed_in(app, "Miembro")
    assert member.post(f"/grupos/{group_id}/aceptar").status_code == 303
    history = member.get("/historial").get_data(as_text=True)
    assert f"/partidas/{shared}" in history
    assert f"/partidas/{private}" not in history
    assert member.get(f"/partidas/{private}").status_code == 404
    assert "Ana" in member.get("/jugadores/").get_data(as_text=True)
    backup = member.get("/historial/copia.jsonl").get_data(as_text=True).splitlines()
    assert len(backup) == 2  # the header and the shared match
    with app.app_context():
        ana = services.queries.find_player(
            services.scope.Scope(services.accounts.find_account(OWNER).id), "Ana"
        )
        ana_id = ana.id
        member_id = services.accounts.find_account("Miembro").id
        owner_id = services.accounts.find_account(OWNER).id
    home = member.get("/").get_data(as_text=True)
    assert f"/partidas/{shared}" in home
    assert f"/partidas/{private}" not in home
    with app.app_context():
        # The member's statistics of Ana add up the shared match only; her owner's, both.
        for account, matches in ((member_id, [shared]), (owner_id, [shared, private])):
            found = statistics.kept_summaries(services.scope.Scope(account), [ana_id])
            assert list(found.keys) == matches
    seen = member.get(f"/jugadores/{ana_id}")
    assert seen.status_code == 200
    # Another account's player: its figures, but not the forms only its owner may use.
    assert "Cambiar nombre o fusionar" not in seen.get_data(as_text=True)
    assert "Cambiar nombre o fusionar" in owner.get(f"/jugadores/{ana_id}").get_data(as_text=True)
    assert member.post(f"/jugadores/{ana_id}/nombre", data={"name": "Otra"}).status_code == 404
    # Leaving the group: its matches are gone from the member's lists.
    left = member.post(f"/grupos/{group_id}/miembros/{member_id}/quitar")
    assert left.status_code == 303
    assert f"/partidas/{shared}" not in member.get("/historial").get_data(as_text=True)
    assert member.get(f"/partidas/{shared}").status_code == 404


def test_a_stranger_sees_nothing_of_another_account(app: Flask):
    create_account(app, "Otro")
    match_id = owned_match(app)
    stranger = signed_in(app, "Otro")
    for url in ("/", "/historial", "/jugadores/", "/historial/historial.csv"):
        assert "Carla" not in stranger.get(url).get_data(as_text=True), url
    assert stranger.get("/jugadores/sugerencias?q=an").get_json() == []
    assert len(stranger.get("/historial/copia.jsonl").get_data(as_text=True).splitlines()) == 1
    assert stranger.get(f"/partidas/{match_id}/exportar").status_code == 404


def test_a_restore_is_the_restoring_account_s_and_skips_only_its_own_copies(app: Flask):
    create_account(app, "Otro")
    owned_match(app)
    owner = signed_in(app)
    dump = owner.get("/historial/copia.jsonl").get_data()
    stranger = signed_in(app, "Otro")
    restored = stranger.post("/historial/restaurar", data={"copia": (io.BytesIO(dump), "c.jsonl")})
    assert "1 partida importada" in restored.get_data(as_text=True)
    again = stranger.post("/historial/restaurar", data={"copia": (io.BytesIO(dump), "c.jsonl")})
    assert "1 partida ya estaba" in again.get_data(as_text=True)
    mine = stranger.get("/historial/copia.jsonl").get_data(as_text=True).splitlines()
    assert json.loads(mine[1])["sides"][0]["players"] == ["Ana", "Carla"]
    assert "Ana" in stranger.get("/jugadores/sugerencias?q=an").get_data(as_text=True)


def test_a_link_that_is_no_token_is_a_404_before_any_query(app: Flask):
    phone = app.test_client()
    for token in ("%00" * 43, "a" * 42 + "%00", "ñ" * 43, "a" * 42 + "."):
        assert phone.get(f"/enlace/{token}").status_code == 404
