"""``anotador check`` and the pages of a match the rules engine refuses.

Matches are broken here the way a person with an SQL prompt or a bad tool could: a hand's
inputs rewritten, a player's name given a control character, a summary column changed.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from sql_counting import count_statements
from stored import create_stored_match
from stored import match_document

from anotador import services
from anotador.backup import integrity
from anotador.commands import demo
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Seat
from anotador.storage.models import Side

NUMBERS = itertools.count(1)
QUIET = {"end": "stock_out", "closer": None, "sides": [{"table_points": 100}, {}]}


def new_match(app: Flask, hands: int = 2, **extra: Any) -> int:
    n = next(NUMBERS)  # players of their own: a name broken in one match breaks no other
    sides = [
        {"name": "Nosotros", "players": [f"Ana {n}", f"Beto {n}"]},
        {"name": "Ellos", "players": [f"Carla {n}", f"Dani {n}"]},
    ]
    return create_stored_match(app, match_document(sides=sides, hands=[QUIET] * hands, **extra))


def first_hand(match_id: int) -> Hand:
    statement = sa.select(Hand).where(Hand.match_id == match_id).order_by(Hand.number)
    return db.session.scalars(statement).first()


def nine_red_threes(app: Flask, match_id: int) -> str:
    with app.app_context():
        hand = first_hand(match_id)
        inputs = {**QUIET, "sides": [{"table_points": 100, "red_threes": 9}, {}]}
        db.session.execute(sa.update(Hand).where(Hand.id == hand.id).values(inputs=inputs))
        db.session.commit()
    return "hands[0].sides[0].red_threes"


def unknown_key(app: Flask, match_id: int) -> str:
    with app.app_context():
        hand = first_hand(match_id)
        inputs = {**QUIET, "sides": [{"table_points": 100}, {"chanchos": 3}]}
        db.session.execute(sa.update(Hand).where(Hand.id == hand.id).values(inputs=inputs))
        db.session.commit()
    return "hands[0].sides[1].chanchos"


def control_character(app: Flask, match_id: int) -> str:
    with app.app_context():
        statement = (
            sa.select(Seat.player_id)
            .join(Side, Side.id == Seat.side_id)
            .where(Side.match_id == match_id)
            .order_by(Side.position, Seat.seat)
        )
        player_id = db.session.scalars(statement).first()
        db.session.execute(
            sa.text("UPDATE player SET name = :name WHERE id = :id"),
            {"name": "An\x01a", "id": player_id},
        )
        db.session.commit()
    return "sides[0].players[0]"


BREAKAGES: dict[str, Callable[[Flask, int], str]] = {
    "nine red threes": nine_red_threes,
    "unknown key": unknown_key,
    "control character in a name": control_character,
}
#: What each breakage's problem says on the (Spanish) page.
SPANISH = {
    "nine red threes": "Mano 1 › Equipo 1 › Treses rojos: Como máximo 4 treses rojos con 2 mazos.",
    "unknown key": "Dato desconocido: no corresponde a esta variante ni al documento.",
    "control character in a name": "No puede contener caracteres de control.",
}


def wrong_total(app: Flask, match_id: int) -> None:
    with app.app_context():
        db.session.execute(sa.update(Match).where(Match.id == match_id).values(totals=[1, 2]))
        db.session.commit()


def version_of(app: Flask, match_id: int) -> int:
    with app.app_context():
        return db.session.get(Match, match_id).version


# The command


def test_app_made_matches_are_fine(app: Flask, runner: FlaskCliRunner) -> None:
    new_match(app, hands=0)
    new_match(app, hands=3, title="Sábado", notes="en lo de Ana")
    finished = new_match(app, hands=0, start_scores=[4990, 0])
    abandoned = new_match(app, hands=1, abandoned=True)
    with app.app_context():
        match = services.queries.load_match(finished)
        win = {"end": "closed", "closer": 0, "sides": [{"clean": 1, "table_points": 200}, {}]}
        assert services.hands.record_hand(match, win, match.version, None).ok
        assert db.session.get(Match, finished).status == "finished"
        assert db.session.get(Match, abandoned).status == "abandoned"
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output == "4 matches checked, all fine\n"


def test_an_empty_database_is_fine(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["check"])
    assert (result.exit_code, result.output) == (0, "0 matches checked, all fine\n")


def test_seeded_demo_matches_are_fine(runner: FlaskCliRunner) -> None:
    seeded = runner.invoke(args=["seed-demo", "--matches", "30"])
    assert seeded.exit_code == 0, seeded.output
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output == "30 matches checked, all fine\n"


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_a_match_the_rules_refuse_is_reported(
    app: Flask, runner: FlaskCliRunner, breakage: str
) -> None:
    fine = new_match(app)
    broken = new_match(app)
    path = BREAKAGES[breakage](app, broken)
    result = runner.invoke(args=["check"])
    assert result.exit_code == 1
    assert f"match {broken}: {path}: " in result.output
    assert f"match {fine}:" not in result.output
    assert "2 matches checked: 1 fails the rules, 0 have a summary" in result.output
    assert "cannot be fixed automatically: export" in result.output
    # --fix cannot mend it: it stays reported, and the command still fails.
    fixed = runner.invoke(args=["check", "--fix"])
    assert fixed.exit_code == 1
    again = runner.invoke(args=["check"])
    assert again.exit_code == 1
    assert f"match {broken}: {path}: " in again.output


def test_a_wrong_summary_is_reported_and_fixed(app: Flask, runner: FlaskCliRunner) -> None:
    fine = new_match(app)
    stale = new_match(app)
    with app.app_context():
        right = db.session.get(Match, stale).totals
    wrong_total(app, stale)
    with app.app_context():
        updated_at = db.session.get(Match, stale).updated_at
    version = version_of(app, stale)
    result = runner.invoke(args=["check"])
    assert result.exit_code == 1
    assert f"match {stale}: totals: stored [1, 2], recomputed {json.dumps(right)}" in result.output
    assert f"match {fine}:" not in result.output
    assert "run `anotador check --fix`" in result.output
    assert version_of(app, stale) == version  # a check alone writes nothing

    fixed = runner.invoke(args=["check", "--fix"])
    assert fixed.exit_code == 0, fixed.output
    assert "fixed 1 summary" in fixed.output
    with app.app_context():
        match = db.session.get(Match, stale)
        assert match.totals == right
        assert match.version == version + 1  # caches keyed on the version drop it
        assert match.updated_at == updated_at  # a repair is not a change to the match
    again = runner.invoke(args=["check"])
    assert (again.exit_code, again.output) == (0, "2 matches checked, all fine\n")


@pytest.mark.parametrize(
    ("column", "value"),
    [("winner", 1), ("status", "finished"), ("hand_count", 7), ("content_hash", None)],
)
def test_every_summary_column_is_compared(
    app: Flask, runner: FlaskCliRunner, column: str, value: Any
) -> None:
    match_id = new_match(app)
    with app.app_context():
        db.session.execute(sa.update(Match).where(Match.id == match_id).values({column: value}))
        db.session.commit()
    result = runner.invoke(args=["check"])
    assert result.exit_code == 1
    assert f"match {match_id}: {column}: stored " in result.output
    assert runner.invoke(args=["check", "--fix"]).exit_code == 0
    assert runner.invoke(args=["check"]).exit_code == 0


def test_fix_mends_what_it_can_and_reports_the_rest(app: Flask, runner: FlaskCliRunner) -> None:
    broken, stale = new_match(app), new_match(app)
    nine_red_threes(app, broken)
    wrong_total(app, stale)
    fixed = runner.invoke(args=["check", "--fix"])
    assert fixed.exit_code == 1
    assert "fixed 1 summary" in fixed.output
    assert "cannot be fixed automatically" in fixed.output
    again = runner.invoke(args=["check"])
    assert again.exit_code == 1
    assert f"match {broken}: hands[0].sides[0].red_threes" in again.output
    assert f"match {stale}:" not in again.output


def test_statements_per_batch_are_fixed(app: Flask) -> None:
    """Screening a batch takes four statements; the batch's suspects take four more to
    read again and, with fix, one to lock and one to write, however many there are."""
    with app.app_context():
        demo.seed(40)
        ids = list(db.session.scalars(sa.select(Match.id).order_by(Match.id)))
        # Batch 1 (ids 1-10) has one stale match, batch 2 has four, batches 3 and 4 none.
        for match_id in (ids[3], ids[11], ids[12], ids[15], ids[19]):
            db.session.execute(sa.update(Match).where(Match.id == match_id).values(winner=9))
        db.session.commit()
        db.session.remove()
    with count_statements(app) as statements, app.app_context():
        report = integrity.check(fix=True, batch=10)
    assert (report.checked, report.stale, report.fixed) == (40, 5, 5)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE")]
    # 4 batches and the empty read that ends them; 2 batches with suspects.
    assert len(selects) == 4 * 4 + 1 + 2 * 4
    assert len(updates) == 2 * 2
    with app.app_context():
        assert integrity.check().clean


# The pages of a broken match


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_the_match_page_says_what_is_wrong(app: Flask, client: FlaskClient, breakage: str) -> None:
    match_id = new_match(app)
    BREAKAGES[breakage](app, match_id)
    response = client.get(f"/partidas/{match_id}")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Esta partida no se puede leer" in page
    assert SPANISH[breakage] in page
    assert f'href="/partidas/{match_id}/exportar"' in page
    assert "\x01" not in page
    client.get("/idioma/en")
    english = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "This match cannot be read" in english
    assert "Download the stored match file" in english


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_no_page_of_a_broken_match_fails(app: Flask, client: FlaskClient, breakage: str) -> None:
    match_id = new_match(app)
    BREAKAGES[breakage](app, match_id)
    version = str(version_of(app, match_id))
    base = f"/partidas/{match_id}"
    hand = {"closer": "none", "s0_table_points": "100", "version": version}
    requests = [
        ("GET", base, {}),
        ("GET", f"{base}/manos/nueva", {}),
        ("POST", f"{base}/manos/nueva", {**hand, "request_key": "k1"}),
        ("POST", f"{base}/manos/nueva", {**hand, "action": "preview"}),
        ("GET", f"{base}/manos/1", {}),
        ("POST", f"{base}/manos/1", hand),
        ("POST", f"{base}/manos/2/borrar", {}),
        ("POST", f"{base}/manos/2/borrar", {"confirm": "1", "version": version}),
        ("POST", f"{base}/deshacer", {}),
        ("POST", f"{base}/deshacer", {"confirm": "1", "version": version}),
        ("POST", f"{base}/abandonar", {"abandoned": "1", "version": version}),
        ("GET", f"{base}/planilla.pdf", {}),
    ]
    for method, url, data in requests:
        response = client.open(url, method=method, data=data)
        assert response.status_code == 409, (method, url, data, response.status_code)
        assert "Esta partida no se puede leer" in response.get_data(as_text=True)
    preview = client.post(f"{base}/manos/vista-previa", data=hand)
    assert preview.status_code == 409
    assert preview.get_json()["ok"] is False
    assert preview.get_json()["problems"][0]["severity"] == "error"
    with app.app_context():
        assert len(services.queries.load_match(match_id).hands) == 2  # nothing was written


def test_the_export_of_a_broken_match_is_the_stored_file(app: Flask, client: FlaskClient) -> None:
    match_id = new_match(app)
    nine_red_threes(app, match_id)
    response = client.get(f"/partidas/{match_id}/exportar")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    document = response.get_json()
    assert document["hands"][0]["sides"][0]["red_threes"] == 9  # as stored, not normalised
    with app.app_context():
        assert document == services.documents.match_document(services.queries.load_match(match_id))
    # Corrected, it imports as a new match.
    document["hands"][0]["sides"][0]["red_threes"] = 1
    create_stored_match(app, document)


def test_a_fine_match_still_exports_every_default(app: Flask, client: FlaskClient) -> None:
    match_id = new_match(app)
    document = client.get(f"/partidas/{match_id}/exportar").get_json()
    with app.app_context():
        assert document == services.matches.export_document(services.queries.load_match(match_id))


def test_fix_makes_a_cached_page_show_a_match_broken_behind_its_back(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    """An SQL edit changes neither the version nor the content hash, so the planilla kept for
    that state is still shown; ``check --fix`` refreshes the hash and the version, and the
    page then says what is wrong."""
    match_id = new_match(app)
    assert client.get(f"/partidas/{match_id}").status_code == 200
    nine_red_threes(app, match_id)
    assert client.get(f"/partidas/{match_id}").status_code == 200  # the kept planilla
    result = runner.invoke(args=["check", "--fix"])
    assert "refreshed the content hash of 1" in result.output
    assert client.get(f"/partidas/{match_id}").status_code == 409
