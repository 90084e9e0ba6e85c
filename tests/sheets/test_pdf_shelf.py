"""Sheets off the request path: drawn in a child process within a cap on renders at once
(beyond it, a "preparing" page that asks again by itself, never an error), kept in the
instance folder where every worker and every new app finds them, and drawn in the background
when a hand ends a match."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import create_stored_match
from stored import signed_in
from test_pdf import finished_match

from anotador import services
from anotador.sheets import shelf

AppFactory = Callable[..., Flask]


def refuse_to_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("drawn again")

    monkeypatch.setattr(shelf, "draw", refuse)


def test_beyond_the_cap_the_sheet_is_being_prepared(app: Flask, client: FlaskClient):
    match_id = create_stored_match(app, finished_match())
    url = f"/partidas/{match_id}/planilla.pdf"
    with app.app_context(), shelf.render_slot() as held:
        assert held  # the only slot (PDF_RENDER_SLOTS is 1 by default)
        busy = client.get(url, headers={"Accept-Language": "es"})
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == str(shelf.RETRY_SECONDS)
    html = busy.get_data(as_text=True)
    assert f'<meta http-equiv="refresh" content="{shelf.RETRY_SECONDS}">' in html
    assert "Preparando la planilla" in html
    with app.app_context(), shelf.render_slot():
        english = client.get(url, headers={"Accept-Language": "en"})
    assert "Preparing the sheet" in english.get_data(as_text=True)
    # Once the slot is free, the same address gives the sheet.
    ready = client.get(url)
    assert ready.status_code == 200
    assert ready.data.startswith(b"%PDF")


def test_the_cap_holds_across_threads_of_one_worker(app: Flask):
    with app.app_context(), shelf.render_slot() as first:
        seen: list[bool] = []

        def other() -> None:
            with app.app_context(), shelf.render_slot() as second:
                seen.append(second)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert (first, seen) == (True, [False])


def test_a_kept_sheet_serves_another_app_and_its_304(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    first_app = app_factory(PDF_RENDER_PROCESS=True)  # drawn by the child process
    match_id = create_stored_match(first_app, finished_match())
    url = f"/partidas/{match_id}/planilla.pdf"
    drawn = signed_in(first_app).get(url)
    assert drawn.status_code == 200
    # Another worker, or the same after a restart: its own memory is empty.
    other_app = app_factory()
    refuse_to_draw(monkeypatch)
    other = signed_in(other_app)
    with count_statements(other_app) as statements:
        again = other.get(url)
        unchanged = other.get(url, headers={"If-None-Match": drawn.headers["ETag"]})
    assert again.status_code == 200
    assert again.data == drawn.data
    assert unchanged.status_code == 304
    # Neither reads the match's hands: the key is made of its stored version and hash.
    assert not [s for s in statements if "FROM hand" in s]


def test_a_hand_that_ends_the_match_prepares_its_sheet(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    app = app_factory(PDF_PREPARE_FINISHED=True)
    document = finished_match()
    last = document["hands"].pop()
    match_id = create_stored_match(app, document)
    started: list[threading.Thread] = []
    original = threading.Thread.start

    def start(thread: threading.Thread) -> None:
        started.append(thread)
        original(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        assert services.hands.record_hand(match, last, match.version, "last").ok
    assert len(started) == 1
    started[0].join(120)
    refuse_to_draw(monkeypatch)
    response = signed_in(app).get(f"/partidas/{match_id}/planilla.pdf")
    assert response.status_code == 200
    assert response.data.startswith(b"%PDF")
