"""Issue 25, item 8: a one-time message belongs to the page the request that said it led to.
"Mano 4 anotada." shows on the planilla the save redirected to, once; a page fetched in the
background meanwhile (the live table's, another form's) neither takes it nor shows it, and a
page the browser goes to instead drops it (it would be stale there and later)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from stored import E1_FORM
from stored import create_stored_match
from stored import match_document
from test_hands import record

SAVED = "Mano 1 anotada."
#: What a browser's own fetch() sends (a page it navigates to says "navigate").
BACKGROUND = {"Sec-Fetch-Mode": "cors"}


def saved_hand(app: Flask, client: FlaskClient) -> tuple[int, str]:
    """A hand recorded through the form; the match's id and the page the save sends to."""
    match_id = create_stored_match(app, match_document(layout="4p"))
    response = record(client, match_id, E1_FORM)
    assert response.status_code == 302
    return match_id, response.headers["Location"]


def page(client: FlaskClient, path: str, **headers: str) -> str:
    return client.get(path, headers=headers).get_data(as_text=True)


def test_the_message_shows_once_on_the_page_the_save_led_to(
    app: Flask, client: FlaskClient
) -> None:
    match_id, planilla = saved_hand(app, client)
    assert planilla.endswith(f"/partidas/{match_id}")
    assert SAVED in page(client, planilla)
    assert SAVED not in page(client, planilla)


def test_a_page_fetched_in_the_background_leaves_the_message_for_its_page(
    app: Flask, client: FlaskClient
) -> None:
    match_id, planilla = saved_hand(app, client)
    assert SAVED not in page(client, f"/partidas/{match_id}/manos/nueva", **BACKGROUND)
    assert SAVED not in page(client, "/", **BACKGROUND)
    assert SAVED in page(client, planilla)


def test_a_save_sent_in_the_background_shows_its_message_on_the_page_it_fetches(
    app: Flask, client: FlaskClient
) -> None:
    _match_id, planilla = saved_hand(app, client)
    assert SAVED in page(client, planilla, **BACKGROUND)
    assert SAVED not in page(client, planilla)


def test_going_to_another_page_drops_the_message(app: Flask, client: FlaskClient) -> None:
    match_id, planilla = saved_hand(app, client)
    assert SAVED not in page(client, f"/partidas/{match_id}/manos/nueva")
    assert SAVED not in page(client, planilla)


def test_a_refusal_shows_its_message_on_the_page_it_sends_back_to(
    app: Flask, client: FlaskClient
) -> None:
    match_id = create_stored_match(app, match_document(layout="4p"))
    # A rematch of an ongoing match is refused with a message, sent back to the match.
    response = client.post(f"/partidas/{match_id}/revancha")
    assert response.headers["Location"] == f"/partidas/{match_id}"
    assert "La revancha se juega cuando termina esta partida." in page(
        client, f"/partidas/{match_id}"
    )
