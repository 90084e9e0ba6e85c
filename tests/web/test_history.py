"""The history list: order, keyset pages, filters, search, downloads, bad input, queries."""

import json
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from stored import join_group
from stored import match_document
from stored import signed_in

from anotador import services
from anotador.commands import demo
from anotador.services.scope import EVERYTHING
from anotador.storage.database import db
from anotador.storage.models import Match


def store(app: Flask, owner: str | None = None, **changes: Any) -> int:
    document = {
        "sides": [
            {"name": "Los de José", "players": ["José Pérez", "Ana"]},
            {"name": "Rivales", "players": ["Carla", "Dani"]},
        ],
        "played_on": "2024-05-01",
        **changes,
    }
    return create_stored_match(app, match_document(**document), owner=owner)


def ids_in(page: bytes) -> list[int]:
    return [int(n) for n in re.findall(rb'class="h-match-link" href="/partidas/(\d+)"', page)]


@pytest.fixture
def seeded(app: Flask) -> list[int]:
    with app.app_context():
        return demo.seed(60, seed_value=7)


def newest_first(app: Flask) -> list[int]:
    with app.app_context():
        statement = sa.select(Match.id).order_by(Match.played_on.desc(), Match.id.desc())
        return list(db.session.scalars(statement))


def walk(client: FlaskClient) -> list[int]:
    """Every match the history lists, following its "older matches" link page by page."""
    seen: list[int] = []
    url = "/historial"
    while url:
        response = client.get(url)
        assert response.status_code == 200
        seen += ids_in(response.data)
        found = re.search(rb'rel="next" href="([^"]+)"', response.data)
        url = found.group(1).decode().replace("&amp;", "&") if found else ""
    return seen


def test_pages_walk_every_match_newest_first(app: Flask, client: FlaskClient, seeded: list[int]):
    seen = walk(client)
    assert seen == newest_first(app)
    assert len(seen) == 60


def test_keyset_cursor_jumps_to_any_page(app: Flask, seeded: list[int]):
    with app.app_context():
        cursor = services.queries.cursor_at(EVERYTHING, services.queries.Filters(), 50)
        page = services.queries.history_page(EVERYTHING, services.queries.Filters(), cursor)
        shown = [m.id for m in page.matches]
    assert shown == newest_first(app)[50:]
    assert page.next_cursor is None


def test_statements_do_not_grow_with_the_page(app: Flask, client: FlaskClient):
    store(app)
    with count_statements(app) as few:
        assert client.get("/historial?jugador=jose perez").status_code == 200
    with app.app_context():
        demo.seed(40)
    for _ in range(3):
        store(app)
    with count_statements(app) as many:
        assert client.get("/historial?jugador=jose perez").status_code == 200
    # The account, the player, the page's states, then its matches, sides and seats (a
    # list drawn before reads only the first three).
    assert len(few) == len(many) <= 6


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("jugador=jose perez", {"a", "b", "c"}),
        ("jugador=JOSÉ PÉREZ", {"a", "b", "c"}),
        ("q=jose", {"a", "b", "c"}),
        ("q=rival", {"a", "b"}),
        ("q=dani", {"a", "b"}),
        ("variante=classic", {"b"}),
        ("estado=abandoned", {"c"}),
        ("estado=ongoing", {"a", "b", "d"}),
        ("desde=2024-05-02", {"b", "c", "d"}),
        ("hasta=2024-05-02&desde=2024-05-02", {"b"}),
        ("q=nadie", set()),
    ],
)
def test_filters_and_search(app: Flask, client: FlaskClient, query: str, expected: set[str]):
    made = {
        "a": store(app, title="a"),
        "b": store(app, title="b", variant="classic", played_on="2024-05-02"),
        "c": store(app, title="c", played_on="2024-06-01", abandoned=True,
                   sides=[{"name": "Uno", "players": ["josé pérez"]},
                          {"name": "Dos", "players": ["Elena"]}], layout="2p"),
        "d": store(app, title="d", played_on="2024-07-01",
                   sides=[{"name": "X", "players": ["Elena"]}, {"name": "Y", "players": []}],
                   layout="2p"),
    }  # fmt: skip
    response = client.get(f"/historial?{query}")
    assert response.status_code == 200
    names = {name for name, match_id in made.items() if match_id in ids_in(response.data)}
    assert names == expected
    if not expected:
        assert "Ninguna partida coincide con estos filtros." in response.text


def test_unknown_player_is_a_message_not_an_error(client: FlaskClient):
    response = client.get("/historial?jugador=Nadie")
    assert response.status_code == 200
    assert "Nadie" in response.text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("desde=ayer", "no es una fecha"),
        ("hasta=2024-13-01", "no es una fecha"),
        ("variante=poker", "No hay ninguna variante"),
        ("estado=perdida", "No hay ningún estado"),
        ("desde=2024-02-01&hasta=2024-01-01", "posterior"),
        ("despues=basura", "Esa página no existe"),
        ("q=" + "x" * 61, "como máximo"),
    ],
)
def test_bad_filters_are_a_clear_400_in_spanish(client: FlaskClient, query: str, message: str):
    response = client.get(f"/historial?{query}")
    assert response.status_code == 400
    assert message in response.text


def test_downloads_stream_backup_and_csv(app: Flask, client: FlaskClient):
    match_id = store(app)
    backup = client.get("/historial/copia.jsonl")
    assert backup.status_code == 200
    assert "attachment" in backup.headers["Content-Disposition"]
    lines = backup.text.splitlines()
    assert json.loads(lines[0])["format"] == "anotador-backup/1"
    with app.app_context():
        assert json.loads(lines[1]) == services.matches.export_document(
            services.queries.load_match(match_id)
        )
    table = client.get("/historial/historial.csv")
    assert table.mimetype == "text/csv"
    assert "Los de José" in table.text


def test_empty_history(client: FlaskClient):
    response = client.get("/historial")
    assert response.status_code == 200
    assert "Todavía no hay partidas." in response.text


def test_an_accounts_history_pages_its_own_and_its_groups_matches_only(app: Flask):
    create_account(app, "Otra")
    create_account(app, "Miembro")
    own = [store(app, played_on=f"2024-05-{day % 28 + 1:02d}") for day in range(27)]
    theirs = store(app, owner="Otra")
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        group = services.groups.create_group(owner.id, "Familia")
        join_group(group, "Miembro")
        shared = db.session.get(Match, own[3])
        assert services.sharing.set_group(shared, owner.id, group.id)
        db.session.remove()
    expected = [match_id for match_id in newest_first(app) if match_id != theirs]
    assert walk(signed_in(app, OWNER)) == expected
    assert walk(signed_in(app, "Otra")) == [theirs]
    assert walk(signed_in(app, "Miembro")) == [own[3]]


def test_the_filters_show_what_each_address_asks_for(app: Flask, client: FlaskClient):
    """The filters are drawn once per filters and language (templating.shared_fragment):
    a page never shows another address's values."""
    store(app)

    def filters_of(query: str) -> str:
        page = client.get(f"/historial{query}").get_data(as_text=True)
        return page[page.index('<details class="h-filters"') : page.index("</details>")]

    searched = filters_of("?q=jos%C3%A9&estado=finished")
    assert searched.startswith('<details class="h-filters" open>')
    assert 'value="josé"' in searched
    assert '<option value="finished" selected>' in searched
    plain = filters_of("")
    assert plain.startswith('<details class="h-filters">')
    assert 'value="josé"' not in plain
    assert " selected>" not in plain
    refused = filters_of("?desde=2024-05-02&hasta=2024-05-01")
    assert refused.startswith('<details class="h-filters" open>')
    assert filters_of("?q=jos%C3%A9&estado=finished") == searched


def test_the_restore_form_sends_this_sessions_token(client: FlaskClient):
    page = client.get("/historial").get_data(as_text=True)
    assert '<form class="h-restore" id="restore-form"' in page
    assert re.search(r'name="csrf_token" value="[^"]+" form="restore-form"', page)
