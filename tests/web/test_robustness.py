"""Garbage sent to every form and route of the hand flow (and the matches pages, where they
exist): never a 500, always a clear refusal or the form again with its error, and the
database exactly as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from stored import snapshot
from werkzeug.exceptions import NotFound

from anotador import services
from anotador.rules import VARIANTS

BLUEPRINTS = ("hands", "matches")
# Every per-side input of every variant: most of them belong to another variant.
ALL_SIDE_FIELDS = sorted({spec.name for v in VARIANTS.values() for spec in v.side_fields})
CARDS = ("joker", "two", "ace", "eight_to_king", "four_to_seven", "three_to_seven", "black_three")


def every_field(value: str, sides: int = 3) -> dict[str, str]:
    fields = {f"s{i}_{name}": value for i in range(sides) for name in ALL_SIDE_FIELDS}
    fields |= {f"s{i}_{w}_{card}": value for i in range(sides) for w in "th" for card in CARDS}
    return fields


HUGE = str(10**30)
GARBAGE: dict[str, dict[str, str]] = {
    "missing fields": {},
    "text in numbers": {"closer": "0", **every_field("muchos")},
    "negatives": {"closer": "0", "version": "-1", **every_field("-5")},
    "huge numbers": {"closer": "0", "version": HUGE, "request_key": "k" * 500, **every_field(HUGE)},
    "closer out of range": {"closer": "7", "s0_table_points": "100"},
    "closer as text": {"closer": "<script>", "concealed": "quizás", "concealed_kind": "x"},
    "fields of another variant": {
        "s0_pure": "2",
        "s0_limpia": "1",
        "s0_muerto": "taken",
        "s1_six_jokers": "1",
    },
    "bad actions": {"action": "calc:s99", "closer": "0"},
    "unknown action": {"action": "borrar-todo"},
    "huge text": {"closer": "none", "note": "x" * 5000, "s0_adjustment_note": "y" * 5000},
    "confirm with a bad version": {"confirm": "1", "version": "abc"},
    "confirm with a huge version": {"confirm": "1", "version": HUGE},
    "match form garbage": {
        "variant": "mac",
        "layout": "9p",
        "target": HUGE,
        "decks": "7",
        "side_0": "",
        "start_0": "abc",
    },
}


def new_match(app: Flask, variant: str = "uruguaya", hands: int = 2) -> int:
    hand = {"end": "stock_out", "closer": None, "sides": [{"table_points": 100}, {}]}
    return create_stored_match(app, match_document(variant, hands=[hand] * hands))


def post_routes(app: Flask) -> Iterator[tuple[str, str]]:
    """(endpoint, url) for every POST route of the blueprints under test."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] in BLUEPRINTS and "POST" in (rule.methods or ()):
            yield rule.endpoint, rule.rule


def url_for_rule(rule: str, match_id: int | str, number: int | str = 1) -> str:
    return rule.replace("<id:match_id>", str(match_id)).replace("<int:number>", str(number))


@pytest.fixture
def table(app_factory) -> tuple[Flask, FlaskClient, int]:
    app = app_factory()
    new_match(app, "canastone", hands=0)
    match_id = new_match(app)
    return app, signed_in(app), match_id


def assert_clear_refusal(response, where: str) -> None:
    endpoint = where.split()[0]
    page = response.get_data(as_text=True)
    assert response.status_code < 500, where
    if response.status_code == 200 and endpoint in ("hands.new", "hands.edit"):
        assert 'class="msg error"' in page or 'role="alert"' in page, page[:2000]
    if response.status_code == 200 and endpoint == "hands.preview":
        assert response.get_json()["ok"] is False


def test_post_routes_are_found(app: Flask):
    endpoints = {endpoint for endpoint, _ in post_routes(app)}
    assert {"hands.new", "hands.edit", "hands.delete", "hands.undo", "hands.preview"} <= endpoints


@pytest.mark.parametrize("garbage", GARBAGE, ids=list(GARBAGE))
def test_garbage_to_every_post_route(table, garbage: str):
    app, client, match_id = table
    before = snapshot(app)
    for endpoint, rule in post_routes(app):
        for url in (url_for_rule(rule, match_id), url_for_rule(rule, match_id, 2)):
            response = client.post(url, data=GARBAGE[garbage])
            assert_clear_refusal(response, f"{endpoint} {url}")
            assert snapshot(app) == before, (endpoint, url)


def test_ids_that_do_not_exist(table):
    app, client, match_id = table
    before = snapshot(app)
    for endpoint, rule in post_routes(app):
        if "<id:match_id>" not in rule:
            continue
        cases = [(999999, 1), (2**40, 1)]
        if "<int:number>" in rule:
            cases += [(match_id, 99), (match_id, 0)]
        for match, number in cases:
            url = url_for_rule(rule, match, number)
            response = client.post(url, data={"confirm": "1", "version": "2", "closer": "none"})
            assert response.status_code == 404, (endpoint, url)
            try:
                methods = app.url_map.bind("").match(url, "POST", return_rule=True)[0].methods
            except NotFound:  # an id no database integer holds is refused at routing
                continue
            if "GET" in methods:
                assert client.get(url).status_code == 404
    assert snapshot(app) == before


def test_wrong_methods(table):
    app, client, match_id = table
    before = snapshot(app)
    for endpoint, rule in post_routes(app):
        url = url_for_rule(rule, match_id)
        for method in ("PUT", "DELETE", "PATCH"):
            assert client.open(url, method=method).status_code == 405, (endpoint, method)
    for endpoint in ("delete", "undo", "preview"):
        rule = next(r for e, r in post_routes(app) if e == f"hands.{endpoint}")
        assert client.get(url_for_rule(rule, match_id)).status_code == 405
    assert snapshot(app) == before


def test_no_csrf_token_is_refused(app_factory):
    app = app_factory(WTF_CSRF_ENABLED=True, PROPAGATE_EXCEPTIONS=False)
    match_id = new_match(app)
    client = signed_in(app)
    before = snapshot(app)
    valid_hand = {"closer": "none", "s0_table_points": "100", "version": "2", "confirm": "1"}
    for endpoint, rule in post_routes(app):
        response = client.post(url_for_rule(rule, match_id), data=valid_hand)
        assert response.status_code == 400, endpoint
        forged = client.post(url_for_rule(rule, match_id), data={**valid_hand, "csrf_token": "x"})
        assert forged.status_code == 400, endpoint
    assert snapshot(app) == before


def test_with_csrf_token_the_real_form_saves(app_factory):
    """The CSRF check is on for real: the rendered form's token lets the hand through."""
    import re

    app = app_factory(WTF_CSRF_ENABLED=True)
    match_id = new_match(app)
    client = signed_in(app)
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    fields = dict(
        re.findall(r'name="(csrf_token|request_key|version)" type="hidden" value="([^"]+)"', page)
    )
    assert set(fields) == {"csrf_token", "request_key", "version"}

    response = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**fields, "closer": "none", "s0_table_points": "100"},
    )

    assert response.status_code == 302
    with app.app_context():
        assert services.queries.load_match(match_id).hand_count == 3
