"""Issue 13, item 3 through the test client: a failed save reports every problem at once,
each once and beside its field, with a summary linking to each field; the preview says what
stops it; a stray minus gets a hint."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import MakeMatch

from anotador.web import inputs

WRONG = {"closer": "0", "s0_clean": "1", "s0_table_points": "33", "s0_red_threes": "9"}
MULTIPLE = "Tiene que ser múltiplo de 5."
RED_THREES = "Como máximo 4 treses rojos con 2 mazos."
MINUS = "Tiene que estar entre 0 y 20000: sin el signo menos."


def fresh(client: FlaskClient, match_id: int) -> dict[str, str]:
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', page)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert key
    assert version
    return {"request_key": key[1], "version": version[1]}


def field_block(page: str, name: str) -> str:
    start = page.index(f'id="f-{name}"')
    end = page.find('id="f-', start + 5)
    return page[start : end if end > 0 else None]


@pytest.mark.parametrize("hand_points", ["", "−60"])
def test_a_failed_save_reports_every_problem_once_beside_its_field(
    client: FlaskClient, make_match: MakeMatch, hand_points: str
) -> None:
    match_id = make_match()
    data = {**fresh(client, match_id), **WRONG, "s1_hand_points": hand_points}
    response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    expected = {"s0_table_points": MULTIPLE, "s0_red_threes": RED_THREES}
    if hand_points:
        expected["s1_hand_points"] = MINUS
    for name, message in expected.items():
        assert page.count(message) == 1, message
        assert message in field_block(page, name)
    summary = page[page.index('id="problemas"') : page.index("</ul>", page.index('id="problemas"'))]
    assert re.findall(r'href="#([^"]+)"', summary) == list(expected)
    assert 'tabindex="-1"' in summary.split(">")[0]


def test_the_preview_names_every_field_that_stops_it(
    client: FlaskClient, make_match: MakeMatch
) -> None:
    match_id = make_match()
    result = client.post(f"/partidas/{match_id}/manos/vista-previa", data=WRONG).get_json()
    assert result["ok"] is False
    assert [(p["field"], p["target"], p["label"], p["message"]) for p in result["problems"]] == [
        ("s0_table_points", "s0_table_points", "Nosotros · Puntos en mesa", MULTIPLE),
        ("s0_red_threes", "s0_red_threes", "Nosotros · Treses rojos", RED_THREES),
    ]


def test_a_side_with_an_unreadable_value_gets_no_misleading_problem(
    client: FlaskClient, make_match: MakeMatch
) -> None:
    """Its table points unread, the engine would say the side never opened: held back."""
    match_id = make_match()
    data = {"closer": "0", "s0_clean": "1", "s0_table_points": "mucho", "s1_red_threes": "9"}
    result = client.post(f"/partidas/{match_id}/manos/vista-previa", data=data).get_json()
    assert [p["field"] for p in result["problems"]] == ["s0_table_points", "s1_red_threes"]


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("es", MINUS),
        ("en", "Must be between 0 and 20000: without the minus sign."),
        ("it", "Deve essere tra 0 e 20000: senza il segno meno."),
    ],
)
def test_a_minus_in_a_points_field_gets_a_hint(app: Flask, lang: str, message: str) -> None:
    with (
        app.test_request_context(headers={"Accept-Language": lang}),
        pytest.raises(inputs.BadInput) as refused,
    ):
        inputs.integer("−60", 0, 20000)
    assert refused.value.message == message
