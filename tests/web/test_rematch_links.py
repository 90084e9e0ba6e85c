"""Issue 25, item 7: a rematch keeps the table. The finished match's table and spectator links
lead to its rematch, and the phones that opened them follow there without scanning again: the
table link's phones score the rematch, the spectator link's watch it; the rematch keeps the
group; a link revoked on the rematch is not followed."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import BIG_HAND
from stored import OWNER
from stored import TWO_PAIRS
from stored import MakeMatch
from stored import create_account
from stored import join_group
from stored import signed_in

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Match


@dataclass
class Table:
    match_id: int
    table: str
    spectator: str
    group_id: int


@pytest.fixture
def shared(app: Flask, make_match: MakeMatch) -> Table:
    """A finished match with both links and a group of which ``Miembro`` is a member."""
    match_id = make_match(layout="4p", sides=TWO_PAIRS, hands=[BIG_HAND, BIG_HAND])
    create_account(app, "Miembro")
    with app.app_context():
        owner = services.accounts.find_account(OWNER)
        group = services.groups.create_group(owner.id, "Familia")
        join_group(group, "Miembro")
        match = services.queries.load_match(match_id)
        table = services.sharing.set_link(match, "table", True)
        spectator = services.sharing.set_link(match, "spectator", True)
        assert services.sharing.set_group(match, owner.id, group.id)
        assert table is not None
        assert spectator is not None
        found = Table(match_id, table, spectator, group.id)
        db.session.remove()
    return found


def phone(app: Flask, token: str) -> FlaskClient:
    """A phone signed in nowhere that opened a link."""
    client = app.test_client()
    assert client.get(f"/enlace/{token}").status_code == 303
    return client


def rematch(owner: FlaskClient, match_id: int) -> int:
    response = owner.post(f"/partidas/{match_id}/revancha")
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def poll(client: FlaskClient, match_id: int) -> dict[str, object]:
    response = client.get(f"/partidas/{match_id}/version")
    assert response.status_code == 200
    answer: dict[str, object] = response.get_json()
    return answer


def may_score(client: FlaskClient, match_id: int) -> bool:
    """Whether the hand form opens (else: sent to sign in, as every refusal of a browser
    signed in nowhere)."""
    response = client.get(f"/partidas/{match_id}/manos/nueva")
    assert response.status_code == 200 or "/cuenta/entrar" in response.headers["Location"]
    return response.status_code == 200


def followed(client: FlaskClient, match_id: int) -> str:
    response = client.get(f"/partidas/{match_id}/revancha")
    assert response.status_code == 303
    return response.headers["Location"]


def test_the_links_phones_follow_the_rematch_and_keep_their_roles(
    app: Flask, client: FlaskClient, shared: Table
) -> None:
    old = shared.match_id
    table_phone, spectator_phone = phone(app, shared.table), phone(app, shared.spectator)
    assert "rematch" not in poll(table_phone, old)
    new = rematch(client, old)

    # The live poll of the finished match says where the table went (a new tag: a phone
    # holding the version's gets the answer, not a 304).
    headers = {"If-None-Match": f'"v{poll(client, new)["version"]}"'}
    assert table_phone.get(f"/partidas/{old}/version", headers=headers).status_code == 200
    for watcher in (table_phone, spectator_phone, client):
        assert poll(watcher, old)["rematch"] == f"/partidas/{old}/revancha"
        assert followed(watcher, old) == f"/partidas/{new}"
    # The table link's phone scores the rematch; the spectator's only watches it.
    assert may_score(table_phone, new)
    assert spectator_phone.get(f"/partidas/{new}").status_code == 200
    assert not may_score(spectator_phone, new)
    # Both still read the finished match.
    for watcher in (table_phone, spectator_phone):
        assert watcher.get(f"/partidas/{old}").status_code == 200


def test_the_old_links_lead_to_the_rematch_for_a_new_phone(
    app: Flask, client: FlaskClient, shared: Table
) -> None:
    new = rematch(client, shared.match_id)
    table_phone = app.test_client()
    response = table_phone.get(f"/enlace/{shared.table}")
    assert response.headers["Location"] == f"/partidas/{new}"
    assert may_score(table_phone, new)
    spectator_phone = app.test_client()
    response = spectator_phone.get(f"/enlace/{shared.spectator}")
    assert response.headers["Location"] == f"/partidas/{new}"
    assert not may_score(spectator_phone, new)


def test_the_rematch_keeps_the_group_and_gets_links_of_its_own(
    app: Flask, client: FlaskClient, shared: Table
) -> None:
    new = rematch(client, shared.match_id)
    with app.app_context():
        old_match, new_match = db.session.get(Match, shared.match_id), db.session.get(Match, new)
        assert old_match is not None
        assert new_match is not None
        assert new_match.group_id == shared.group_id
        assert old_match.rematch_id == new
        assert new_match.table_token not in (None, shared.table)
        assert new_match.spectator_token not in (None, shared.spectator)
        assert (old_match.table_token, old_match.spectator_token) == (
            shared.table,
            shared.spectator,
        )
    member = signed_in(app, "Miembro")
    assert followed(member, shared.match_id) == f"/partidas/{new}"
    assert member.get(f"/partidas/{new}").status_code == 200
    # The finished match's page points there.
    page = client.get(f"/partidas/{shared.match_id}").get_data(as_text=True)
    assert "Esta partida tiene revancha." in page
    assert f'href="/partidas/{shared.match_id}/revancha"' in page


def test_a_second_tap_on_rematch_gives_the_same_rematch(client: FlaskClient, shared: Table) -> None:
    assert rematch(client, shared.match_id) == rematch(client, shared.match_id)


def test_a_link_revoked_on_the_rematch_is_not_followed(
    app: Flask, client: FlaskClient, shared: Table
) -> None:
    table_phone = phone(app, shared.table)
    new = rematch(client, shared.match_id)
    with app.app_context():
        services.sharing.set_link(services.queries.load_match(new), "table", False)
    assert "rematch" not in poll(table_phone, shared.match_id)
    assert followed(table_phone, shared.match_id) == f"/partidas/{shared.match_id}"
    assert table_phone.get(f"/partidas/{new}").status_code == 302  # to sign in: no access
    page = table_phone.get(f"/partidas/{shared.match_id}").get_data(as_text=True)
    assert "revancha" not in page.lower()


def test_a_link_follows_a_chain_of_rematches(
    app: Flask, client: FlaskClient, shared: Table
) -> None:
    second = rematch(client, shared.match_id)
    with app.app_context():  # the second match played to its end
        for _ in range(2):
            match = services.queries.load_match(second)
            assert match is not None
            assert services.hands.record_hand(match, BIG_HAND, match.version, None).ok
            db.session.remove()
    third = rematch(client, second)
    table_phone = app.test_client()
    assert table_phone.get(f"/enlace/{shared.table}").headers["Location"] == f"/partidas/{third}"
    assert may_score(table_phone, third)


SCORES = "Enlace de mesa: este teléfono anota y corrige las manos de esta partida."
WATCHES = "Este teléfono solo mira: las manos aparecen acá a medida que se anotan."


def test_a_link_phone_says_what_it_may_do(app: Flask, client: FlaskClient, shared: Table) -> None:
    table_phone, spectator_phone = phone(app, shared.table), phone(app, shared.spectator)
    new = rematch(client, shared.match_id)
    followed(table_phone, shared.match_id)
    followed(spectator_phone, shared.match_id)
    member = signed_in(app, "Miembro")
    said = {
        who: [
            (SCORES in page, WATCHES in page)
            for page in (
                browser.get(f"/partidas/{match_id}").get_data(as_text=True)
                for match_id in (new, shared.match_id)
            )
        ]
        for who, browser in (
            ("table", table_phone),
            ("spectator", spectator_phone),
            ("owner", client),
            ("member", member),
        )
    }
    assert said == {
        # The table link scores while the match is played, then only watches.
        "table": [(True, False), (False, True)],
        "spectator": [(False, True), (False, True)],
        "owner": [(False, False), (False, False)],
        "member": [(False, False), (False, False)],
    }
