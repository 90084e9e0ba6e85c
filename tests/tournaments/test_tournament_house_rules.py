"""The tournament's form offers the chosen variant's own rule options (a burraco night:
semipulito, pulito to close), as the new-match form does, with the same defaults (issue 38,
item 8): every table's match is made with them, the tournament's page says them, the
tournament file and the account's backup keep them (checked on restore)."""

from __future__ import annotations

import json
import re

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import create_account
from stored import signed_in
from test_backup import upload
from test_tournament_web import ENGLISH
from test_tournament_web import PAIRS
from test_tournament_web import WORKED
from test_tournament_web import add_pairs
from test_tournament_web import create

from anotador import rules
from anotador.storage.database import db
from anotador.tournaments.store.models import Tournament

#: What the tournament's form sends with its house rules (``house_rules``: it showed them).
SHOWN = {"house_rules": "1"}


def checkbox(page: str, name: str) -> bool:
    """Whether the page's checkbox ``name`` is ticked."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert found, name
    return "checked" in found.group(0)


def tables_settings(app: Flask, tournament_id: int) -> list[dict[str, object]]:
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        return [
            table.match.settings
            for round_row in tournament.round_rows
            for table in round_row.tables
            if table.match is not None
        ]


def started(client: FlaskClient, tournament_id: int) -> None:
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    client.post(f"/torneos/{tournament_id}/rondas")
    assert client.post(f"/torneos/{tournament_id}/rondas/1/empezar").status_code == 303


def test_the_form_offers_a_burraco_matchs_options_with_its_defaults(client: FlaskClient):
    page = client.get("/torneos", headers=ENGLISH).get_data(as_text=True)
    # The new-match form with burraco chosen ("Apply", as a page without its script does).
    chosen = {"variant": "burraco", "layout": "4p", "apply": "1"}
    new_match = client.post("/partidas/nueva", data=chosen).get_data(as_text=True)
    assert "House rules: Burraco" in page
    for name in ("burraco__semipulito", "burraco__pulito_to_close"):
        assert checkbox(page, name) == checkbox(new_match, name)
    defaults = rules.variant_defaults("burraco", "4p")
    assert checkbox(page, "burraco__semipulito") is defaults["semipulito"] is True
    assert checkbox(page, "burraco__pulito_to_close") is defaults["pulito_to_close"] is False


def test_every_table_plays_the_tournaments_burraco_options(app: Flask, client: FlaskClient):
    # Semipulito left unticked, pulito to close ticked.
    tournament_id = create(client, **SHOWN, burraco__pulito_to_close="y")
    started(client, tournament_id)
    settings = tables_settings(app, tournament_id)
    assert len(settings) == 2
    for options in settings:
        assert (options["semipulito"], options["pulito_to_close"]) == (False, True)
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Semipulito burraco (150): no" in page
    assert "Going out needs a pulito burraco: yes" in page
    document = json.loads(client.get(f"/torneos/{tournament_id}/archivo.json").data)
    assert document["options"]["semipulito"] is False
    assert document["options"]["pulito_to_close"] is True


def test_a_request_without_the_house_rules_gets_a_burraco_matchs_defaults(
    app: Flask, client: FlaskClient
):
    """A request that did not show them (a script, a page from before) is not a "no" to
    each: the variant's defaults, as a new burraco match has them."""
    tournament_id = create(client)
    started(client, tournament_id)
    defaults = rules.variant_defaults("burraco", "4p")
    for options in tables_settings(app, tournament_id):
        assert options["semipulito"] is defaults["semipulito"]
        assert options["pulito_to_close"] is defaults["pulito_to_close"]
    # Ticked as the form shows them: the same.
    shown = create(client, **SHOWN, burraco__semipulito="y", name="Otra")
    with app.app_context():
        assert db.session.get(Tournament, shown).options["semipulito"] is True  # type: ignore[union-attr]


def test_another_variant_ignores_and_does_not_show_burracos_options(
    app: Flask, client: FlaskClient
):
    tournament_id = create(
        client, variant="uruguaya", **SHOWN, burraco__pulito_to_close="y", burraco__semipulito="y"
    )
    with app.app_context():
        options = db.session.get(Tournament, tournament_id).options  # type: ignore[union-attr]
    assert "pulito_to_close" not in options
    assert "semipulito" not in options
    page = client.get(f"/torneos/{tournament_id}", headers=ENGLISH).get_data(as_text=True)
    assert "pulito" not in page.lower()


def test_the_burraco_options_go_through_a_backup(app: Flask, client: FlaskClient):
    tournament_id = create(client, **SHOWN, burraco__pulito_to_close="y")
    started(client, tournament_id)
    dump = client.get("/historial/copia.jsonl").data
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    assert upload(other, dump).status_code == 200
    with app.app_context():
        restored = db.session.scalars(
            sa.select(Tournament).where(Tournament.id != tournament_id)
        ).one()
        assert (restored.options["semipulito"], restored.options["pulito_to_close"]) == (
            False,
            True,
        )
    # An option the variant does not take, or of the wrong kind, is refused on restore.
    lines = dump.decode().splitlines(keepends=True)
    for wrong in ({"pulito_to_close": "yes"}, {"no_such_rule": True}):
        section = json.loads(lines[1])
        section["options"] = {**section["options"], **wrong}
        broken = "".join([lines[0], json.dumps(section) + "\n", *lines[2:]]).encode()
        create_account(app, f"Tercera {len(wrong)}{next(iter(wrong))}")
        third = signed_in(app, f"Tercera {len(wrong)}{next(iter(wrong))}")
        answer = upload(third, broken)
        assert answer.status_code == 422, answer.get_data(as_text=True)
        assert "options" in answer.get_data(as_text=True)


@pytest.mark.parametrize("value", ["maybe", "\x00", "1" * 5000])
def test_a_hostile_checkbox_value_never_fails(app: Flask, client: FlaskClient, value: str):
    answer = client.post(
        "/torneos", data={**WORKED, **SHOWN, "burraco__pulito_to_close": value, "name": "X"}
    )
    assert answer.status_code in (303, 422)
