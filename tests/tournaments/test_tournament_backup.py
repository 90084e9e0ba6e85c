"""The account's backup carries its tournaments: restored into an empty account they give the
same standings, each table linked to its restored match; an old backup still restores; a bad
tournament line is reported and nothing at all is stored, its matches neither."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import create_account
from stored import signed_in
from test_backup import upload
from test_hands import record
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import table_ids

from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.operations import backup as tournament_backup
from anotador.tournaments.store.models import RoundTable
from anotador.tournaments.store.models import Tournament
from anotador.tournaments.store.models import TournamentChange

ENGLISH = {"Accept-Language": "en"}


def club_night(app: Flask, client: FlaskClient) -> int:
    """Four pairs, two hands a round: round 1 closed (a table scored in the app to its
    hands, one written by hand), round 2 playing (its table 1 one hand in), a pair withdrawn
    and the spectator link on."""
    tournament_id = create(client, variant="uruguaya", hands_per_round="2", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "ABCD"})
    base = f"/torneos/{tournament_id}"
    client.post(f"{base}/rondas")
    client.post(f"{base}/rondas/1/empezar")
    tables = table_ids(app, tournament_id, 1)
    match_1 = table_match(app, tables[1])
    assert record(client, match_1, FORM_HAND).status_code == 302
    assert record(client, match_1, FORM_HAND).status_code == 302
    client.post(f"{base}/mesas/{tables[2]}", data={"mp_ns": "300", "mp_ew": "500"})
    assert client.post(f"{base}/rondas/1/cerrar", data={"confirmed": "1"}).status_code == 303
    client.post(f"{base}/rondas")
    client.post(f"{base}/rondas/2/empezar")
    assert record(client, table_match(app, table_ids(app, tournament_id, 2)[1]), FORM_HAND)
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        pair_id = tournament.pairs[3].id
    client.post(f"{base}/parejas/{pair_id}/retiro", data={"withdrawn": "1", "confirmed": "1"})
    client.post(f"{base}/enlace", data={"on": "1"})
    return tournament_id


def table_match(app: Flask, table_id: int) -> int:
    with app.app_context():
        table = db.session.get(RoundTable, table_id)
        assert table is not None
        assert table.match_id is not None
        return table.match_id


def tables_of(app: Flask, tournament_id: int) -> list[tuple[Any, ...]]:
    """Every table as (round, table, NS, EW, MP by hand, its match's file and status and
    hand limit, whether it has a table link)."""
    from anotador.backup import match_file

    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        assert tournament is not None
        found = []
        for round_row in tournament.round_rows:
            for table in round_row.tables:
                match = table.match
                played = None
                if match is not None:
                    document = match_file(match)
                    document.pop("played_on")
                    link = match.table_token is not None
                    played = (document, match.status, match.hand_limit, link, match.owner_id)
                found.append(
                    (
                        round_row.number,
                        round_row.status,
                        table.number,
                        table.ns_pair.position,
                        table.ew_pair.position if table.ew_pair else None,
                        (table.mp_ns, table.mp_ew),
                        played,
                    )
                )
        return found


def test_a_restored_club_night_has_the_same_standings_and_tables(app: Flask, client: FlaskClient):
    tournament_id = club_night(app, client)
    dump = client.get("/historial/copia.jsonl").data
    first_lines = [json.loads(line) for line in dump.decode().splitlines()[:2]]
    assert first_lines[1]["format"] == tournament_backup.SECTION_FORMAT
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").data
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    answer = upload(other, dump)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert "1 torneo restaurado" in answer.get_data(as_text=True)
    with app.app_context():
        restored = db.session.scalars(
            sa.select(Tournament).where(Tournament.id != tournament_id)
        ).one()
        restored_id, owner = restored.id, restored.owner_id
        assert restored.status == "playing"
        assert restored.spectator_token is not None  # shared again, by a new link
        original = db.session.get(Tournament, tournament_id)
        assert original is not None
        assert restored.spectator_token != original.spectator_token
        assert [p.withdrawn for p in restored.pairs] == [False, False, False, True]
        changes = sa.select(TournamentChange.change).order_by(TournamentChange.id)
        made = list(
            db.session.scalars(changes.where(TournamentChange.tournament_id == restored_id))
        )
        kept = list(
            db.session.scalars(changes.where(TournamentChange.tournament_id == tournament_id))
        )
        assert made == kept
    assert other.get(f"/torneos/{restored_id}/posiciones.json").data == standings
    before, after = tables_of(app, tournament_id), tables_of(app, restored_id)
    # The same tables, each linked to the restored copy of its match (the new account's).
    assert [row[:6] for row in after] == [row[:6] for row in before]
    assert [row[6] and row[6][:4] for row in after] == [row[6] and row[6][:4] for row in before]
    assert {row[6][4] for row in after if row[6]} == {owner}
    # The restored table still scores: its round's second hand ends it.
    with app.app_context():
        playing = db.session.scalars(
            sa.select(RoundTable.match_id)
            .join(RoundTable.round)
            .where(sa.text("tournament_round.tournament_id = :t"), RoundTable.number == 1)
            .params(t=restored_id)
            .order_by(RoundTable.id.desc())
        ).first()
    assert playing is not None
    assert record(other, playing, FORM_HAND).status_code == 302
    with app.app_context():
        assert db.session.get(Match, playing).status == "finished"  # type: ignore[union-attr]
    # What a restore stores, `anotador check` finds sound; restoring again adds nothing.
    result = app.test_cli_runner().invoke(args=["check"])
    assert result.exit_code == 0, result.output
    again = upload(other, dump)
    assert again.status_code == 200
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 2


def test_a_backup_without_tournaments_still_restores(app: Flask, client: FlaskClient):
    tournament_id = club_night(app, client)
    lines = client.get("/historial/copia.jsonl").data.decode().splitlines(keepends=True)
    old = "".join(line for line in lines if tournament_backup.SECTION_FORMAT not in line)
    with app.app_context():
        matches = db.session.scalar(sa.select(sa.func.count()).select_from(Match))
    create_account(app, "Otra")
    answer = upload(signed_in(app, "Otra"), old.encode())
    assert answer.status_code == 200
    with app.app_context():
        restored = db.session.scalar(
            sa.select(sa.func.count()).select_from(Match).where(Match.owner_id != 1)
        )
        assert restored == matches
        assert db.session.scalars(sa.select(Tournament.id)).all() == [tournament_id]


def test_a_bad_tournament_line_is_reported_and_nothing_is_stored(app: Flask, client: FlaskClient):
    club_night(app, client)
    lines = client.get("/historial/copia.jsonl").data.decode().splitlines(keepends=True)
    section = json.loads(lines[1])
    section["round_rows"][0]["tables"][0]["ns"] = 9  # no ninth pair
    section["scale"] = "fibur-9"
    broken = "".join([lines[0], json.dumps(section) + "\n", *lines[2:]]).encode()
    with app.app_context():
        counts = [
            db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in (Match, Tournament)
        ]
    create_account(app, "Otra")
    answer = upload(signed_in(app, "Otra"), broken, name="copia.jsonl")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422, page
    assert "Line 2" in page or "Línea 2" in page
    assert "round_rows" in page
    with app.app_context():
        assert [
            db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in (Match, Tournament)
        ] == counts
    # The scale is checked by the tournament file's own code, once the rows are sound.
    section["round_rows"][0]["tables"][0]["ns"] = 1
    broken = "".join([lines[0], json.dumps(section) + "\n", *lines[2:]]).encode()
    page = upload(signed_in(app, "Otra"), broken, name="copia.jsonl").get_data(as_text=True)
    assert "scale" in page


def test_a_backup_whose_match_files_had_no_hand_limit_gives_the_tables_theirs(
    app: Flask, client: FlaskClient
):
    """A backup made before match files carried the round's hands: the restored tables get
    them from their tournament, and `anotador check` finds their summaries sound."""
    tournament_id = club_night(app, client)
    lines = client.get("/historial/copia.jsonl").data.decode().splitlines(keepends=True)
    older = []
    for line in lines:
        value = json.loads(line)
        value.pop("hand_limit", None)
        value.pop("play_every_hand", None)  # newer still
        older.append(json.dumps(value, ensure_ascii=False) + "\n")
    assert older != lines
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").data
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    assert upload(other, "".join(older).encode()).status_code == 200
    with app.app_context():
        restored_id = db.session.scalars(
            sa.select(Tournament.id).where(Tournament.id != tournament_id)
        ).one()
    assert other.get(f"/torneos/{restored_id}/posiciones.json").data == standings
    before, after = tables_of(app, tournament_id), tables_of(app, restored_id)
    # Such a file's tables keep the rule they were played by: the target still ends them.
    for row in before:
        if row[6]:
            row[6][0].pop("play_every_hand")
    assert [row[6] and row[6][:4] for row in after] == [row[6] and row[6][:4] for row in before]
    result = app.test_cli_runner().invoke(args=["check"])
    assert result.exit_code == 0, result.output


def test_the_command_line_backup_carries_the_tournaments(
    app: Flask, client: FlaskClient, tmp_path: Any
):
    tournament_id = club_night(app, client)
    standings = client.get(f"/torneos/{tournament_id}/posiciones.json").data
    runner = app.test_cli_runner()
    path = tmp_path / "copia.jsonl"
    assert runner.invoke(args=["export", "--all", "-o", str(path)]).exit_code == 0
    create_account(app, "Otra")
    result = runner.invoke(args=["import", str(path), "--owner", "Otra"])
    assert result.exit_code == 0, result.output
    assert "1 tournaments restored, 0 already present" in result.output
    with app.app_context():
        restored_id = db.session.scalars(
            sa.select(Tournament.id).where(Tournament.id != tournament_id)
        ).one()
    assert signed_in(app, "Otra").get(f"/torneos/{restored_id}/posiciones.json").data == standings


def test_a_table_whose_match_line_is_broken_stores_no_tournament(app: Flask, client: FlaskClient):
    club_night(app, client)
    lines = client.get("/historial/copia.jsonl").data.decode().splitlines(keepends=True)
    section = json.loads(lines[1])
    place = section["round_rows"][0]["tables"][0]["match"]
    first_match_line = len(lines) - sum(1 for line in lines if '"anotador-match/1"' in line)
    lines[first_match_line + place] = '{"format": "anotador-match/1"}\n'
    create_account(app, "Otra")
    with app.app_context():
        matches = db.session.scalar(sa.select(sa.func.count()).select_from(Match))
    answer = upload(signed_in(app, "Otra"), "".join(lines).encode())
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422, page
    assert "$.round_rows[0].tables[0].match: La partida de esta mesa (línea " in page
    assert "0 partidas importadas" in page
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 1
        # The other matches were stored before the table was found without its own: they
        # are not kept either (a backup with tournaments is restored whole).
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == matches
