"""Issue 13, items 4 to 6: what the planilla and the hand form show the person scoring."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from stored import MakeMatch

from anotador import services

SIDES = [
    {"name": "Nos", "players": ["Ana", "Carla"]},
    {"name": "Ellos", "players": ["Beto", "Dani"]},
]
HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [
        {"clean": 1, "dirty": 0, "table_points": 300, "hand_points": 0, "red_threes": 0},
        {"clean": 0, "dirty": 0, "table_points": 100, "hand_points": 40, "red_threes": 0},
    ],
}


def spectator(app: Flask, match_id: int) -> FlaskClient:
    with app.app_context():
        match = services.queries.load_match(match_id)
        token = services.sharing.set_link(match, "spectator", True)
    phone = app.test_client()
    assert phone.get(f"/enlace/{token}").status_code == 303
    return phone


def rows(html: str) -> list[str]:
    return re.findall(
        r'<details class="hand[^"]*" id="mano-\d+">\s*<summary.*?</summary>', html, re.S
    )


def test_a_scorer_sees_that_each_row_opens_its_breakdown_and_edit(
    app: Flask, client: FlaskClient, make_match: MakeMatch
) -> None:
    match_id = make_match(layout="4p", sides=SIDES, hands=[HAND, HAND])
    html = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    found = rows(html)
    assert len(found) == 2
    for row in found:
        assert "is-editable" in row
        assert 'class="row-opens" aria-hidden="true"' in row
    assert "Tocá una mano para ver el detalle y corregirla." in html
    watching = spectator(app, match_id).get(f"/partidas/{match_id}").get_data(as_text=True)
    assert len(rows(watching)) == 2
    assert "row-opens" not in watching
    assert "is-editable" not in watching
    assert "Tocá una mano" not in watching
