"""The incremental hand save: with this version's reading in the ``scores`` cache, a save
reads only the changed hand, issues as many statements at 40 hands as at 2, and gives what
the full path (the whole match re-read) gives: the same outcome, the same stored match and
the same cached reading. Also: hand form classes are shared, side names are not."""

from __future__ import annotations

import copy
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements

from anotador import rules
from anotador import services
from anotador.rules import incremental
from anotador.services.documents import match_document
from anotador.storage import caching
from anotador.storage.models import Match
from anotador.web.forms.hand import form_class

SMALL = {"end": "stock_out", "sides": [{"table_points": 50, "hand_points": 45}] * 2}
WINNING = {
    "end": "stock_out",
    "sides": [{"table_points": 50, "hand_points": 45, "adjustment": 6000}, SMALL["sides"][1]],
}
BROKEN = {"end": "closed", "closer": 0, "sides": [{"red_threes": 99}, {}]}
WARNED = {"end": "closed", "closer": 0, "sides": [{"clean": 2, "table_points": 20}, {}]}
FORM = {
    "closer": "none",
    "s0_table_points": "60",
    "s0_hand_points": "40",
    "s1_table_points": "55",
    "s1_hand_points": "45",
}


def create(app: Flask, hands: list[dict[str, Any]], names: tuple[str, str] = ("A", "B")) -> int:
    document = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "sides": [{"name": names[0], "players": ["Ana"]}, {"name": names[1]}],
        "hands": hands,
    }
    with app.app_context():
        match, problems = services.matches.create_match(document)
        assert match is not None, problems
        return match.id


def load(match_id: int) -> Match:
    match = services.queries.load_match(match_id)
    assert match is not None
    return match


def snapshot(match_id: int) -> dict[str, Any]:
    """What is stored of a match (but its id), and its cached reading."""
    match = load(match_id)
    document = match_document(match)
    cached = services.matches.cached(match)
    game, problems = rules.read_match(document)
    assert game is not None, problems
    assert cached is not None
    assert cached.game == game
    assert cached.game.warnings == game.warnings
    assert cached.score == rules.score_match(game)
    return {
        "document": document,
        "summary": (match.totals, match.status, match.winner, match.hand_count),
        "version": match.version,
    }


Change = Callable[[Match], services.hands.Outcome]

CASES: dict[str, tuple[list[dict[str, Any]], Change]] = {
    "append": (
        [SMALL] * 5,
        lambda m: services.hands.record_hand(m, SMALL, m.version, "k1"),
    ),
    "append with a warning": (
        [SMALL] * 5,
        lambda m: services.hands.record_hand(m, WARNED, m.version, "k1"),
    ),
    "append refused": (
        [SMALL, WARNED, SMALL],
        lambda m: services.hands.record_hand(m, BROKEN, m.version, "k1"),
    ),
    "append after the end": (
        [SMALL, WINNING],
        lambda m: services.hands.record_hand(m, SMALL, m.version, "k1"),
    ),
    "append the winning hand": (
        [SMALL] * 3,
        lambda m: services.hands.record_hand(m, WINNING, m.version, "k1"),
    ),
    "edit a middle hand": (
        [SMALL, WARNED, SMALL, WARNED, SMALL],
        lambda m: services.hands.edit_hand(m, 3, WARNED, m.version),
    ),
    "edit a warned hand to a clean one": (
        [SMALL, WARNED, SMALL, WARNED, SMALL],
        lambda m: services.hands.edit_hand(m, 2, SMALL, m.version),
    ),
    "edit that ends the game earlier": (
        [SMALL] * 5,
        lambda m: services.hands.edit_hand(m, 2, WINNING, m.version),
    ),
    "edit the last hand to win": (
        [SMALL] * 5,
        lambda m: services.hands.edit_hand(m, 5, WINNING, m.version),
    ),
    "edit refused": (
        [SMALL, WARNED, SMALL],
        lambda m: services.hands.edit_hand(m, 2, BROKEN, m.version),
    ),
    "stale version": (
        [SMALL] * 3,
        lambda m: services.hands.edit_hand(m, 2, SMALL, m.version - 1),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_incremental_save_equals_the_full_path(
    app: Flask, monkeypatch: pytest.MonkeyPatch, case: str
):
    hands, change = CASES[case]
    warm, cold = create(app, copy.deepcopy(hands)), create(app, copy.deepcopy(hands))
    full_reads = count_calls(monkeypatch, rules, "read_match")
    with app.app_context():
        services.matches.score(load(warm))  # as the form's page did: this version is cached
        full_reads.clear()
        warm_outcome = change(load(warm))
        assert full_reads == []  # only the changed hand was read
        caching.caches().clear()
        cold_outcome = change(load(cold))
        assert len(full_reads) == 1
        assert warm_outcome == cold_outcome
        # After a refused change nothing is stored, and the full reading is cached then.
        services.matches.score(load(warm))
        services.matches.score(load(cold))
        assert snapshot(warm) == snapshot(cold)


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[object]:
    calls: list[object] = []
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_preview_reads_only_the_changed_hand(app: Flask, monkeypatch: pytest.MonkeyPatch):
    match_id = create(app, [SMALL] * 9 + [WARNED] + [SMALL] * 10)
    with app.app_context():
        services.matches.score(load(match_id))
        full_reads = count_calls(monkeypatch, rules, "read_match")
        hand_reads = count_calls(monkeypatch, incremental, "read_hand")
        for number in (None, 1, 7, 20):
            score, problems = services.hands.preview_hand(load(match_id), WINNING, number)
            caching.caches().clear()
            expected = services.hands.preview_hand(load(match_id), WINNING, number)
            assert (score, problems) == expected
            services.matches.score(load(match_id))
    assert len(hand_reads) == 4
    assert len(full_reads) == 4 + 4  # the four full previews, and the four re-cachings


def test_a_save_through_the_form_reads_one_hand(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    match_id = create(app, [SMALL] * 40)
    with app.app_context():
        version = load(match_id).version
    client.get(f"/partidas/{match_id}/manos/nueva")
    full_reads = count_calls(monkeypatch, rules, "read_match")
    hand_reads = count_calls(monkeypatch, incremental, "read_hand")
    data = {**FORM, "version": str(version), "request_key": "a" * 32, "action": "save"}

    response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)

    assert response.status_code == 302
    assert full_reads == []
    assert len(hand_reads) == 1
    with app.app_context():
        assert load(match_id).hand_count == 41


def statements_of_a_save(app: Flask, client: FlaskClient, hands: int) -> int:
    match_id = create(app, [SMALL] * (hands - 1))
    with app.app_context():
        version = load(match_id).version
    client.get(f"/partidas/{match_id}/manos/nueva")
    data = {**FORM, "version": str(version), "request_key": f"{hands:032x}", "action": "save"}
    with count_statements(app) as statements:
        response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)
    assert response.status_code == 302
    return len(statements)


def test_a_save_at_40_hands_issues_no_more_statements_than_at_2(app: Flask, client: FlaskClient):
    assert statements_of_a_save(app, client, 40) <= statements_of_a_save(app, client, 2)


def test_form_classes_are_shared_and_names_are_not(app: Flask, client: FlaskClient):
    first = create(app, [], ("Leones", "Tigres"))
    second = create(app, [], ("Pumas", "Osos"))
    form_class.cache_clear()
    first_page = client.get(f"/partidas/{first}/manos/nueva").get_data(as_text=True)
    second_page = client.get(f"/partidas/{second}/manos/nueva").get_data(as_text=True)
    client.get("/idioma/en")
    english = client.get(f"/partidas/{second}/manos/nueva").get_data(as_text=True)

    assert form_class.cache_info().misses == 1
    assert "Leones" in first_page
    assert "Leones" not in second_page
    assert "Tigres" not in second_page
    assert "Pumas" in second_page
    assert "Osos" in second_page
    # Labels are translated per request, not frozen in the shared class.
    assert "Comodines (50)" in second_page
    assert "Jokers (50)" in english
    assert "Comodines" not in english


def test_a_warm_save_reads_none_of_the_earlier_hands(app: Flask, client: FlaskClient):
    """With this version's reading cached, recording a hand posted by the form neither
    reads the stored hands nor the match row again after its commit."""
    match_id = create(app, [SMALL] * 30)
    with app.app_context():
        services.matches.score(load(match_id))
        version = load(match_id).version
    data = {**FORM, "version": str(version), "request_key": uuid.uuid4().hex, "action": "save"}
    with count_statements(app) as statements:
        response = client.post(f"/partidas/{match_id}/manos/nueva", data=data)
    assert response.status_code == 302
    hand_reads = [s for s in statements if s.startswith("SELECT") and "hand.inputs" in s]
    # "match" is quoted on SQLite only (a keyword there).
    match_reads = [s for s in statements if re.match(r'SELECT "?match"?\.', s)]
    assert hand_reads == []
    assert len(match_reads) == 1  # the access check's
    with app.app_context():
        assert load(match_id).hand_count == 31
        assert snapshot(match_id)["version"] == version + 1
