"""One set of checks for every door of a tournament: the director's forms, the tournament file
(``anotador tournament``) and a backup's restore refuse the same names and sizes with the same
problem and store nothing; a hostile restore is refused whole with a true message;
``anotador check`` reads every stored tournament back (``--fix`` mends its names); and every
page of a tournament with no pair or one answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import create_account
from stored import signed_in
from test_backup import upload
from test_tournament_backup import club_night
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from tournament_cases import problems as file_problems
from tournament_cases import run
from tournament_cases import tournament as file_of

from anotador.backup import bulk
from anotador.rules.problems import MESSAGES
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.operations import backup as tournament_backup
from anotador.tournaments.store.models import Round
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentPair

ENGLISH = {"Accept-Language": "en"}
#: The largest tournament file the command reads (anotador.tournaments.limits).
MAX_FILE_MB = 16

#: Names no door takes: (what it is, the name, the text rule's code).
BAD_NAMES = [
    ("blank", "   ", "empty_text"),
    ("NUL", "Ana\x00", "control_characters"),
    ("zero-width space", "An\u200ba", "invisible_characters"),
    ("right-to-left override", "\u202eanA", "invisible_characters"),
    ("bidi isolate", "\u2067Ana\u2069", "invisible_characters"),
    ("soft hyphen", "An\u00ada", "invisible_characters"),
    ("61 characters", "A" * 61, "text_too_long"),
]
#: The same, through JSON only (a form cannot carry a lone surrogate).
FILE_ONLY = [("lone surrogate", "Ana\ud800", "control_characters")]
#: Where a name goes: (the tournament file's path, the backup line's path).
NAME_PLACES = [("$.name", "$.name"), ("$.pairs[0].players[1]", "$.pairs[0].players[1]")]


def said(code: str) -> str:
    """The rule's sentence, as the file (lower case) and the pages (English) say it."""
    return MESSAGES[code].format(maximum=60).rstrip(".")


def count(table: Any) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(table)) or 0


def counts(app: Flask) -> list[int]:
    with app.app_context():
        return [count(table) for table in (Tournament, TournamentPair, Round, Match)]


def put(document: Any, path: str, value: Any) -> None:
    """Set the value at a path ``$.a[0].b``."""
    steps = path.removeprefix("$.").replace("[", ".").replace("]", "").split(".")
    holder = document
    for step in steps[:-1]:
        holder = holder[int(step) if step.isdigit() else step]
    last = steps[-1]
    holder[int(last) if last.isdigit() else last] = value


# --- the tournament file (the CLI) --------------------------------------------------------


@pytest.mark.parametrize(("what", "name", "code"), BAD_NAMES + FILE_ONLY)
@pytest.mark.parametrize("path", [place[0] for place in NAME_PLACES] + ["$.pairs[1].club"])
def test_the_file_refuses_a_bad_name(what: str, name: str, code: str, path: str):
    if path.endswith("club") and code == "empty_text":
        pytest.skip("a club may be empty")
    document = file_of()
    put(document, path, name)
    assert file_problems("standings", document) == [(path, "value")]
    message = json.loads(run("standings", document).stdout)["problems"][0]["message"]
    assert said(code).lower() in message.lower()


@pytest.mark.parametrize(
    ("change", "path", "code"),
    [
        ({"rounds": 101}, "$.rounds", "value"),
        ({"hands_per_round": 101}, "$.hands_per_round", "value"),
        (
            {"scale": {"bands": [[k, 10, 10] for k in range(101)], "above": [20, 0]}},
            "$.scale.bands",
            "scale",
        ),
    ],
)
def test_the_file_refuses_what_is_beyond_the_caps(change: dict[str, Any], path: str, code: str):
    assert file_problems("standings", file_of(**change)) == [(path, code)]


def test_the_file_holds_at_most_a_hundred_bands():
    bands = [[0, 10, 10]] + [[k * 10, 10 + k // 10, 10 - k // 10] for k in range(1, 100)]
    assert run("standings", file_of(scale={"bands": bands, "above": [20, 0]})).exit_code == 0


def test_the_command_refuses_an_oversized_file_before_reading_it(tmp_path: Path):
    from click.testing import CliRunner

    from anotador.commands.main import main

    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:  # sparse: no time spent writing it
        out.truncate(200 * 1024 * 1024)
    result = CliRunner().invoke(main, ["tournament", "standings", str(huge)])
    assert result.exit_code == 1, result.output
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem["code"] == "not_json"
    assert f"larger than {MAX_FILE_MB} MB" in problem["message"]
    # Standard input is read no further than the bound.
    piped = run("standings", b" " * (MAX_FILE_MB * 1024 * 1024 + 1))
    assert piped.exit_code == 1
    assert "larger than" in json.loads(piped.stdout)["problems"][0]["message"]


# --- the director's forms -----------------------------------------------------------------


@pytest.mark.parametrize(("what", "name", "code"), BAD_NAMES)
def test_the_tournament_form_refuses_a_bad_name(
    app: Flask, client: FlaskClient, what: str, name: str, code: str
):
    answer = client.post("/torneos", data={**form_set_up(), "name": name}, headers=ENGLISH)
    assert answer.status_code == 422, what
    assert said(code) in answer.get_data(as_text=True)
    assert counts(app)[0] == 0


@pytest.mark.parametrize(("what", "name", "code"), BAD_NAMES)
@pytest.mark.parametrize("field", ["first", "second", "club"])
def test_the_pair_form_refuses_a_bad_name(
    app: Flask, client: FlaskClient, what: str, name: str, code: str, field: str
):
    if field == "club" and code == "empty_text":
        pytest.skip("a club may be empty")
    tournament_id = create(client)
    data = {"first": "Ana", "second": "Alba", field: name}
    answer = client.post(f"/torneos/{tournament_id}/parejas", data=data, headers=ENGLISH)
    assert answer.status_code == 422, what
    assert said(code) in answer.get_data(as_text=True)
    assert counts(app)[1] == 0


def form_set_up() -> dict[str, str]:
    from test_tournament_web import WORKED

    return dict(WORKED)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rounds": "101"}, "100"),
        ({"hands_per_round": "101"}, "100"),
        (
            {
                "scale": "club",
                "bands": "\n".join(f"{k} 10 10" for k in range(101)),
                "above": "20 0",
            },
            "at most 100 bands",
        ),
    ],
)
def test_the_tournament_form_refuses_what_is_beyond_the_caps(
    app: Flask, client: FlaskClient, fields: dict[str, str], message: str
):
    answer = client.post("/torneos", data={**form_set_up(), **fields}, headers=ENGLISH)
    assert answer.status_code == 422
    assert message in answer.get_data(as_text=True)
    assert counts(app)[0] == 0


def test_names_are_stored_trimmed(app: Flask, client: FlaskClient):
    tournament_id = create(client, name="  Club   night ")
    data = {"first": " Ana ", "second": "Alba", "club": "  Círculo  "}
    assert client.post(f"/torneos/{tournament_id}/parejas", data=data).status_code == 303
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        assert tournament.name == "Club night"
        assert (tournament.pairs[0].first_player.name, tournament.pairs[0].club) == (
            "Ana",
            "Círculo",
        )


# --- the restore --------------------------------------------------------------------------


def backup_of(app: Flask, client: FlaskClient) -> list[str]:
    """The lines of a backup holding the club night of test_tournament_backup."""
    club_night(app, client)
    return client.get("/historial/copia.jsonl").data.decode().splitlines(keepends=True)


def restored(app: Flask, lines: list[str], section: dict[str, Any]) -> tuple[int, str]:
    """Restore ``lines`` with ``section`` as their tournament line into a new account:
    (status, page); nothing new is stored when it is refused."""
    broken = "".join([lines[0], json.dumps(section) + "\n", *lines[2:]]).encode()
    before = counts(app)
    with app.app_context():
        if not db.session.scalar(
            sa.select(sa.func.count())
            .where(sa.text("name = 'Otra'"))
            .select_from(sa.table("account"))
        ):
            create_account(app, "Otra")
    answer = upload(signed_in(app, "Otra"), broken)
    page = answer.get_data(as_text=True)
    if answer.status_code != 200:
        assert counts(app) == before, page  # not the matches either
        assert "0 partidas importadas" in page
    assert "La restauración se cortó" not in page
    assert "restaurar de nuevo el mismo archivo" not in page
    assert "Sin restaurar" in page
    return answer.status_code, page


@pytest.mark.parametrize(("what", "name", "code"), BAD_NAMES + FILE_ONLY)
def test_a_restore_refuses_a_bad_name_whole(
    app: Flask, client: FlaskClient, what: str, name: str, code: str
):
    lines = backup_of(app, client)
    for _, path in NAME_PLACES:
        section = json.loads(lines[1])
        put(section, path, name)
        status, page = restored(app, lines, section)
        assert status == 422, (what, path, page)
        assert shown(path) in page


def shown(path: str) -> str:
    """How the restore page names the last key of ``path`` (a path from the file's own
    reader as written, one from the line's shape checks in words: "tables 1 › ew")."""
    return path.rsplit(".", 1)[-1].split("[")[0]


def hostile(section: dict[str, Any], how: str) -> str:
    """Make ``section`` hostile in one way; the path its problem names."""
    tables = section["round_rows"][0]["tables"]
    if how == "pair against itself":
        tables[0]["ew"] = tables[0]["ns"]
        return "$.round_rows[0].tables[0].ew"
    if how == "table 5000":
        tables[0]["number"] = 5000
        return "$.round_rows[0].tables[0].number"
    if how == "two tables 1":
        tables[1]["number"] = tables[0]["number"]
        return "$.round_rows[0].tables[1].number"
    if how == "a round beyond rounds":
        section["rounds"] = 1
        return "$.round_rows[1]"
    if how == "a change's round not a number":
        section["changes"][0]["details"] = {"round": "x"}
        return "$.changes[0].details.round"
    if how == "a club of 500 characters":
        section["pairs"][0]["club"] = "c" * 500
        return "$.pairs[0].club"
    if how == "a scale of 50,000 bands":
        section["scale"] = {"bands": [[k, 10, 10] for k in range(50_000)], "above": [20, 0]}
        return "$.scale.bands"
    raise AssertionError(how)


HOSTILE = [
    "pair against itself",
    "table 5000",
    "two tables 1",
    "a round beyond rounds",
    "a change's round not a number",
    "a club of 500 characters",
    "a scale of 50,000 bands",
]


def test_hostile_restores_are_refused_whole_with_a_true_message(app: Flask, client: FlaskClient):
    lines = backup_of(app, client)
    for how in HOSTILE:
        section = json.loads(lines[1])
        path = hostile(section, how)
        status, page = restored(app, lines, section)
        assert status == 422, (how, page)
        assert shown(path) in page, how
    with app.app_context():
        assert count(Tournament) == 1


def test_a_restore_never_changes_a_matchs_own_hand_limit(app: Flask, client: FlaskClient):
    """A tournament line of one hand a round whose tables' match files end after two: the
    tournament is refused (its tables' MP would not be their matches'), and its matches with
    it (they were stored before the tournament was found wrong): the stored ones keep their
    own limit."""
    lines = backup_of(app, client)
    section = json.loads(lines[1])
    section["hands_per_round"] = 1
    status, page = restored(app, lines, section)
    assert status == 422, page
    assert "termina después de 2 manos y su ronda no" in page
    with app.app_context():
        assert count(Tournament) == 1
        assert set(db.session.scalars(sa.select(Match.hand_limit))) == {2}


@pytest.mark.parametrize(
    ("where", "name", "said"),
    [(tournament_backup, "store_line", "La restauración se detuvo en la línea 2"),
     (bulk, "insert_matches", "La restauración se detuvo en la línea ")],
)  # fmt: skip
def test_a_value_the_database_refuses_stores_nothing_and_is_not_an_outage(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    where: Any,
    name: str,
    said: str,
):
    """A value of the tournament line (or of a match) the database cannot hold (PostgreSQL's
    DataError: a text past its column, a NUL), met once the matches are being stored:
    nothing stays, and the page names the line and says a second try would stop there too
    (not the outage's 503)."""
    lines = backup_of(app, client)

    def refusing(*args: Any) -> list[int]:
        raise sa.exc.DataError("INSERT", {}, Exception("value too long"))

    monkeypatch.setattr(where, name, refusing)
    status, page = restored(app, lines, json.loads(lines[1]))
    assert status == 422, page
    assert said in page
    assert "no acepta lo que el archivo tiene ahí" in page


# --- anotador check -----------------------------------------------------------------------


def test_check_reports_a_bad_stored_tournament_and_fix_mends_its_names(
    app: Flask, client: FlaskClient
):
    tournament_id = club_night(app, client)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["check"]).exit_code == 0
    with app.app_context():  # as an older restore or SQL by hand could leave it
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        tournament.name = "  Club\u200b night "
        tournament.pairs[1].club = "\u202eClub"
        db.session.commit()
    result = runner.invoke(args=["check"])
    assert result.exit_code == 1, result.output
    assert f"tournament {tournament_id}: $.name: " in result.output
    assert f"tournament {tournament_id}: $.pairs[1].club: " in result.output
    fixed = runner.invoke(args=["check", "--fix"])
    assert fixed.exit_code == 0, fixed.output
    assert "fixed 2 names" in fixed.output
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        assert (tournament.name, tournament.pairs[1].club) == ("Club night", "Club")
    assert runner.invoke(args=["check"]).exit_code == 0


def pair_against_itself(app: Flask, tournament_id: int) -> None:
    """Seat the first table's NS pair against itself, as an older restore stored it."""
    with app.app_context():
        table = db.session.scalars(
            sa.select(RoundTable)
            .join(RoundTable.round)
            .where(Round.tournament_id == tournament_id)
            # The file's order (its first round's first table): a row's place in the heap
            # is no order, PostgreSQL moves a row it updates.
            .order_by(Round.number, RoundTable.id)
        ).first()
        assert table is not None
        assert table.ew_pair_id is not None
        table.ew_pair_id = table.ns_pair_id
        db.session.commit()


def test_check_says_what_fix_cannot_mend(app: Flask, client: FlaskClient):
    tournament_id = club_night(app, client)
    pair_against_itself(app, tournament_id)
    result = app.test_cli_runner().invoke(args=["check", "--fix"])
    assert result.exit_code == 1, result.output
    assert f"tournament {tournament_id}: $.round_rows[0].tables[0].ew: " in result.output
    assert "cannot be fixed automatically" in result.output


# --- every page answers -------------------------------------------------------------------

PAGES = [
    "/posiciones",
    "/tablero",
    "/version",
    "/posiciones.csv",
    "/posiciones.json",
    "/resultados.csv",
    "/archivo.json",
    "/posiciones.pdf",
]


@pytest.mark.parametrize("pairs", [0, 1])
def test_every_page_of_a_tournament_with_fewer_than_two_pairs_answers(
    app: Flask, client: FlaskClient, pairs: int
):
    tournament_id = create(client)
    add_pairs(client, tournament_id, dict(list(PAIRS.items())[:pairs]))
    base = f"/torneos/{tournament_id}"
    assert client.post(f"{base}/enlace", data={"on": "1"}).status_code in (302, 303)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        token = tournament.spectator_token
    for where in (base, f"/torneos/ver/{token}"):
        for page in PAGES:
            answer = client.get(where + page)
            assert answer.status_code == 200, (where + page, answer.status_code)
    assert client.get(base).status_code == 200
    standings = json.loads(client.get(f"{base}/posiciones.json").data)
    assert [row["vp"] for row in standings["standings"]] == [0] * pairs
    page = client.get(f"{base}/posiciones", headers=ENGLISH).get_data(as_text=True)
    assert "No results yet." in page
    assert ("No pairs yet" in page) == (pairs == 0)
    # Drawing is refused with a message, nothing drawn.
    answer = client.post(f"{base}/rondas", headers=ENGLISH)
    assert answer.status_code == 303
    page = client.get(base, headers=ENGLISH).get_data(as_text=True)
    assert "at least two pairs" in page
    with app.app_context():
        assert count(Round) == 0


def test_the_pages_of_a_tournament_stored_before_the_checks_answer(app: Flask, client: FlaskClient):
    """Rows the reader refuses (a pair against itself, as an older restore stored it): every
    page answers with its pairs and a message, the JSON export with the problems."""
    tournament_id = club_night(app, client)
    pair_against_itself(app, tournament_id)
    base = f"/torneos/{tournament_id}"
    for page in [*PAGES, "/rondas/1", "/rondas/1/resultados.pdf"]:
        answer = client.get(base + page, headers=ENGLISH)
        assert answer.status_code == 200, (page, answer.status_code)
    page = client.get(f"{base}/posiciones", headers=ENGLISH).get_data(as_text=True)
    assert "anotador check" in page
    standings = json.loads(client.get(f"{base}/posiciones.json").data)
    assert [p["code"] for p in standings["problems"]] == ["seated_twice"]
    assert len(standings["standings"]) == 4


def test_the_draw_of_a_tournament_stored_before_the_checks_is_refused_with_a_message(
    app: Flask, client: FlaskClient
):
    """Its round closed, the next draw reads the rows through the file reader, which refuses
    them: a message pointing to anotador check, nothing drawn (it answered 500)."""
    tournament_id = club_night(app, client)
    base = f"/torneos/{tournament_id}"
    with app.app_context():
        tables = db.session.scalars(
            sa.select(RoundTable)
            .join(RoundTable.round)
            .where(Round.tournament_id == tournament_id, Round.number == 2)
        ).all()
    for table in tables:
        if table.ew_pair_id is not None:
            client.post(f"{base}/mesas/{table.id}", data={"mp_ns": "400", "mp_ew": "400"})
    assert client.post(f"{base}/rondas/2/cerrar", data={"confirmed": "1"}).status_code == 303
    pair_against_itself(app, tournament_id)
    rounds_before = counts(app)[2]
    answer = client.post(f"{base}/rondas", headers=ENGLISH)
    assert answer.status_code == 303
    page = client.get(base, headers=ENGLISH).get_data(as_text=True)
    assert "cannot be read, so no round can be drawn" in page
    assert counts(app)[2] == rounds_before
