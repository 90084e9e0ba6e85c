"""The links a browser remembers: however many links another site sends it to, a phone keeps
the table link it opened itself or scores with."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import E1_FORM
from stored import OWNER
from stored import PASSWORD
from stored import create_stored_match
from stored import match_document
from test_hands import record
from test_sharing import SIDES

from anotador import services
from anotador.storage.database import db
from anotador.web import access

CROSS_SITE = {"Sec-Fetch-Site": "cross-site"}
#: More links than every list of the session keeps together.
FLOOD = sum(access.LINK_LISTS.values()) + 5


def matches_with_table_links(app: Flask, count: int) -> list[tuple[int, str]]:
    found = []
    for _ in range(count):
        match_id = create_stored_match(app, match_document(sides=SIDES))
        with app.app_context():
            match = services.queries.load_match(match_id)
            found.append((match_id, services.sharing.set_link(match, "table", True) or ""))
            db.session.remove()
    return found


def open_link(phone: FlaskClient, token: str, headers: dict[str, str] | None = None) -> None:
    assert phone.get(f"/enlace/{token}", headers=headers or {}).status_code == 303


def may_score(phone: FlaskClient, match_id: int) -> bool:
    return phone.get(f"/partidas/{match_id}/manos/nueva").status_code == 200


@pytest.mark.parametrize("how", [{}, {"Sec-Fetch-Site": "none"}, {"Sec-Fetch-Site": "same-origin"}])
def test_links_another_site_sends_a_phone_to_never_push_out_its_own(
    app: Flask, how: dict[str, str]
):
    (own, token), *others = matches_with_table_links(app, FLOOD + 1)
    phone = app.test_client()
    open_link(phone, token, how)  # scanned, typed, or from a browser that does not say
    for _match_id, other in others:
        open_link(phone, other, CROSS_SITE)
    assert may_score(phone, own)
    # What another site sent it to still opens (a link in a web mail), the newest ones.
    assert may_score(phone, others[-1][0])
    assert not may_score(phone, others[0][0])


def test_a_table_link_the_phone_scored_with_outlasts_any_number_of_links_opened(app: Flask):
    """Where the browser says nothing of where it came from (plain HTTP on the local
    network), the links a phone scored with are what it keeps."""
    (own, token), *others = matches_with_table_links(app, FLOOD + 1)
    phone = app.test_client()
    open_link(phone, token)
    assert record(phone, own, E1_FORM).headers["Location"] == f"/partidas/{own}"
    for _match_id, other in others:
        open_link(phone, other)
    assert may_score(phone, own)
    assert record(phone, own, E1_FORM).headers["Location"] == f"/partidas/{own}"
    assert not may_score(phone, others[0][0])  # opened links: the oldest are forgotten


def test_opening_the_same_link_again_from_another_site_keeps_it_trusted(app: Flask):
    (own, token), *others = matches_with_table_links(app, FLOOD + 1)
    phone = app.test_client()
    open_link(phone, token)
    open_link(phone, token, CROSS_SITE)
    for _match_id, other in others:
        open_link(phone, other, CROSS_SITE)
    assert may_score(phone, own)


def test_the_session_keeps_a_bounded_number_of_links(app: Flask):
    tokens = [token for _id, token in matches_with_table_links(app, FLOOD)]
    phone = app.test_client()
    for number, token in enumerate(tokens):
        open_link(phone, token, CROSS_SITE if number % 2 else {})
    with phone.session_transaction() as session:
        kept = {kind: len(session.get(kind, [])) for kind in access.LINK_LISTS}
    assert kept == {"scored_links": 0, "links": access.LINK_LISTS["links"], "sent_links": 10}


def test_signing_in_keeps_every_list_of_links(app: Flask):
    (own, token), (_sent_id, sent) = matches_with_table_links(app, 2)
    phone = app.test_client()
    open_link(phone, token)
    assert record(phone, own, E1_FORM).headers["Location"] == f"/partidas/{own}"
    open_link(phone, sent, CROSS_SITE)
    with phone.session_transaction() as session:
        before = {kind: session.get(kind) or [] for kind in access.LINK_LISTS}
    response = phone.post("/cuenta/entrar", data={"name": OWNER, "password": PASSWORD})
    assert response.status_code == 303
    with phone.session_transaction() as session:
        assert {kind: session.get(kind) or [] for kind in access.LINK_LISTS} == before
