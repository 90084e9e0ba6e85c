"""A round of N hands plays its N hands (issue 38, item 2): with no target set by the
director, a table that passes the variant's target after two hands of three goes on; with a
target set, the target still ends it first. The rule is the engine's (the match file's
``play_every_hand``), so an offline phone's engine plays it the same."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient
from test_tournament_web import started_table

from anotador import rules
from anotador import services
from anotador.services.documents import match_document
from anotador.storage.database import db
from anotador.storage.models import Match

#: A uruguaya hand of NS worth more than half the target of 5,000.
BIG = {"end": "closed", "closer": 0, "sides": [{"clean": 5, "table_points": 1000}, {}]}


def table_after(app: Flask, client: FlaskClient, hands: int, **fields: str) -> Match:
    """Round 1's table of a uruguaya tournament of 3 hands a round, after ``hands`` BIG hands."""
    _tournament_id, match_id = started_table(app, client, "3", **fields)
    with app.app_context():
        for _ in range(hands):
            match = db.session.get(Match, match_id)
            assert match is not None
            outcome = services.hands.record_hand(match, BIG, match.version, None)
            assert outcome.ok, outcome.problems
        match = db.session.get(Match, match_id)
        assert match is not None
        db.session.expunge(match)
        return match


def test_a_round_of_three_hands_with_no_target_plays_its_three(app: Flask, client: FlaskClient):
    match = table_after(app, client, 2)
    assert match.totals[0] > 5000
    assert match.status == "ongoing"
    with app.app_context():
        document = match_document(db.session.get(Match, match.id))  # type: ignore[arg-type]
    assert document["hand_limit"] == 3
    assert document["play_every_hand"] is True
    game, _ = rules.read_match(json.loads(json.dumps(document)))
    assert game is not None
    assert not rules.score_match(game).finished
    assert table_after(app, client, 3).status == "finished"


def test_a_round_with_a_target_still_ends_at_it(app: Flask, client: FlaskClient):
    match = table_after(app, client, 2, target="5000")
    assert match.status == "finished"
