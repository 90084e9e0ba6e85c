"""A match holds at most ``rules.MAX_HANDS`` hands: a file with more is refused with a message
at import (the page and ``anotador score``) and at restore, before any hand is read, and a
match at the limit takes no more (the hand form, the outbox), and nothing is stored."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from stored import create_stored_match
from stored import match_document
from test_hands import fresh_form

from anotador import backup
from anotador import rules
from anotador.commands.main import main
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match

#: A hand that scores nothing: two thousand of them never end a match.
QUIET = {"end": "stock_out", "sides": [{}, {}]}
#: A hand that scores, as the hand form sends it.
FORM_HAND = {"closer": "0", "s0_clean": "1", "s0_table_points": "200", "s1_table_points": "100"}
OUTBOX_HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [{"clean": 1, "table_points": 200}, {"table_points": 100}],
}


def document(hands: int, hand: Any = QUIET) -> dict[str, Any]:
    return match_document("uruguaya", hands=[hand] * hands, options={"target": 1_000_000})


def test_a_match_of_the_most_hands_is_read_and_one_more_is_refused_unread():
    assert rules.MAX_HANDS >= 2000
    game, problems = rules.read_match(document(rules.MAX_HANDS))
    assert game is not None
    assert problems == []
    # Hands that are no hands at all: refused for their count alone.
    game, problems = rules.read_match(document(rules.MAX_HANDS + 1, hand="?"))
    assert game is None
    assert problems == [rules.Problem("hands", "too_many_hands", {"maximum": rules.MAX_HANDS})]


def test_appending_past_the_limit_says_what_reading_the_longer_file_says():
    game, _ = rules.read_match(document(rules.MAX_HANDS))
    assert game is not None
    changed = rules.append_hand(game, rules.score_match(game), QUIET)
    assert changed == (None, None, rules.read_match(document(rules.MAX_HANDS + 1))[1])
    # Replacing a hand of a full match is still a correction like any other.
    game, score, _ = rules.replace_hand(game, rules.score_match(game), 0, OUTBOX_HAND)
    assert game is not None
    assert score is not None


def test_anotador_score_refuses_too_many_hands(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps(document(rules.MAX_HANDS + 1)))
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 2
    assert f"hands: A match holds at most {rules.MAX_HANDS} hands." in result.stderr


def test_anotador_import_refuses_too_many_hands(app: Flask, runner: FlaskCliRunner, tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps(document(rules.MAX_HANDS + 1)))
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 2
    assert f"A match holds at most {rules.MAX_HANDS} hands." in result.stderr
    assert match_count(app) == 0


def match_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(Match)) or 0


def hand_count(app: Flask, match_id: int) -> int:
    with app.app_context():
        count = sa.select(sa.func.count()).where(Hand.match_id == match_id)
        return db.session.scalar(count) or 0


def test_importing_a_file_of_too_many_hands_is_refused_in_the_users_language(
    app: Flask, client: FlaskClient
):
    content = json.dumps(document(rules.MAX_HANDS + 1)).encode()
    response = client.post(
        "/partidas/importar", data={"file": (io.BytesIO(content), "partida.json")}
    )
    assert response.status_code == 422
    assert f"Una partida tiene como máximo {rules.MAX_HANDS} manos." in response.get_data(
        as_text=True
    )
    assert match_count(app) == 0


def test_a_restore_reports_a_match_of_too_many_hands_and_keeps_the_others(app: Flask):
    lines = [
        json.dumps({"format": backup.BACKUP_FORMAT}),
        json.dumps(document(rules.MAX_HANDS + 1)),
        json.dumps(document(2)),
    ]
    with app.app_context():
        report = backup.import_stream(io.BytesIO("\n".join(lines).encode()))
    assert (report.created, report.invalid) == (1, 1)
    ((number, problems),) = report.problems
    assert number == 2
    assert [problem.code for problem in problems] == ["too_many_hands"]
    assert match_count(app) == 1


@pytest.fixture
def full_match(app: Flask) -> int:
    return create_stored_match(app, document(rules.MAX_HANDS))


def test_the_hand_form_refuses_a_hand_past_the_limit(
    app: Flask, client: FlaskClient, full_match: int
):
    data = {**fresh_form(client, full_match), **FORM_HAND}
    response = client.post(f"/partidas/{full_match}/manos/nueva", data=data)
    assert response.status_code == 422
    assert f"Una partida tiene como máximo {rules.MAX_HANDS} manos." in response.get_data(
        as_text=True
    )
    assert hand_count(app, full_match) == rules.MAX_HANDS


def test_the_outbox_refuses_a_hand_past_the_limit(app: Flask, client: FlaskClient, full_match: int):
    body = {"request_key": "1" * 32, "number": rules.MAX_HANDS + 1, "hand": OUTBOX_HAND}
    answer = client.post(
        f"/partidas/{full_match}/manos/pendientes", json=body, headers={"Accept-Language": "it"}
    )
    assert answer.status_code == 422
    assert answer.get_json()["message"] == (
        f"Una partita contiene al massimo {rules.MAX_HANDS} mani."
    )
    assert hand_count(app, full_match) == rules.MAX_HANDS
