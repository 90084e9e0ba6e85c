"""The round clock (issue 38): the director starts it from the round page with minutes per
round, adds minutes or stops it, each in the change log and once however often it is tapped;
it is refused once the round is closed or the tournament finished; bad minutes are said and
change nothing. The board and every table phone of the round show when it runs out (and
the server's time, for the phones' own count-down), the phones learn each change through
their matches' versions (their last save kept), and once it has run out a phone says that
the hand in play is the last. A table's phone also learns that its call to the director was
answered, without a reload."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from test_tournament_final import changes
from test_tournament_final import phone_of
from test_tournament_live import page
from test_tournament_live import two_tables
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.models import utc_now
from anotador.tournaments.operations import clock
from anotador.tournaments.operations.confirmations import aware
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament

ENDS = re.compile(r'data-ends="(\d+)"')


@pytest.fixture
def client(client: FlaskClient) -> FlaskClient:
    """The director, in English (what a refusal says is flashed in the language of its post)."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def clock_row(app: Flask, tournament_id: int, number: int = 1) -> tuple[int | None, Any]:
    """Round ``number``'s stored clock: (its minutes, when it runs out, aware)."""
    with app.app_context():
        round_row = db.session.scalars(
            sa.select(Round).where(Round.tournament_id == tournament_id, Round.number == number)
        ).one()
        return round_row.clock_minutes, aware(round_row.clock_ends_at)


def matches_rows(app: Flask, match_ids: list[int]) -> list[tuple[int, Any]]:
    """Each match's (version, last save)."""
    with app.app_context():
        return [
            (match.version, match.updated_at)
            for match in (db.session.get(Match, match_id) for match_id in match_ids)
            if match is not None
        ]


def stored(app: Flask, tournament_id: int, match_ids: list[int]) -> tuple[Any, ...]:
    """What a refused or repeated change must leave as it was."""
    return clock_row(app, tournament_id), len(changes(app)), matches_rows(app, match_ids)


def ends_shown(shown: str) -> int:
    found = ENDS.search(shown)
    assert found is not None, "no clock shown"
    return int(found[1])


def test_the_director_starts_the_clock_adds_minutes_and_stops_it(app: Flask, client: FlaskClient):
    tournament_id, matches = two_tables(app, client)
    ids = list(matches.values())
    url = f"/torneos/{tournament_id}/rondas/1"
    shown = page(client, url)
    assert "The clock is not running." in shown
    assert 'name="minutes" inputmode="numeric"' in shown
    assert 'value="45"' in shown  # the default: no round had a clock yet
    phone = phone_of(app, ids[0])
    assert "t-clock" not in page(phone, f"/partidas/{ids[0]}")
    before = matches_rows(app, ids)

    started = client.post(f"{url}/reloj", data={"minutes": " 30 "})
    assert started.status_code == 303
    assert started.headers["Location"].endswith(f"{url}#reloj")
    minutes, ends_at = clock_row(app, tournament_id)
    assert minutes == 30
    expected = utc_now() + datetime.timedelta(minutes=30)
    assert abs((ends_at - expected).total_seconds()) < 5
    assert changes(app)[-1][:2] == ("clock_started", {"round": 1, "minutes": 30})
    assert changes(app)[-1][2] is not None  # the director
    # The phones learn it through their matches' versions; no hand was saved: the last
    # save (the round page's "last save", the idle tables) is kept.
    after = matches_rows(app, ids)
    assert [version for version, _ in after] == [version + 1 for version, _ in before]
    assert [saved for _, saved in after] == [saved for _, saved in before]

    hhmm = ends_at.astimezone().strftime("%H:%M")
    ends_ms = int(ends_at.timestamp()) * 1000
    for where, viewer in ((url, client), (f"/torneos/{tournament_id}/tablero", client)):
        shown = page(viewer, where)
        assert f"The round ends at {hhmm}." in shown
        assert ends_shown(shown) == ends_ms
        assert "data-server-now=" in shown
        assert "js/clock.js" in shown
    shown = page(client, url)
    assert "The clock is not running." not in shown
    assert "Add the minutes" in shown
    assert "Stop the clock" in shown
    phone_page = page(phone, f"/partidas/{ids[0]}")
    assert f"The round ends at {hhmm}." in phone_page
    assert ends_shown(phone_page) == ends_ms
    assert "is-up" not in phone_page  # not run out: its words only for clock.js
    assert "js/clock.js" in phone_page
    server_now = int(re.search(r'data-server-now="(\d+)"', phone_page)[1])  # type: ignore[index]
    assert abs(server_now / 1000 - utc_now().timestamp()) < 5

    # A second tap of the same start: nothing more.
    unchanged = stored(app, tournament_id, ids)
    assert client.post(f"{url}/reloj", data={"minutes": "30"}).status_code == 303
    assert stored(app, tournament_id, ids) == unchanged
    # Another start while it runs is refused: add minutes or stop it.
    refused = client.post(f"{url}/reloj", data={"minutes": "40"}, headers={"Accept-Language": "en"})
    assert "already running" in page(client, refused.headers["Location"])
    assert stored(app, tournament_id, ids) == unchanged

    # Five minutes more, from the end the page showed.
    seen = str(ends_shown(shown) // 1000)
    assert client.post(f"{url}/reloj/sumar", data={"minutes": "5", "seen": seen}).status_code == 303
    assert clock_row(app, tournament_id) == (30, ends_at + datetime.timedelta(minutes=5))
    assert changes(app)[-1][:2] == ("clock_extended", {"round": 1, "minutes": 5})
    assert [v for v, _ in matches_rows(app, ids)] == [v + 2 for v, _ in before]
    # The same add again (a double tap, the page before): nothing more, and it says why.
    unchanged = stored(app, tournament_id, ids)
    again = client.post(f"{url}/reloj/sumar", data={"minutes": "5", "seen": seen})
    assert again.status_code == 303
    assert "nothing was added" in page(client, again.headers["Location"])
    assert stored(app, tournament_id, ids) == unchanged

    assert client.post(f"{url}/reloj/parar").status_code == 303
    assert clock_row(app, tournament_id) == (30, None)
    assert changes(app)[-1][:2] == ("clock_stopped", {"round": 1})
    assert "t-clock" not in page(phone, f"/partidas/{ids[0]}")
    assert "The clock is not running." in page(client, url)
    assert 'value="30"' in page(client, url)  # started again, with the minutes it had
    unchanged = stored(app, tournament_id, ids)
    assert client.post(f"{url}/reloj/parar").status_code == 303  # stopped already
    assert stored(app, tournament_id, ids) == unchanged
    # Added to a clock that is not running: refused.
    refused = client.post(f"{url}/reloj/sumar", data={"minutes": "5", "seen": seen})
    assert "not running" in page(client, refused.headers["Location"])
    assert stored(app, tournament_id, ids) == unchanged

    # The change log says each, with its minutes.
    log = page(client, f"/torneos/{tournament_id}")
    assert "Round clock started · Round 1 · 30 minutes" in log
    assert "Minutes added to the round clock · Round 1 · 5 minutes" in log
    assert "Round clock stopped · Round 1" in log


@pytest.mark.parametrize(
    ("minutes", "said"),
    [
        ("", "Write the minutes."),
        ("media hora", "Minutes: Enter a whole number"),
        ("0", "Minutes: Must be between 1 and 240."),
        ("241", "Minutes: Must be between 1 and 240."),
        ("-5", "without the minus sign"),
        ("1.5", "Minutes: Enter a whole number"),
        ("9" * 40, "Minutes: Must be between 1 and 240."),
    ],
)
def test_bad_minutes_are_said_and_change_nothing(
    app: Flask, client: FlaskClient, minutes: str, said: str
):
    tournament_id, matches = two_tables(app, client)
    ids = list(matches.values())
    url = f"/torneos/{tournament_id}/rondas/1"
    before = stored(app, tournament_id, ids)
    answer = client.post(f"{url}/reloj", data={"minutes": minutes})
    assert answer.status_code == 303
    assert said in page(client, answer.headers["Location"])
    assert stored(app, tournament_id, ids) == before


def test_bad_added_minutes_and_a_bad_end_seen_change_nothing(app: Flask, client: FlaskClient):
    tournament_id, matches = two_tables(app, client)
    ids = list(matches.values())
    url = f"/torneos/{tournament_id}/rondas/1"
    assert client.post(f"{url}/reloj", data={"minutes": "45"}).status_code == 303
    seen = str(ends_shown(page(client, url)) // 1000)
    before = stored(app, tournament_id, ids)
    answer = client.post(f"{url}/reloj/sumar", data={"minutes": "61", "seen": seen})
    assert "Minutes: Must be between 1 and 60." in page(client, answer.headers["Location"])
    for bad in ("", "ayer", "-1", str(2**41)):
        assert (
            client.post(f"{url}/reloj/sumar", data={"minutes": "5", "seen": bad}).status_code == 400
        )
    assert stored(app, tournament_id, ids) == before


def test_the_clock_is_refused_unless_the_round_is_being_played(app: Flask, client: FlaskClient):
    tournament_id, matches = two_tables(app, client)
    ids = list(matches.values())
    table = table_ids(app, tournament_id, 1)
    url = f"/torneos/{tournament_id}/rondas/1"
    assert client.post(f"{url}/reloj", data={"minutes": "45"}).status_code == 303
    for number in (1, 2):
        written = {"mp_ns": "600", "mp_ew": "400"}
        assert client.post(f"/torneos/{tournament_id}/mesas/{table[number]}", data=written)
    assert client.post(f"{url}/cerrar", data={"confirmed": "1"}).status_code == 303
    # Its clock ended with the round: a reopened round shows none.
    assert clock_row(app, tournament_id)[1] is None
    assert "t-clock" not in page(client, f"/torneos/{tournament_id}/tablero")
    assert "Round clock" not in page(client, url)
    before = stored(app, tournament_id, ids)
    for path, data in (
        ("reloj", {"minutes": "45"}),
        ("reloj/sumar", {"minutes": "5", "seen": "1"}),
    ):
        refused = client.post(f"{url}/{path}", data=data)
        assert "This round has already been closed." in page(client, refused.headers["Location"])
    assert client.post(f"{url}/reloj/parar").status_code == 303
    assert stored(app, tournament_id, ids) == before
    # The next round drawn, not started: not being played.
    assert client.post(f"/torneos/{tournament_id}/rondas").status_code == 303
    refused = client.post(f"/torneos/{tournament_id}/rondas/2/reloj", data={"minutes": "45"})
    assert "This round is not being played." in page(client, refused.headers["Location"])
    assert clock_row(app, tournament_id, 2) == (None, None)
    # A finished tournament: nothing changes.
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        tournament.status = "finished"
        db.session.commit()
    refused = client.post(f"{url}/reloj", data={"minutes": "45"})
    assert "The tournament has finished" in page(client, refused.headers["Location"])
    assert clock_row(app, tournament_id, 1)[1] is None
    # Nobody else starts it (another account finds no such round).
    stranger = app.test_client()
    stranger.post("/cuenta/registro", data={"name": "Otra", "password": "otra-clave-larga"})
    before = stored(app, tournament_id, ids)
    answer = stranger.post(f"/torneos/{tournament_id}/rondas/2/reloj", data={"minutes": "45"})
    assert answer.status_code in (302, 303, 404)
    assert stored(app, tournament_id, ids) == before


def run_out(app: Flask, tournament_id: int, minutes: int = 30) -> None:
    """The round's clock started ``minutes`` and a second ago: it has just run out."""
    with app.app_context():
        round_row = db.session.scalars(
            sa.select(Round).where(Round.tournament_id == tournament_id, Round.number == 1)
        ).one()
        ago = utc_now() - datetime.timedelta(minutes=minutes, seconds=1)
        clock.start(round_row, round_row.tournament.owner_id, minutes, now=ago)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Time is up: the hand in play is the last."),
        ("es", "Se terminó el tiempo: la mano en juego es la última."),
        ("it", "Tempo scaduto: la smazzata in corso è l'ultima."),
    ],
)
def test_once_the_clock_has_run_out_a_phone_says_the_hand_in_play_is_the_last(
    app: Flask, client: FlaskClient, language: str, said: str
):
    tournament_id, matches = two_tables(app, client)
    run_out(app, tournament_id)
    phone = phone_of(app, matches[2])
    shown = phone.get(f"/partidas/{matches[2]}", headers={"Accept-Language": language})
    assert said in shown.get_data(as_text=True).replace("&#39;", "'")
    assert "is-up" in shown.get_data(as_text=True)


def test_minutes_added_once_it_has_run_out_count_from_now(app: Flask, client: FlaskClient):
    tournament_id, _matches = two_tables(app, client)
    run_out(app, tournament_id)
    url = f"/torneos/{tournament_id}/rondas/1"
    seen = str(ends_shown(page(client, url)) // 1000)
    assert client.post(f"{url}/reloj/sumar", data={"minutes": "5", "seen": seen}).status_code == 303
    _minutes, ends_at = clock_row(app, tournament_id)
    expected = utc_now() + datetime.timedelta(minutes=5)
    assert abs((ends_at - expected).total_seconds()) < 5


def test_a_phone_learns_by_itself_that_its_call_was_answered(app: Flask, client: FlaskClient):
    tournament_id, matches = two_tables(app, client)
    table = table_ids(app, tournament_id, 1)
    phone = phone_of(app, matches[2])
    assert phone.post(f"/torneos/llamar/{matches[2]}").status_code == 303
    poll = phone.get(f"/partidas/{matches[2]}/version")
    etag = poll.headers["ETag"]
    assert (
        phone.get(f"/partidas/{matches[2]}/version", headers={"If-None-Match": etag}).status_code
        == 304
    )
    before = matches_rows(app, list(matches.values()))
    answered = client.post(f"/torneos/{tournament_id}/mesas/{table[2]}/atendida")
    assert answered.status_code == 303
    # Its phone's poll sees a new version (the other table's does not), and its page says
    # the director is coming; no hand was saved (the last save is kept).
    after = matches_rows(app, list(matches.values()))
    assert after[0] == before[0]
    assert after[1] == (before[1][0] + 1, before[1][1])
    fresh = phone.get(f"/partidas/{matches[2]}/version", headers={"If-None-Match": etag})
    assert fresh.status_code == 200
    assert fresh.get_json()["version"] == after[1][0]
    shown = page(phone, f"/partidas/{matches[2]}")
    with app.app_context():
        row = db.session.get(RoundTable, table[2])
        assert row is not None
        assert row.answered_at is not None
        at = aware(row.answered_at).astimezone().strftime("%H:%M")  # type: ignore[union-attr]
    assert f"The director answered the call ({at}) and is coming to the table." in shown
    assert "Call the director" in shown  # and it may call again
    # Answered twice (another tab): no second bump.
    assert client.post(f"/torneos/{tournament_id}/mesas/{table[2]}/atendida").status_code == 303
    assert matches_rows(app, list(matches.values())) == after
    # Called again: the answer is of the call before.
    assert phone.post(f"/torneos/llamar/{matches[2]}").status_code == 303
    shown = page(phone, f"/partidas/{matches[2]}")
    assert "The director has been called" in shown
    assert "is coming to the table" not in shown


def test_the_backup_carries_each_rounds_clock_and_checks_it(app: Flask, client: FlaskClient):
    from stored import create_account
    from stored import signed_in
    from test_backup import upload
    from test_tournament_backup import club_night

    tournament_id = club_night(app, client)
    assert client.post(f"/torneos/{tournament_id}/rondas/2/reloj", data={"minutes": "40"})
    kept = clock_row(app, tournament_id, 2)
    assert kept[0] == 40
    dump = client.get("/historial/copia.jsonl").data
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    assert upload(other, dump).status_code == 200
    with app.app_context():
        restored_id = db.session.scalars(
            sa.select(Tournament.id).where(Tournament.id != tournament_id)
        ).one()
    assert clock_row(app, restored_id, 2) == kept
    assert clock_row(app, restored_id, 1) == (None, None)
    shown = page(other, f"/torneos/{restored_id}/tablero")
    assert ends_shown(shown) == int(kept[1].timestamp()) * 1000

    # A bad clock in a line is said by its path, and nothing is stored.
    lines = dump.decode().splitlines(keepends=True)
    section = json.loads(lines[1])
    assert section["round_rows"][1]["clock"] == {
        "minutes": 40,
        "ends_at": kept[1].isoformat(timespec="seconds"),
    }
    create_account(app, "Tercera")
    third = signed_in(app, "Tercera")
    for bad, path in (
        ({"minutes": 0, "ends_at": None}, "round_rows 2 › clock › minutes:"),
        ({"minutes": "40", "ends_at": None}, "round_rows 2 › clock › minutes:"),
        ({"minutes": 40, "ends_at": "ayer"}, "round_rows 2 › clock › ends_at:"),
        (
            {"minutes": 40, "ends_at": "9999-12-31T23:59:59-12:00"},
            "round_rows 2 › clock › ends_at:",
        ),
        ({"minutes": 40}, "round_rows 2 › clock:"),
        ({"minutes": 40, "ends_at": None, "paused": True}, "round_rows 2 › clock › paused:"),
        ([40], "round_rows 2 › clock:"),
    ):
        section["round_rows"][1]["clock"] = bad
        broken = "".join([lines[0], json.dumps(section) + "\n", *lines[2:]]).encode()
        answer = upload(third, broken, name="copia.jsonl")
        assert answer.status_code == 422, bad
        assert path in answer.get_data(as_text=True), bad
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 2
    # A backup made before clocks (no key) still restores, without clocks.
    for round_line in section["round_rows"]:
        round_line.pop("clock")
    older = "".join([lines[0], json.dumps(section) + "\n", *lines[2:]]).encode()
    assert upload(third, older).status_code == 200
    with app.app_context():
        newest = db.session.scalars(sa.select(Tournament.id).order_by(Tournament.id.desc())).first()
    assert newest is not None
    assert clock_row(app, newest, 2) == (None, None)
