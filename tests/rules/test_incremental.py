"""``append_hand`` / ``replace_hand`` always give what reading and scoring the whole changed
match file gives: the same match (warnings included), the same score and the same problems,
in the same order, for valid hands, broken ones, a hand that now ends the game early (the
later hands are then after the end) and a hand after the end."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from test_properties import NUMBER_CHANGES
from test_properties import OTHER_TYPES
from test_properties import SETUP_IDS
from test_properties import SETUPS
from test_properties import hands
from test_properties import valid_documents

from anotador.rules import Rules
from anotador.rules import append_hand
from anotador.rules import make_rules
from anotador.rules import read_match
from anotador.rules import replace_hand
from anotador.rules import score_match
from anotador.rules.variant import MAX_POINTS

PER_SETUP = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def new_hands(draw: st.DrawFn, rules: Rules) -> object:
    """A hand as a form or a file could bring it: valid, one that reaches the target at
    once, one with a field broken, or not a hand at all."""
    kind = draw(st.sampled_from(["valid", "valid", "winning", "broken", "junk"]))
    if kind == "junk":
        return draw(OTHER_TYPES)
    hand = draw(hands(rules))
    side = draw(st.integers(0, len(hand["sides"]) - 1))
    if kind == "winning":
        hand["sides"][side]["adjustment"] = min(MAX_POINTS, 5 * (rules.target // 5) + 5000)
    elif kind == "broken":
        entry = hand["sides"][side]
        key = draw(st.sampled_from([*entry, "end", "sides", "extra"]))
        if key in entry:
            entry[key] = draw(st.one_of(OTHER_TYPES, NUMBER_CHANGES))
        else:
            hand[key] = draw(OTHER_TYPES)
    return hand


def check_same_as_a_full_read(document: dict[str, Any], index: int, raw: object) -> None:
    game, _problems = read_match(document)
    assert game is not None
    score = score_match(game)
    changed = copy.deepcopy(document)
    if index == len(changed["hands"]):
        changed["hands"].append(copy.deepcopy(raw))
    else:
        changed["hands"][index] = copy.deepcopy(raw)
    expected, expected_problems = read_match(changed)

    new_game, new_score, problems = replace_hand(game, score, index, raw)

    assert problems == expected_problems
    if expected is None:
        assert new_game is None
        assert new_score is None
        return
    assert new_game == expected
    assert new_game is not None
    assert new_score is not None
    assert new_game.warnings == expected.warnings
    assert new_score == score_match(expected)
    # The reading it started from is untouched (a value, shared with the app's cache).
    assert score_match(game) is score
    again, _ = read_match(document)
    assert again is not None
    assert game.hands == again.hands


@pytest.mark.parametrize("setup", SETUPS, ids=SETUP_IDS)
@PER_SETUP
@given(data=st.data())
def test_replace_hand_is_a_full_read_of_the_changed_file(
    setup: tuple[str, str], data: st.DataObject
):
    document = data.draw(valid_documents(setup, max_hands=8))
    rules = make_rules(document["variant"], document["layout"], document["options"])
    index = data.draw(st.integers(0, len(document["hands"])))
    check_same_as_a_full_read(document, index, data.draw(new_hands(rules)))


@pytest.mark.parametrize("setup", SETUPS, ids=SETUP_IDS)
@PER_SETUP
@given(data=st.data())
def test_append_hand_is_a_full_read_of_the_longer_file(setup: tuple[str, str], data: st.DataObject):
    document = data.draw(valid_documents(setup, max_hands=8))
    rules = make_rules(document["variant"], document["layout"], document["options"])
    raw = data.draw(new_hands(rules))
    game, _problems = read_match(document)
    assert game is not None
    appended = append_hand(game, score_match(game), raw)
    assert appended == replace_hand(game, score_match(game), len(game.hands), raw)
    check_same_as_a_full_read(document, len(document["hands"]), raw)


def test_a_hand_that_now_ends_the_game_puts_the_later_hands_after_the_end():
    side = {"table_points": 50, "hand_points": 45}
    document = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "sides": [{"name": "A"}, {"name": "B"}],
        "hands": [{"end": "stock_out", "sides": [side, side]} for _ in range(4)],
    }
    game, _ = read_match(document)
    assert game is not None
    winning = {"end": "stock_out", "sides": [{**side, "adjustment": 10_000}, side]}
    new_game, new_score, problems = replace_hand(game, score_match(game), 1, winning)
    assert new_game is None
    assert new_score is None
    assert [(p.path, p.code) for p in problems if p.severity == "error"] == [
        ("hands[2]", "after_game_end"),
        ("hands[3]", "after_game_end"),
    ]
    # ... and the last hand can be made the winning one.
    last_game, last_score, _ = replace_hand(game, score_match(game), 3, winning)
    assert last_game is not None
    assert last_score is not None
    assert last_score.ended_at == 3
    after_game, _, after = append_hand(last_game, last_score, document["hands"][0])
    assert after_game is None
    assert [(p.path, p.code) for p in after if p.severity == "error"] == [
        ("hands[4]", "after_game_end")
    ]


def test_an_index_beyond_the_next_hand_is_refused():
    game, _ = read_match(
        {
            "format": "anotador-match/1",
            "variant": "uruguaya",
            "sides": [{"name": "A"}, {"name": "B"}],
            "hands": [],
        }
    )
    assert game is not None
    with pytest.raises(IndexError):
        replace_hand(game, score_match(game), 1, {})
