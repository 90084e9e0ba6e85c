"""The live table's version page (``views.live``) and what the match's pages tell
``static/js/live.js``: the version each shows, under one ETag per version."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import E1_FORM
from stored import create_account
from stored import join_group
from stored import signed_in
from test_hands import record
from test_sharing import make_link
from test_sharing import opened
from test_sharing import owned_match

from anotador import services
from anotador.storage.database import db
from anotador.storage.models import Match

#: E1_FORM with the other side going out: the match's second hand.
E2 = {**E1_FORM, "closer": "1", "s1_clean": "2"}


def version_of(app: Flask, match_id: int) -> int:
    with app.app_context():
        return db.session.get(Match, match_id).version


def live_block(page: str) -> dict[str, str]:
    block = re.search(r'<div id="live"([^>]*)>', page)
    assert block, page
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', block.group(1)))


def tables(statement: str) -> list[str]:
    """The tables a SELECT reads (quoted on SQLite, not on PostgreSQL)."""
    return [name.strip('"') for name in re.findall(r"\b(?:FROM|JOIN)\s+(\S+)", statement)]


def test_the_version_page_says_the_version_and_answers_304_until_it_changes(
    app: Flask, client: FlaskClient
):
    match_id = owned_match(app)
    url = f"/partidas/{match_id}/version"
    first = client.get(url)
    version = version_of(app, match_id)
    assert first.status_code == 200
    assert first.get_json() == {"version": version, "hands": 0, "finished": False}
    assert first.headers["ETag"] == f'"v{version}"'
    assert "no-cache" in first.headers["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert record(client, match_id, E1_FORM).status_code == 302
    changed = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert changed.get_json() == {"version": version + 1, "hands": 1, "finished": False}
    assert changed.headers["ETag"] == f'"v{version + 1}"'


def test_a_weak_or_listed_etag_still_matches(app: Flask, client: FlaskClient):
    match_id = owned_match(app)
    etag = client.get(f"/partidas/{match_id}/version").headers["ETag"]
    for header in (f"W/{etag}", f'"v999999", {etag}', "*"):
        response = client.get(f"/partidas/{match_id}/version", headers={"If-None-Match": header})
        assert response.status_code == 304, header


def test_a_finished_match_says_so(app: Flask, client: FlaskClient):
    win = {"end": "closed", "closer": 0, "sides": [{"clean": 1, "table_points": 200}, {}]}
    match_id = owned_match(app, hands=[win], start_scores=[4990, 0])
    assert client.get(f"/partidas/{match_id}/version").get_json()["finished"] is True


def test_spectator_and_table_links_and_group_members_read_it_and_strangers_get_404(
    app: Flask, client: FlaskClient
):
    match_id = owned_match(app)
    url = f"/partidas/{match_id}/version"
    spectator = opened(app, make_link(client, match_id, "spectator"))
    table = opened(app, make_link(client, match_id, "table"))
    assert spectator.get(url).status_code == 200
    assert table.get(url).status_code == 200
    create_account(app, "Otra")
    stranger = signed_in(app, "Otra")
    assert stranger.get(url).status_code == 404
    assert stranger.get(f"/partidas/{match_id + 1000}/version").status_code == 404
    with app.app_context():
        owner = services.accounts.find_account("Dueña")
        group = services.groups.create_group(owner.id, "Familia")
        join_group(group, "Otra")
        services.sharing.set_group(services.queries.load_match(match_id), owner.id, group.id)
    assert stranger.get(url).status_code == 200
    # Revoked: the spectator's next poll finds nothing to follow.
    assert client.post(url.replace("version", "enlaces"), data={"kind": "spectator", "on": "0"})
    assert spectator.get(url).status_code in (302, 404)
    assert "/cuenta/entrar" in spectator.get(url).headers.get("Location", "")


def test_a_poll_is_one_small_statement_on_the_match_row(app: Flask, client: FlaskClient):
    match_id = owned_match(app, hands=[])
    record(client, match_id, E1_FORM)
    spectator = opened(app, make_link(client, match_id, "spectator"))
    url = f"/partidas/{match_id}/version"
    etag = spectator.get(url).headers["ETag"]
    for headers in ({}, {"If-None-Match": etag}):
        with count_statements(app) as statements:
            assert spectator.get(url, headers=headers).status_code in (200, 304)
        assert len(statements) == 1, statements
        assert tables(statements[0]) == ["match"], statements
    # The owner's session adds its account's light query (with its sign-in and its ratings
    # version, which the owner's planilla is kept under), nothing more.
    with count_statements(app) as statements:
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert len(statements) == 2, statements
    assert [tables(statement) for statement in statements] == [
        ["match"],
        ["account", "signed_in", "ratings_version"],
    ]


def test_the_planilla_and_the_hand_forms_say_what_they_show(app: Flask, client: FlaskClient):
    match_id = owned_match(app)
    record(client, match_id, E1_FORM)
    version = str(version_of(app, match_id))
    planilla = live_block(client.get(f"/partidas/{match_id}").get_data(as_text=True))
    assert planilla == {
        "url": f"/partidas/{match_id}/version",
        "version": version,
        "hands": "1",
        "number": "",
        "planilla": f"/partidas/{match_id}",
        # Where a phone that scores refreshes its copy of the match file (offline.js).
        "outbox": f"/partidas/{match_id}/manos/pendientes",
        "new-hand": f"/partidas/{match_id}/manos/nueva",
    }
    spectator = opened(app, make_link(client, match_id, "spectator"))
    watching = live_block(spectator.get(f"/partidas/{match_id}").get_data(as_text=True))
    assert "outbox" not in watching
    new = live_block(client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True))
    assert (new["version"], new["hands"], new["number"]) == (version, "1", "")
    edit = live_block(client.get(f"/partidas/{match_id}/manos/1").get_data(as_text=True))
    assert (edit["version"], edit["number"]) == (version, "1")


def test_a_form_shown_again_after_another_phone_saved_shows_its_own_version(
    app: Flask, client: FlaskClient
):
    """The version on the page is the form's (what a save would claim), not the match's."""
    match_id = owned_match(app)
    stale = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    version = live_block(stale)["version"]
    record(client, match_id, E1_FORM)
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', stale)
    assert key
    data = {**E2, "version": version, "request_key": key.group(1), "closer": ""}
    page = client.post(f"/partidas/{match_id}/manos/nueva", data=data).get_data(as_text=True)
    assert live_block(page)["version"] == version  # refused (422): still the typed version


def test_the_words_of_the_live_table_are_translated(app: Flask, client: FlaskClient):
    match_id = owned_match(app)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    spanish = live_words(page)
    assert spanish["recorded"] == "Otro teléfono anotó la mano {number}."
    page = client.get(f"/partidas/{match_id}", headers={"Accept-Language": "it"})
    italian = live_words(page.get_data(as_text=True))  # said once per language, never shared
    assert "{number}" in italian["recorded"]
    assert italian["recorded"] != spanish["recorded"]


def live_words(page: str) -> dict[str, str]:
    words = re.search(r'<script type="application/json" id="live-words">(.*?)</script>', page, re.S)
    assert words
    return json.loads(words.group(1))


def test_a_poll_leaves_the_session_cookie_as_it_is(app: Flask, client: FlaskClient):
    """A link's session is permanent: the pages refresh its cookie, the polls do not."""
    match_id = owned_match(app)
    spectator = opened(app, make_link(client, match_id, "spectator"))
    assert "session=" in spectator.get(f"/partidas/{match_id}").headers.get("Set-Cookie", "")
    poll = spectator.get(f"/partidas/{match_id}/version")
    assert poll.status_code == 200
    assert "Set-Cookie" not in poll.headers
    assert spectator.get(f"/partidas/{match_id}/version").status_code == 200  # still opened
