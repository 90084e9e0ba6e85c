"""Joining a group is an invitation its account accepts: until then the group shows nowhere
in its lists and counts toward none of its limits; it can decline, and leave later."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from test_sharing import owned_match

from anotador import services
from anotador.services.accounts import AccountRefused
from anotador.services.groups import MAX_INVITATIONS

#: What of the owner's shared match would show in the invited account's pages.
SHARED_PLAYER = "Carla"


def group_with_match(app: Flask, owner: FlaskClient) -> tuple[int, int]:
    """A group of the owner's with a match shared with it: (group id, match id)."""
    match_id = owned_match(app)
    created = owner.post("/grupos", data={"name": "Familia"})
    group_id = int(created.headers["Location"].rsplit("/", 1)[1])
    shared = owner.post(f"/partidas/{match_id}/grupo", data={"group": str(group_id)})
    assert shared.status_code == 303
    return group_id, match_id


def invite(owner: FlaskClient, group_id: int, name: str) -> int:
    return owner.post(f"/grupos/{group_id}/invitaciones", data={"name": name}).status_code


def sees_the_group(client: FlaskClient, group_id: int, match_id: int) -> dict[str, bool]:
    """What of the group ``client``'s account sees: its match in the lists, its players,
    the match and group pages, the group among the choices of its own match's sharing."""
    own_id = client.application.config["OWN_MATCH"]
    share = client.get(f"/partidas/{own_id}/compartir").get_data(as_text=True)
    return {
        "home": f"/partidas/{match_id}" in client.get("/").get_data(as_text=True),
        "history": f"/partidas/{match_id}" in client.get("/historial").get_data(as_text=True),
        "players": SHARED_PLAYER in client.get("/jugadores/").get_data(as_text=True),
        "match": client.get(f"/partidas/{match_id}").status_code == 200,
        "group": client.get(f"/grupos/{group_id}").status_code == 200,
        "share": f'<option value="{group_id}"' in share,
    }


def owner_and_member(app: Flask) -> tuple[FlaskClient, FlaskClient, int, int]:
    """The owner's and a second account's phones (the second with a match of its own), and
    the owner's group with a shared match: (owner, member, group id, match id)."""
    create_account(app, "Miembro")
    owner, member = signed_in(app), signed_in(app, "Miembro")
    app.config["OWN_MATCH"] = create_stored_match(app, match_document(), owner="Miembro")
    group_id, match_id = group_with_match(app, owner)
    return owner, member, group_id, match_id


NOTHING = dict.fromkeys(("home", "history", "players", "match", "group", "share"), False)
EVERYTHING = dict.fromkeys(NOTHING, True)


def test_an_invitation_shows_nothing_of_the_group_until_it_is_accepted(app: Flask):
    owner, member, group_id, match_id = owner_and_member(app)
    assert invite(owner, group_id, "miembro") == 303
    assert sees_the_group(member, group_id, match_id) == NOTHING
    assert "Invitados" in owner.get(f"/grupos/{group_id}").get_data(as_text=True)
    hint = "1 invitación a un grupo espera tu respuesta."
    assert hint in member.get("/").get_data(as_text=True)
    assert hint in member.get("/cuenta").get_data(as_text=True)
    assert "Dueña te invita a Familia." in member.get("/grupos").get_data(as_text=True)

    assert member.post(f"/grupos/{group_id}/aceptar").status_code == 303
    assert sees_the_group(member, group_id, match_id) == EVERYTHING
    assert hint not in member.get("/").get_data(as_text=True)


def test_a_declined_invitation_leaves_nothing(app: Flask):
    owner, member, group_id, match_id = owner_and_member(app)
    assert invite(owner, group_id, "Miembro") == 303
    assert member.post(f"/grupos/{group_id}/rechazar").status_code == 303
    assert sees_the_group(member, group_id, match_id) == NOTHING
    assert "te invita" not in member.get("/grupos").get_data(as_text=True)
    assert member.post(f"/grupos/{group_id}/aceptar").status_code == 404
    assert member.post(f"/grupos/{group_id}/rechazar").status_code == 404
    # For good: the group cannot ask again (a stranger would, without end), nor withdraw it.
    again = owner.post(f"/grupos/{group_id}/invitaciones", data={"name": "Miembro"})
    assert again.status_code == 422
    assert "Miembro rechazó la invitación a este grupo." in again.get_data(as_text=True)
    assert "Invitados" not in owner.get(f"/grupos/{group_id}").get_data(as_text=True)
    assert sees_the_group(member, group_id, match_id) == NOTHING


def test_a_member_can_leave(app: Flask):
    owner, member, group_id, match_id = owner_and_member(app)
    assert invite(owner, group_id, "Miembro") == 303
    assert member.post(f"/grupos/{group_id}/aceptar").status_code == 303
    with app.app_context():
        member_id = services.accounts.find_account("Miembro").id
    assert member.post(f"/grupos/{group_id}/miembros/{member_id}/quitar").status_code == 303
    assert sees_the_group(member, group_id, match_id) == NOTHING


def test_the_owner_withdraws_an_invitation(app: Flask):
    create_account(app, "Miembro")
    owner, member = signed_in(app), signed_in(app, "Miembro")
    group_id, _match_id = group_with_match(app, owner)
    assert invite(owner, group_id, "Miembro") == 303
    with app.app_context():
        member_id = services.accounts.find_account("Miembro").id
    withdraw = f"/grupos/{group_id}/invitaciones/{member_id}/quitar"
    assert member.post(withdraw).status_code == 404  # only the owner
    assert owner.post(withdraw).status_code == 303
    assert member.post(f"/grupos/{group_id}/aceptar").status_code == 404
    assert owner.post(withdraw).status_code == 404


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Nadie", "No hay ninguna cuenta con ese nombre."),
        ("Miembro", "Miembro ya tiene una invitación."),
    ],
)
def test_an_invitation_is_refused_with_a_reason(app: Flask, name: str, message: str):
    create_account(app, "Miembro")
    owner = signed_in(app)
    group_id, _match_id = group_with_match(app, owner)
    assert invite(owner, group_id, "Miembro") == 303
    refused = owner.post(f"/grupos/{group_id}/invitaciones", data={"name": name})
    assert refused.status_code == 422
    assert message in refused.get_data(as_text=True)


def test_a_stranger_cannot_flood_an_account_nor_use_up_its_groups(app: Flask):
    create_account(app, "Extraño")
    create_account(app, "Víctima")
    stranger, victim = signed_in(app, "Extraño"), signed_in(app, "Víctima")
    groups = []
    for number in range(MAX_INVITATIONS + 1):
        created = stranger.post("/grupos", data={"name": f"Grupo {number}"})
        groups.append(int(created.headers["Location"].rsplit("/", 1)[1]))
    for group_id in groups[:MAX_INVITATIONS]:
        assert invite(stranger, group_id, "Víctima") == 303
    refused = stranger.post(f"/grupos/{groups[-1]}/invitaciones", data={"name": "Víctima"})
    assert refused.status_code == 422
    assert "Demasiadas invitaciones tuyas esperan respuesta" in refused.get_data(as_text=True)
    # The victim's limits count only the groups it is in.
    assert victim.post("/grupos", data={"name": "Mía"}).status_code == 303
    with app.app_context():
        victim_id = services.accounts.find_account("Víctima").id
        assert len(services.groups.group_ids_of(victim_id)) == 1
    assert "Grupo 0" not in victim.get("/jugadores/").get_data(as_text=True)


def test_accepting_counts_toward_the_limit_of_groups(app: Flask, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(services.groups, "MAX_GROUPS", 2)
    create_account(app, "Miembro")
    owner, member = signed_in(app), signed_in(app, "Miembro")
    assert member.post("/grupos", data={"name": "Mía"}).status_code == 303
    first, _match = group_with_match(app, owner)
    second = int(owner.post("/grupos", data={"name": "Otra"}).headers["Location"].split("/")[-1])
    assert invite(owner, first, "Miembro") == 303
    assert invite(owner, second, "Miembro") == 303
    assert member.post(f"/grupos/{first}/aceptar").status_code == 303
    refused = member.post(f"/grupos/{second}/aceptar", follow_redirects=True)
    assert "Ya estás en demasiados grupos." in refused.get_data(as_text=True)
    with app.app_context():
        member_id = services.accounts.find_account("Miembro").id
        assert services.groups.invitation_of(member_id, second) is not None
        with pytest.raises(AccountRefused):
            services.groups.accept(member_id, second)


def test_deleting_a_group_takes_its_invitations(app: Flask):
    create_account(app, "Miembro")
    owner, member = signed_in(app), signed_in(app, "Miembro")
    group_id, _match_id = group_with_match(app, owner)
    assert invite(owner, group_id, "Miembro") == 303
    assert "te invita a Familia" in member.get("/grupos").get_data(as_text=True)
    assert owner.post(f"/grupos/{group_id}/borrar").status_code == 303
    assert "te invita" not in member.get("/grupos").get_data(as_text=True)
    assert member.post(f"/grupos/{group_id}/aceptar").status_code == 404
