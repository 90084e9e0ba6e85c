"""Who may reach what: every route of the URL map × every kind of visitor.

Each visitor has a world of its own (a match of the owner's, shared with a group of which
``Miembro`` is a member, with a table link and a spectator link), so what one visitor's
request changes cannot change what the next one gets. A route missing from ``EXPECTED``
fails: a new route must say who may use it.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import OWNER
from stored import create_account
from stored import create_stored_match
from stored import join_group
from stored import match_document
from stored import signed_in

from anotador import create_app
from anotador import services
from anotador.storage.database import db
from anotador.tournaments.operations import rounds as tournament_rounds
from anotador.tournaments.operations import service as tournament_service
from anotador.tournaments.operations.service import SetUp
from anotador.tournaments.store.models import Tournament
from anotador.web.views.engine import rules_bundle

#: The visitors, in the order of each EXPECTED string.
VISITORS = ("anonymous", "other", "member", "table", "spectator", "owner")
#: A: allowed (the view answers, whatever it says); N: 404; S: sent to sign in.
EXPECTED = {
    "accounts.change_password": "SAASSA",
    "accounts.delete": "SAASSA",
    "accounts.show": "SAASSA",
    "accounts.sign_in": "AAAAAA",
    "accounts.sign_out": "AAAAAA",
    "accounts.sign_out_others": "SAASSA",
    "accounts.sign_up": "AAAAAA",
    "groups.accept": "SANSSN",
    "groups.decline": "SANSSN",
    "groups.delete": "SNNSSA",
    "groups.index": "SAASSA",
    "groups.invite": "SNNSSA",
    "groups.remove_member": "SNASSA",
    "groups.show": "SNASSA",
    "groups.withdraw": "SNNSSA",
    "hands.delete": "SNNASA",
    "hands.edit": "SNNASA",
    "hands.new": "SNNASA",
    "hands.preview": "SNNASA",
    "hands.undo": "SNNASA",
    "history.download_backup": "SAASSA",
    "history.download_csv": "SAASSA",
    "history.index": "SAASSA",
    "history.restore": "SAASSA",
    "engine.rules_zip": "AAAAAA",
    "engine.worker": "AAAAAA",
    "live.version": "SNAAAA",
    "main.favicon": "AAAAAA",
    "main.healthz": "AAAAAA",
    "main.readyz": "AAAAAA",
    "main.set_language": "AAAAAA",
    "offline.fallback": "AAAAAA",
    "offline.manifest": "AAAAAA",
    "offline.service_worker": "AAAAAA",
    "outbox.send": "SNNASA",
    "outbox.token": "SNNASA",
    "matches.abandon": "SNNSSA",
    "matches.export": "SNAAAA",
    "matches.import_match": "SAASSA",
    "matches.index": "AAAAAA",
    "matches.new": "SAASSA",
    "matches.rematch": "SNNSSA",
    "matches.show": "SNAAAA",
    "pdf.blank_sheet": "AAAAAA",
    "pdf.match_sheet": "SNAAAA",
    "pdf.sheet_of_state": "SNAAAA",
    "players.head_to_head": "SNASSA",
    "players.index": "SAASSA",
    "players.manage": "SNNSSA",
    "players.merge": "SNNSSA",
    "players.pair": "SNASSA",
    "players.rename": "SNNSSA",
    "players.set_membership": "SNNSSA",
    "players.show": "SNASSA",
    "players.suggestions": "SAASSA",
    "ratings.index": "SAASSA",
    "sharing.follow_rematch": "SNAAAA",
    "sharing.open_link": "AAAAAA",
    "sharing.set_group": "SNNSSA",
    "sharing.set_link": "SNNSSA",
    "sharing.show": "SNNSSA",
    "static": "AAAAAA",
    # The director's (the owner's); by a tournament's spectator link, not a match's.
    "tournaments.add_pair": "SNNSSA",
    "tournaments.add_to_clock": "SNNSSA",
    "tournaments.answer_call": "SNNSSA",
    "tournaments.board": "SNNSSA",
    "tournaments.board_shared": "NNNNNN",
    # The world's match is no tournament table: even a phone that may score it finds none.
    "tournaments.call_director": "SNNNNN",
    "tournaments.close_round": "SNNSSA",
    "tournaments.confirm_by_director": "SNNSSA",
    # The world's match is no tournament table: even a phone that may score it finds none.
    "tournaments.confirm_by_pair": "SNNNNN",
    "tournaments.draw": "SNNSSA",
    "tournaments.finish": "SNNSSA",
    "tournaments.index": "SAASSA",
    "tournaments.reopen": "SNNSSA",
    "tournaments.reopen_round": "SNNSSA",
    "tournaments.rename_pair": "SNNSSA",
    "tournaments.result": "SNNSSA",
    "tournaments.night": "SNNSSA",
    "tournaments.night_shared": "NNNNNN",
    "tournaments.nights": "SNNSSA",
    "tournaments.nights_shared": "NNNNNN",
    "tournaments.pair_page": "SNNSSA",
    "tournaments.pair_page_shared": "NNNNNN",
    "tournaments.results_csv": "SNNSSA",
    "tournaments.results_csv_shared": "NNNNNN",
    "tournaments.round_page": "SNNSSA",
    "tournaments.round_pdf": "SNNSSA",
    "tournaments.round_tables": "SNNSSA",
    "tournaments.round_pdf_shared": "NNNNNN",
    "tournaments.set_link": "SNNSSA",
    "tournaments.show": "SNNSSA",
    "tournaments.standings": "SNNSSA",
    "tournaments.standings_csv": "SNNSSA",
    "tournaments.standings_csv_shared": "NNNNNN",
    "tournaments.standings_json": "SNNSSA",
    "tournaments.standings_pdf": "SNNSSA",
    "tournaments.standings_pdf_shared": "NNNNNN",
    "tournaments.standings_json_shared": "NNNNNN",
    "tournaments.standings_shared": "NNNNNN",
    "tournaments.start_clock": "SNNSSA",
    "tournaments.start_round": "SNNSSA",
    "tournaments.stop_clock": "SNNSSA",
    "tournaments.swap": "SNNSSA",
    "tournaments.table_cards": "SNNSSA",
    "tournaments.tournament_file": "SNNSSA",
    "tournaments.tournament_file_shared": "NNNNNN",
    "tournaments.version": "SNNSSA",
    "tournaments.version_shared": "NNNNNN",
    "tournaments.withdraw": "SNNSSA",
}
QUERIES = {"players.head_to_head": "?a={first_id}&b={second_id}"}


def url_map_routes() -> list[tuple[str, str, str]]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path="/tmp/anotador-map")
    return sorted(
        (rule.endpoint, method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    )


ROUTES = url_map_routes()


def test_every_route_has_an_entry():
    assert sorted({endpoint for endpoint, _, _ in ROUTES}) == sorted(EXPECTED)


@dataclass
class World:
    """One visitor's copy of everything a route may name."""

    values: dict[str, str]
    table: str
    spectator: str


def make_world(app: Flask, index: int) -> World:
    players = [f"Ana {index}", f"Beto {index}", f"Carla {index}", f"Dani {index}"]
    sides = [{"name": "Nos", "players": players[::2]}, {"name": "Ellos", "players": players[1::2]}]
    side = {"clean": 0, "dirty": 0, "table_points": 50, "hand_points": 40, "red_threes": 0}
    hands = [{"end": "stock_out", "sides": [side, side]}]
    match_id = create_stored_match(app, match_document(sides=sides, hands=hands))
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        group = services.groups.create_group(owner.id, f"Familia {index}")
        member = join_group(group, "Miembro")
        # "Otro" is only invited: the group's match stays out of its reach.
        invited = services.groups.invite(group, owner.id, "Otro")
        match = services.queries.load_match(match_id)
        table = services.sharing.set_link(match, "table", True)
        spectator = services.sharing.set_link(match, "spectator", True)
        assert services.sharing.set_group(match, owner.id, group.id)
        ana = services.queries.find_player(services.scope.Scope(owner.id), players[0])
        carla = services.queries.find_player(services.scope.Scope(owner.id), players[2])
        values = {
            "match_id": str(match_id),
            "number": "1",
            "group_id": str(group.id),
            "user_id": str(member.id),
            "invitee_id": str(invited.id),
            "player_id": str(ana.id),
            "first_id": str(ana.id),
            "second_id": str(carla.id),
            "token": table,
            "lang": "es",
            "filename": "css/app.css",
            "digest": rules_bundle()[0],
            # Not this match's sheet: whoever may read the match is sent to its sheet.
            "key": "0" * 64,
        }
        values.update(tournament_values(owner.id, index))
        db.session.remove()
    return World(values, table, spectator)


def tournament_values(owner_id: int, index: int) -> dict[str, str]:
    """A tournament of the owner's with round 1 being played (in an app context)."""
    setup = SetUp(
        f"Torneo {index}", datetime.date(2026, 12, 3), "burraco", {}, 3, "fibur-3", "danese", 3
    )
    made = tournament_service.create_tournament(owner_id, setup)
    assert isinstance(made, Tournament)
    for first, second in ((f"Eva {index}", f"Fede {index}"), (f"Gabi {index}", f"Hugo {index}")):
        tournament_service.add_pair(made, owner_id, first, second)
    round_row = tournament_rounds.draw_round(made, owner_id)
    tournament_rounds.start_round(round_row, owner_id)
    return {
        "tournament_id": str(made.id),
        "pair_id": str(made.pairs[0].id),
        "table_id": str(round_row.tables[0].id),
    }


def visitor(app: Flask, kind: str, world: World) -> FlaskClient:
    if kind == "owner":
        return signed_in(app, OWNER)
    if kind == "other":
        return signed_in(app, "Otro")
    if kind == "member":
        return signed_in(app, "Miembro")
    client = app.test_client()
    if kind in ("table", "spectator"):
        token = world.table if kind == "table" else world.spectator
        assert client.get(f"/enlace/{token}").status_code == 303
    return client


def outcome(response: Any) -> str:
    response.close()
    assert response.status_code < 500
    if response.status_code == 404:
        return "N"
    location = response.headers.get("Location", "")
    if response.status_code in (301, 302, 303) and "/cuenta/entrar" in location:
        return "S"
    return "A"


def path_of(rule: str, values: dict[str, str]) -> str:
    return re.sub(r"<(?:[^:>]+:)?(\w+)>", lambda m: values[m.group(1)], rule)


@pytest.mark.parametrize(
    ("endpoint", "method", "rule"), ROUTES, ids=[f"{m} {r}" for _, m, r in ROUTES]
)
def test_who_reaches_the_route(app: Flask, endpoint: str, method: str, rule: str):
    create_account(app, "Otro")
    create_account(app, "Miembro")
    worlds = [make_world(app, index) for index in range(len(VISITORS))]
    got = ""
    for kind, world in zip(VISITORS, worlds, strict=True):
        url = path_of(rule, world.values) + QUERIES.get(endpoint, "").format(**world.values)
        got += outcome(visitor(app, kind, world).open(url, method=method))
    assert got == EXPECTED[endpoint], dict(zip(VISITORS, got, strict=True))


MATCH_ROUTES = [route for route in ROUTES if "<id:match_id>" in route[2]]


@pytest.mark.parametrize(
    ("endpoint", "method", "rule"), MATCH_ROUTES, ids=[f"{m} {r}" for _, m, r in MATCH_ROUTES]
)
def test_a_match_of_another_account_answers_as_one_that_does_not_exist(
    app: Flask, endpoint: str, method: str, rule: str
):
    """No enumeration: a stranger learns nothing from a match id."""
    create_account(app, "Otro")
    create_account(app, "Miembro")
    world = make_world(app, 0)
    missing = {**world.values, "match_id": str(int(world.values["match_id"]) + 1000)}
    for values in (world.values, missing):
        stranger = signed_in(app, "Otro").open(path_of(rule, values), method=method)
        anonymous = app.test_client().open(path_of(rule, values), method=method)
        assert (outcome(stranger), outcome(anonymous)) == ("N", "S")
