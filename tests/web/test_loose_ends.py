"""Issue 13, item 7: the blank sheet's links, the home import's duplicates, the icon and the
rematch at the end of a match."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import BIG_HAND
from stored import OWNER
from stored import TWO_PAIRS
from stored import MakeMatch
from stored import create_account
from stored import match_document
from stored import signed_in

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Match


def links(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


def matches_of(app: Flask) -> list[Match]:
    with app.app_context():
        rows = list(db.session.scalars(db.select(Match).order_by(Match.id)))
        db.session.expunge_all()
        return rows


# The blank sheet


def test_the_home_page_and_the_match_page_link_to_the_blank_sheet(
    client: FlaskClient, make_match: MakeMatch
) -> None:
    home = client.get("/").get_data(as_text=True)
    assert "/planillas/en-blanco" in links(home)
    sides = [{"name": "Nos"}, {"name": "Ellos"}, {"name": "Aquellos"}]
    match_id = make_match("canastone", layout="6p-3x2", sides=sides)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    blank = [link for link in links(page) if link.startswith("/planillas/en-blanco")]
    assert blank == ["/planillas/en-blanco?variante=canastone&amp;disposicion=6p-3x2"]
    assert client.get(blank[0].replace("&amp;", "&")).mimetype == "application/pdf"


@pytest.mark.parametrize("visitor", ["client", "anonymous"])
def test_the_blank_sheet_forms_language_links_work(
    visitor: str, request: pytest.FixtureRequest
) -> None:
    browser: FlaskClient = request.getfixturevalue(visitor)
    html = browser.get("/planillas/en-blanco").get_data(as_text=True)
    nav = html[html.index('class="languages"') : html.index("</nav>")]
    assert "(" not in nav  # no Python tuple printed
    switches = [link for link in links(nav) if link.startswith("/idioma/")]
    assert len(switches) == 2
    for link in switches:
        response = browser.get(link.replace("&amp;", "&"))
        assert response.status_code == 303
        assert response.headers["Location"].endswith("/planillas/en-blanco")
    assert browser.get(switches[0].replace("&amp;", "&"), follow_redirects=True).status_code == 200


# The home page's import


def upload(client: FlaskClient, document: dict[str, Any]) -> Any:
    data = {"file": (io.BytesIO(json.dumps(document).encode()), "partida.json")}
    return client.post("/partidas/importar", data=data)


def test_importing_a_match_twice_from_home_keeps_one(app: Flask, client: FlaskClient) -> None:
    document = match_document(
        layout="4p", sides=TWO_PAIRS, hands=[BIG_HAND], played_on="2025-05-01"
    )
    first = upload(client, document)
    assert first.status_code == 303
    assert len(matches_of(app)) == 1
    again = upload(client, document)
    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "Ya tenés esta partida: no se importó de nuevo." in page
    assert len(matches_of(app)) == 1
    # A different match (another hand) is imported.
    assert upload(client, {**document, "hands": [BIG_HAND, BIG_HAND]}).status_code == 303
    assert len(matches_of(app)) == 2


def test_the_same_file_is_new_to_another_account(app: Flask, client: FlaskClient) -> None:
    document = match_document(
        layout="4p", sides=TWO_PAIRS, hands=[BIG_HAND], played_on="2025-05-01"
    )
    assert upload(client, document).status_code == 303
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    response = upload(other, document)
    assert response.status_code == 303
    assert "Ya tenés" not in other.get(response.headers["Location"]).get_data(as_text=True)
    owners = {match.owner_id for match in matches_of(app)}
    assert len(matches_of(app)) == 2
    assert len(owners) == 2


# The icon


def test_the_icon_is_served_and_linked(client: FlaskClient, anonymous: FlaskClient) -> None:
    icon = anonymous.get("/favicon.ico")
    data = icon.data
    icon.close()
    assert icon.status_code == 200
    assert data[:4] == b"\x00\x00\x01\x00"  # an ICO file
    for page in (client.get("/"), anonymous.get("/"), anonymous.get("/planillas/en-blanco")):
        html = page.get_data(as_text=True)
        (linked,) = re.findall(r'<link rel="icon" href="([^"]+)"', html)
        static = anonymous.get(linked)
        assert static.data == data
        static.close()


# The rematch


def finished(make_match: MakeMatch, **keys: Any) -> int:
    return make_match(
        layout="4p",
        sides=TWO_PAIRS,
        hands=[BIG_HAND, BIG_HAND],
        options={"target": 5000, "red_threes_need_canasta": True},
        title="Final",
        first_dealer=2,
        **keys,
    )


def test_a_finished_match_offers_a_rematch_with_the_same_sides_and_options(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    match_id = finished(make_match)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert f'action="/partidas/{match_id}/revancha"' in page
    assert 'form="rematch-form"' in page  # its CSRF token
    response = client.post(f"/partidas/{match_id}/revancha")
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    old, new = (m for m in matches_of(app) if m.id in (match_id, new_id))
    assert old.status == "finished"
    assert (new.variant, new.layout, new.settings) == (old.variant, old.layout, old.settings)
    assert (new.owner_id, new.first_dealer, new.hand_count) == (old.owner_id, 2, 0)
    assert new.status == "ongoing"
    assert list(new.totals) == [0, 0]
    with app.app_context():
        document = services.documents.match_document(services.queries.load_match(new_id))
    assert document["sides"] == TWO_PAIRS
    assert document["options"]["red_threes_need_canasta"] is True
    assert "title" not in document
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Revancha: los mismos equipos, desde cero." in shown


def test_an_abandoned_match_offers_a_rematch_an_ongoing_one_does_not(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    ongoing = make_match(layout="4p", sides=TWO_PAIRS, hands=[BIG_HAND])
    assert "/revancha" not in client.get(f"/partidas/{ongoing}").get_data(as_text=True)
    assert client.post(f"/partidas/{ongoing}/revancha").status_code == 303
    assert len(matches_of(app)) == 1
    abandoned = make_match(layout="4p", sides=TWO_PAIRS, hands=[BIG_HAND], abandoned=True)
    assert "/revancha" in client.get(f"/partidas/{abandoned}").get_data(as_text=True)
    assert client.post(f"/partidas/{abandoned}/revancha").status_code == 303
    assert len(matches_of(app)) == 3


def test_only_the_owner_gets_a_rematch(
    app: Flask, make_match: MakeMatch, anonymous: FlaskClient
) -> None:
    match_id = finished(make_match)
    create_account(app, "Otra")
    assert signed_in(app, "Otra").post(f"/partidas/{match_id}/revancha").status_code == 404
    assert anonymous.post(f"/partidas/{match_id}/revancha").status_code in (302, 303)
    assert len(matches_of(app)) == 1
    assert signed_in(app, OWNER).post(f"/partidas/{match_id}/revancha").status_code == 303


def test_the_rematch_needs_the_csrf_token(app_factory: Any, make_match: MakeMatch) -> None:
    app = app_factory(WTF_CSRF_ENABLED=True)
    from stored import create_stored_match

    match_id = create_stored_match(app, match_document(layout="4p", hands=[BIG_HAND, BIG_HAND]))
    owner = signed_in(app, OWNER)
    assert owner.post(f"/partidas/{match_id}/revancha").status_code == 400
    page = owner.get(f"/partidas/{match_id}").get_data(as_text=True)
    (token,) = set(re.findall(r'name="csrf_token" value="([^"]+)" form="rematch-form"', page))
    response = owner.post(f"/partidas/{match_id}/revancha", data={"csrf_token": token})
    assert response.status_code == 303


def test_the_readme_says_un_modulo() -> None:
    from anotador.storage.config import PROJECT_ROOT

    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert "una módulo" not in readme
    assert "un módulo por variante" in readme
