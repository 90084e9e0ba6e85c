"""A match played to a number of hands (a tournament's round, the match file's ``hand_limit``):
the engine ends it after them, the highest total winning and a tie shared; the target still
ends it first; a hand past the end is refused; a file without the key reads as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from anotador import rules

NS = {
    "end": "closed",
    "closer": 0,
    "sides": [{"clean": 2, "table_points": 400}, {"table_points": 100}],
}
EW = {
    "end": "closed",
    "closer": 1,
    "sides": [{"table_points": 100}, {"clean": 2, "table_points": 400}],
}
QUIET = {"end": "stock_out", "sides": [{}, {}]}  # nobody scores


def document(hands: list[Any], limit: Any = None, **options: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "format": rules.MATCH_FORMAT,
        "variant": "uruguaya",
        "layout": "2p",
        "options": options,
        "sides": [{"name": "NS", "players": ["Ana"]}, {"name": "EW", "players": ["Beto"]}],
        "hands": hands,
    }
    if limit is not None:
        found["hand_limit"] = limit
    return found


@pytest.mark.parametrize(
    ("hands", "limit", "options", "finished", "winner", "ended_at"),
    [
        # The limit reached ends the match: the highest total wins.
        ([NS, NS], 2, {}, True, 0, 1),
        ([NS, EW, EW], 3, {}, True, 1, 2),
        # Before the limit it goes on.
        ([NS], 2, {}, False, None, None),
        ([], 1, {}, False, None, None),
        # A tie at the limit is shared, whatever the tie policy: a round adds no hand.
        ([QUIET], 1, {"tie": "extra_hand"}, True, None, 0),
        ([NS, EW], 2, {"tie": "shared"}, True, None, 1),
        # The target still ends the match first.
        ([NS], 3, {"target": 100}, True, 0, 0),
        # Without a limit, the same hands leave the match going on.
        ([NS, NS], None, {}, False, None, None),
        ([QUIET], None, {}, False, None, None),
    ],
)
def test_the_limit_ends_the_match(hands, limit, options, finished, winner, ended_at):
    game, problems = rules.read_match(document(hands, limit, **options))
    assert game is not None, problems
    score = rules.score_match(game)
    assert (score.finished, score.winner, score.ended_at) == (finished, winner, ended_at)


def test_a_hand_past_the_limit_is_refused_as_after_the_end():
    game, problems = rules.read_match(document([NS, NS, NS], 2))
    assert game is None
    assert [(p.path, p.code) for p in problems] == [("hands[2]", "after_game_end")]
    # Appending to a full round says what reading the longer file says.
    game, _ = rules.read_match(document([NS, NS], 2))
    assert game is not None
    changed = rules.append_hand(game, rules.score_match(game), NS)
    assert changed == (None, None, problems)


def test_appending_the_last_hand_scores_as_reading_the_whole_file():
    game, _ = rules.read_match(document([NS], 2))
    assert game is not None
    changed, score, _ = rules.append_hand(game, rules.score_match(game), EW)
    whole, _ = rules.read_match(document([NS, EW], 2))
    assert whole is not None
    assert changed == whole
    assert score == rules.score_match(whole)


@pytest.mark.parametrize(
    ("limit", "code"),
    [
        (0, "below_minimum"),
        (rules.MAX_HANDS + 1, "above_maximum"),
        ("2", "wrong_type"),
        (True, "wrong_type"),
    ],
)
def test_a_bad_limit_is_a_problem(limit, code):
    game, problems = rules.read_match(document([], limit))
    assert game is None
    assert [(p.path, p.code) for p in problems] == [("hand_limit", code)]


def test_the_file_writes_the_limit_only_when_there_is_one():
    game, _ = rules.read_match(document([NS], 2))
    assert game is not None
    assert rules.match_to_document(game)["hand_limit"] == 2
    plain, _ = rules.read_match(document([NS]))
    assert plain is not None
    assert "hand_limit" not in rules.match_to_document(plain)


def test_anotador_score_says_the_round_is_over():
    from anotador.rules.api import score_document

    scored = score_document(json.dumps(document([NS, EW, EW], 3)))
    assert scored["problems"] == []
    assert (scored["result"]["finished"], scored["result"]["winner"]) == (True, 1)


def every_hand(hands: list[Any], limit: int | None, **options: Any) -> dict[str, Any]:
    """A round of ``limit`` hands that plays them all (``play_every_hand``)."""
    return {**document(hands, limit, **options), "play_every_hand": True}


@pytest.mark.parametrize(
    ("hands", "finished", "winner", "ended_at"),
    [
        # A round of 3 hands with no target plays its 3, past the target too (issue 38).
        ([NS], False, None, None),
        ([NS, NS], False, None, None),
        ([NS, NS, EW], True, 0, 2),
        ([NS, EW, EW], True, 1, 2),
    ],
)
def test_a_round_that_plays_every_hand_is_not_ended_by_the_target(
    hands, finished, winner, ended_at
):
    game, problems = rules.read_match(every_hand(hands, 3, target=100))
    assert game is not None, problems
    score = rules.score_match(game)
    assert (score.finished, score.winner, score.ended_at) == (finished, winner, ended_at)
    # The file says it, and reads back the same.
    written = rules.match_to_document(game)
    assert written["play_every_hand"] is True
    assert rules.read_match(written)[0] == game


def test_playing_every_hand_needs_a_limit_and_a_boolean():
    game, problems = rules.read_match(every_hand([], None))
    assert game is None
    assert [(p.path, p.code) for p in problems] == [("play_every_hand", "needs_hand_limit")]
    game, problems = rules.read_match({**document([], 2), "play_every_hand": 1})
    assert game is None
    assert [(p.path, p.code) for p in problems] == [("play_every_hand", "wrong_type")]
    plain, _ = rules.read_match({**document([NS], 2), "play_every_hand": False})
    assert plain is not None
    assert "play_every_hand" not in rules.match_to_document(plain)
