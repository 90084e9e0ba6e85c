"""Players: registry, suggestions, statistics pages, rename, merge, bad ids."""

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import OWNER
from stored import create_stored_match
from stored import match_document
from stored import player_id
from stored import rename
from stored import signed_in

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import Player
from anotador.storage.models import Seat


def store(app: Flask, sides: list[list[str]], **changes: Any) -> int:
    document = {
        "options": {"target": 1000},
        "sides": [{"name": " y ".join(players), "players": players} for players in sides],
        "hands": [
            {"end": "closed", "closer": 0, "sides": [
                {"clean": 1, "table_points": 400}, {"table_points": 100, "hand_points": 30}]},
        ],
        "played_on": "2024-05-01",
        **changes,
    }  # fmt: skip
    return create_stored_match(app, match_document(**document))


def test_suggestions_ignore_accents_and_case(app: Flask, client: FlaskClient):
    store(app, [["José Pérez", "Ana"], ["Josefina", "Raúl"]])
    assert client.get("/jugadores/sugerencias?q=Jose").json == ["José Pérez", "Josefina"]
    assert client.get("/jugadores/sugerencias?q=JOSÉ P").json == ["José Pérez"]
    assert client.get("/jugadores/sugerencias?q=perez").json == ["José Pérez"]
    assert client.get("/jugadores/sugerencias?q=raul").json == ["Raúl"]
    assert client.get("/jugadores/sugerencias?q=").json == []
    assert client.get("/jugadores/sugerencias?q=%25").json == []


def test_registry_lists_players_with_their_matches(app: Flask, client: FlaskClient):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    store(app, [["Ana", "Carla"], ["Beto", "Eva"]])
    page = client.get("/jugadores/")
    assert page.status_code == 200
    rows = re.findall(
        r"<span>([^<]+)</span> <span class=\"muted\">(\d+) partidas?</span>", page.text
    )
    assert rows == [("Ana", "2"), ("Beto", "2"), ("Carla", "2"), ("Dani", "1"), ("Eva", "1")]
    assert "Eva" not in client.get("/jugadores/?q=an").text


def test_the_registry_is_kept_and_shows_every_change_at_once(app: Flask, client: FlaskClient):
    """Kept under the account's counters: a warm registry counts no seats, and a new match,
    a renamed player (one without matches too) and a merge show on the next view."""
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    client.get("/jugadores/")
    with count_statements(app) as warm:
        assert ">Ana</span>" in client.get("/jugadores/").text
    assert not any("seat" in statement for statement in warm)
    store(app, [["Ana", "Carla"], ["Beto", "Eva"]])
    assert '>Eva</span> <span class="muted">1 partida<' in client.get("/jugadores/").text
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        assert owner is not None
        services.players.find_or_create_player("Sin Partidas", owner.id)
        db.session.commit()
    assert ">Sin Partidas</span>" in client.get("/jugadores/").text
    rename(app, "Sin Partidas", "Nadie Aún")
    page = client.get("/jugadores/").text
    assert ">Nadie Aún</span>" in page
    assert "Sin Partidas" not in page
    rename(app, "Eva", "Evita")
    assert '>Evita</span> <span class="muted">1 partida<' in client.get("/jugadores/").text


def test_player_page_shows_statistics_and_chart(app: Flask, client: FlaskClient):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    store(app, [["Carla", "Dani"], ["Ana", "Beto"]], played_on="2024-06-01")
    ana = player_id(app, "Ana")
    page = client.get(f"/jugadores/{ana}")
    assert page.status_code == 200
    # Won the first (1000), lost the second (70): 1070 points over 2 hands.
    assert "Porcentaje de victorias" in page.text or "Ganadas" in page.text
    assert ">535,0<" in page.text
    assert "<svg" in page.text
    assert "Beto" in page.text
    pair = client.get(f"/jugadores/{ana}/con/{player_id(app, 'Beto')}")
    assert pair.status_code == 200
    assert "Ana y Beto de compañeros" in pair.text
    versus = client.get(f"/jugadores/cara-a-cara?a={ana}&rival=carla")
    assert versus.status_code == 200
    assert re.search(r"<dd>1</dd>.*<dd>1</dd>", versus.text, re.S)


def test_statistics_pages_use_a_constant_number_of_statements(app: Flask, client: FlaskClient):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    ana, beto = player_id(app, "Ana"), player_id(app, "Beto")
    urls = [f"/jugadores/{ana}", f"/jugadores/{ana}/con/{beto}",
            f"/jugadores/cara-a-cara?a={ana}&b={beto}", "/jugadores/"]  # fmt: skip
    counts = []
    for _ in range(2):
        for url in urls:
            with count_statements(app) as statements:
                assert client.get(url).status_code == 200
            counts.append(len(statements))
        for number in range(12):
            store(app, [["Ana", "Beto"], ["Carla", f"Otro {number}"]], title=str(number))
    assert counts[:4] == counts[4:]
    assert max(counts) <= 9  # a drawn statistics page: its counters, the list, the figures


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/jugadores/999", 404),
        ("/jugadores/1/con/1", 404),
        ("/jugadores/1/con/999", 404),
        ("/jugadores/cara-a-cara", 404),
        ("/jugadores/cara-a-cara?a=1&b=1", 404),
        ("/jugadores/cara-a-cara?a=x&b=2", 404),
        ("/jugadores/cara-a-cara?a=1,2,3&b=4", 404),
        ("/jugadores/cara-a-cara?a=1&rival=nadie", 404),
        ("/jugadores/cara-a-cara?a=99999999999999999999&b=1", 404),
        ("/jugadores/1?desde=nunca", 400),
        ("/jugadores/1?variante=poker", 400),
        ("/jugadores/?despues=zzz", 200),
    ],
)
def test_bad_ids_and_filters_never_500(app: Flask, client: FlaskClient, url: str, status: int):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    response = client.get(url)
    assert response.status_code == status
    if status == 404 and "cara-a-cara" in url:
        assert "Elegí dos jugadores" in response.text


def test_rename(app: Flask, client: FlaskClient):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    ana = player_id(app, "Ana")
    response = client.post(f"/jugadores/{ana}/nombre", data={"name": "  Ana   María "})
    assert response.status_code == 302
    with app.app_context():
        player = db.session.get(Player, ana)
        assert (player.name, player.name_key) == ("Ana María", "ana maria")
        match = services.queries.load_match(1)
        assert match.content_hash == services.documents.content_hash(
            services.documents.match_document(match)
        )
    taken = client.post(f"/jugadores/{ana}/nombre", data={"name": "BETO"})
    assert taken.status_code == 400
    assert "Otro jugador ya tiene ese nombre" in taken.text
    assert 'value="BETO"' in taken.text  # what was typed stays in the form
    assert client.post(f"/jugadores/{ana}/nombre", data={"name": ""}).status_code == 400
    assert client.post(f"/jugadores/{ana}/nombre", data={"name": "x" * 61}).status_code == 400
    assert client.post("/jugadores/999/nombre", data={"name": "Zoe"}).status_code == 404


def test_rename_and_merge_have_their_own_page(app: Flask, client: FlaskClient):
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    ana = player_id(app, "Ana")
    stats = client.get(f"/jugadores/{ana}").get_data(as_text=True)
    assert f'href="/jugadores/{ana}/editar"' in stats
    assert 'name="name"' not in stats
    page = client.get(f"/jugadores/{ana}/editar")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f'action="/jugadores/{ana}/nombre"' in text
    assert f'action="/jugadores/{ana}/fusionar"' in text
    assert 'value="Ana"' in text
    assert client.get("/jugadores/999/editar").status_code == 404


def test_merge_keeps_every_match(app: Flask, client: FlaskClient):
    store(app, [["José Pérez", "Ana"], ["Carla", "Dani"]])
    store(app, [["Pepe", "Ana"], ["Carla", "Dani"]], played_on="2024-06-01")
    jose, pepe = player_id(app, "José Pérez"), player_id(app, "Pepe")
    refused = client.post(f"/jugadores/{jose}/fusionar", data={"other": "Pepe"})
    assert refused.status_code == 400  # the confirmation box was not ticked
    response = client.post(f"/jugadores/{jose}/fusionar", data={"other": "pepe", "confirm": "y"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.get(Player, pepe) is None
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 2
        seats = db.session.scalars(sa.select(Seat.player_id).where(Seat.player_id == jose))
        assert len(list(seats)) == 2
        exported = services.matches.export_document(services.queries.load_match(2))
        assert exported["sides"][0]["players"] == ["José Pérez", "Ana"]
    page = client.get(f"/jugadores/{jose}")
    assert re.search(r"Partidas</dt><dd>2</dd>", page.text)
    assert (
        client.post(
            f"/jugadores/{jose}/fusionar", data={"other": "José Pérez", "confirm": "y"}
        ).status_code
        == 400
    )
    assert (
        client.post(
            f"/jugadores/{jose}/fusionar", data={"other": "Nadie", "confirm": "y"}
        ).status_code
        == 400
    )


def test_forms_need_the_csrf_token(app_factory: Any):
    app = app_factory(WTF_CSRF_ENABLED=True)
    store(app, [["Ana", "Beto"], ["Carla", "Dani"]])
    response = signed_in(app).post("/jugadores/1/nombre", data={"name": "Zoe"})
    assert response.status_code == 400
    with app.app_context():
        assert db.session.get(Player, 1).name == "Ana"
