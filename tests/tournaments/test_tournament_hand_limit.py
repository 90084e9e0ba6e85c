"""A tournament table's hand limit travels in its match file: what the phone's outbox and
offline engine read says the round's hands, and the engine ends the match after them as the
server does (the server path unchanged: finished after the hands, one more refused)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from test_hands import record
from test_tournament_web import FORM_HAND
from test_tournament_web import PAIRS
from test_tournament_web import add_pairs
from test_tournament_web import create
from test_tournament_web import started_table
from test_tournament_web import table_ids

from anotador import rules
from anotador import services
from anotador.backup import match_file
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.tournaments.store.models import RoundTable


def test_the_phone_reads_the_rounds_hands_and_its_engine_ends_the_match(
    app: Flask, client: FlaskClient
):
    _, match_id = started_table(app, client, "2")
    outbox = client.get(f"/partidas/{match_id}/manos/pendientes").get_json()
    document = outbox["document"]
    assert document["hand_limit"] == 2
    assert record(client, match_id, FORM_HAND).status_code == 302
    assert record(client, match_id, FORM_HAND).status_code == 302
    # What the offline engine does with the phone's copy: over after the round's hands,
    # won by the pair ahead, and a third hand refused as after the end.
    document = client.get(f"/partidas/{match_id}/manos/pendientes").get_json()["document"]
    game, _ = rules.read_match(document)
    assert game is not None
    score = rules.score_match(game)
    assert (score.finished, score.winner) == (True, 0)
    _, _, problems = rules.append_hand(game, score, document["hands"][0])
    assert [(p.path, p.code) for p in problems] == [("hands[2]", "after_game_end")]
    # The server agrees: finished, the same winner, one more hand refused.
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert (match.status, match.winner, match.hand_count) == ("finished", 0, 2)
        assert match_file(match)["hand_limit"] == 2
    assert client.get(f"/partidas/{match_id}/manos/nueva").status_code in (302, 303)
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        outcome = services.hands.record_hand(match, document["hands"][0], match.version, None)
        assert [p.code for p in outcome.problems] == ["after_game_end"]
        assert db.session.get(Match, match_id).hand_count == 2  # type: ignore[union-attr]


def test_a_round_to_the_target_writes_no_limit(app: Flask, client: FlaskClient):
    tournament_id = create(client, variant="uruguaya", hands_per_round="", scale="wdl")
    add_pairs(client, tournament_id, {k: PAIRS[k] for k in "AB"})
    client.post(f"/torneos/{tournament_id}/rondas")
    client.post(f"/torneos/{tournament_id}/rondas/1/empezar")
    with app.app_context():
        match_id = db.session.get(RoundTable, table_ids(app, tournament_id, 1)[1]).match_id  # type: ignore[union-attr]
    document = client.get(f"/partidas/{match_id}/manos/pendientes").get_json()["document"]
    assert "hand_limit" not in document


def test_a_rematch_of_a_tables_match_is_played_to_the_target(app: Flask, client: FlaskClient):
    _, match_id = started_table(app, client, "1")
    assert record(client, match_id, FORM_HAND).status_code == 302
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert match.status == "finished"
        again = services.matches.rematch(match)
        db.session.commit()
        assert again.hand_limit is None
        assert "hand_limit" not in match_file(again)


def test_a_table_made_before_its_file_held_the_limit_is_put_right_by_check_fix(
    app: Flask, client: FlaskClient
):
    _, match_id = started_table(app, client, "1")
    assert record(client, match_id, FORM_HAND).status_code == 302
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        older = services.documents.match_document(match)
        older.pop("hand_limit")
        # As such a table was stored: finished by the server's count, no winner, its hash
        # of a file without the limit.
        match.winner = None
        match.content_hash = services.documents.content_hash(older)
        db.session.commit()
    runner = app.test_cli_runner()
    assert runner.invoke(args=["check"]).exit_code != 0
    assert runner.invoke(args=["check", "--fix"]).exit_code == 0
    assert runner.invoke(args=["check"]).exit_code == 0
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert (match.status, match.winner) == ("finished", 0)
