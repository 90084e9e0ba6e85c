"""The use cases (anotador.services) under concurrency and replay, and the match_changed
signal: sent once, after the commit, for every change to a match; never for a write that
was refused or lost to another phone."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from stored import create_stored_match
from stored import match_document

from anotador import backup
from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.storage.caching import caches
from anotador.storage.caching import match_key
from anotador.storage.database import db
from anotador.storage.models import Match
from anotador.storage.signals import match_changed


def document(**changes: Any) -> dict[str, Any]:
    sides = [
        {"name": "Nosotros", "players": ["Ana", "Carla"]},
        {"name": "Ellos", "players": ["Beto", "Dani"]},
    ]
    return match_document(**{"layout": "4p", "sides": sides, **changes})


def quiet_hand(table: int = 50, hand: int = 40) -> dict[str, Any]:
    """A stock-out hand worth table − hand to each side."""
    side = {"clean": 0, "dirty": 0, "table_points": table, "hand_points": hand, "red_threes": 0}
    return {"end": "stock_out", "sides": [dict(side), dict(side)]}


#: A hand the engine refuses (more red threes than there are).
REFUSED = {**quiet_hand(), "sides": [{**quiet_hand()["sides"][0], "red_threes": 9}] * 2}


def create(app: Flask, hands: int = 0, **changes: Any) -> int:
    return create_stored_match(app, document(hands=[quiet_hand()] * hands, **changes))


def load(match_id: int) -> Match:
    match = services.queries.load_match(match_id)
    assert match is not None
    return match


@contextmanager
def sent(app: Flask) -> Iterator[list[tuple[tuple[int, ...], str]]]:
    """The (match_ids, change) of every match_changed the app sends meanwhile, each checked
    to come after the commit (the change is visible to another session)."""
    seen: list[tuple[tuple[int, ...], str]] = []

    def receive(sender: Flask, match_ids: tuple[int, ...], change: str) -> None:
        assert sender is app
        assert not db.session.new
        assert not db.session.dirty
        assert not db.session.deleted
        seen.append((match_ids, change))

    with match_changed.connected_to(receive, sender=app):
        yield seen


# The signal: once per change


def test_creating_a_match_sends_it_once(app: Flask) -> None:
    with sent(app) as seen:
        match_id = create(app)
    assert seen == [((match_id,), "created")]


def test_a_match_left_pending_sends_nothing(app: Flask) -> None:
    with sent(app) as seen, app.app_context():
        match, _ = services.matches.create_match(document(), commit=False)
        assert match is not None
        db.session.rollback()
    assert seen == []


def test_every_hand_change_sends_it_once(app: Flask) -> None:
    match_id = create(app)
    with sent(app) as seen, app.app_context():
        match = load(match_id)
        assert services.hands.record_hand(match, quiet_hand(), match.version, "k1").ok
        match = load(match_id)
        assert services.hands.record_hand(match, quiet_hand(), match.version, "k2").ok
        match = load(match_id)
        assert services.hands.edit_hand(match, 1, quiet_hand(table=100), match.version).ok
        match = load(match_id)
        assert services.hands.delete_hand(match, 1, match.version).ok
        match = load(match_id)
        assert services.hands.undo_last_hand(match, match.version).ok
    assert seen == [
        ((match_id,), "hand_recorded"),
        ((match_id,), "hand_recorded"),
        ((match_id,), "hand_edited"),
        ((match_id,), "hand_deleted"),
        ((match_id,), "hand_deleted"),
    ]


def test_abandon_and_resume_send_it_once_each(app: Flask) -> None:
    match_id = create(app, hands=1)
    with sent(app) as seen, app.app_context():
        match = load(match_id)
        assert services.matches.set_abandoned(match, True, match.version)
        match = load(match_id)
        assert services.matches.set_abandoned(match, False, match.version)
    assert seen == [((match_id,), "abandoned"), ((match_id,), "resumed")]


def test_renaming_a_player_sends_each_of_their_matches(app: Flask) -> None:
    first, second = create(app), create(app)
    other = create(app, sides=[{"name": "A", "players": ["Eva"]}, {"name": "B"}])
    with sent(app) as seen, app.app_context():
        ana = services.queries.find_player(EVERYTHING, "Ana")
        assert ana is not None
        assert services.players.rename_player(ana, "Ana") is None  # the same name: no change
        assert services.players.rename_player(ana, "Beto") is not None  # taken: refused
        assert services.players.rename_player(ana, "Anita") is None
    assert [(sorted(ids), change) for ids, change in seen] == [([first, second], "players_renamed")]
    assert other not in seen[0][0]


def test_merging_players_sends_the_matches_that_changed(app: Flask) -> None:
    create(app)
    moved = create(app, sides=[{"name": "A", "players": ["Anita"]}, {"name": "B"}])
    with sent(app) as seen, app.app_context():
        ana, anita = (
            services.queries.find_player(EVERYTHING, "Ana"),
            services.queries.find_player(EVERYTHING, "Anita"),
        )
        beto = services.queries.find_player(EVERYTHING, "Beto")
        assert ana is not None
        assert anita is not None
        assert beto is not None
        with pytest.raises(ValueError, match="two people"):
            services.players.merge_players(ana, beto)  # they sat in one match
        assert services.players.merge_players(ana, anita) == 1
    assert seen == [((moved,), "players_renamed")]


def test_an_import_sends_one_signal_per_batch(app: Flask) -> None:
    lines = "".join(json.dumps(document(title=f"m{n}")) + "\n" for n in range(5))
    with sent(app) as seen, app.app_context():
        report = backup.import_stream(io.BytesIO(lines.encode()), batch=2)
        assert report.created == 5
        again = backup.import_stream(io.BytesIO(lines.encode()), batch=2)  # all skipped
        assert again.created == 0
    assert [len(ids) for ids, _ in seen] == [2, 2, 1]
    assert {change for _, change in seen} == {"imported"}


# Refused, conflicting and replayed writes: nothing sent


def test_a_refused_hand_sends_nothing(app: Flask) -> None:
    match_id = create(app, hands=1)
    with sent(app) as seen, app.app_context():
        match = load(match_id)
        outcome = services.hands.record_hand(match, REFUSED, match.version, "k")
        assert not outcome.ok
        assert not outcome.conflict
        match = load(match_id)
        assert not services.hands.edit_hand(match, 1, REFUSED, match.version).ok
        assert services.matches.create_match(document(variant="mus"))[0] is None
    assert seen == []


def test_of_two_saves_with_one_version_one_wins_and_the_other_conflicts(app: Flask) -> None:
    match_id = create(app)
    with sent(app) as seen:
        with app.app_context():  # two phones: two sessions, both shown version 0
            first = load(match_id)
            with app.app_context():
                second = load(match_id)
                version = second.version
                won = services.hands.record_hand(second, quiet_hand(), version, "phone-2")
            lost = services.hands.record_hand(first, quiet_hand(table=90), version, "phone-1")
        assert won.ok
        assert won.hand_number == 1
        assert lost.conflict
        assert not lost.ok
        assert not lost.duplicate
    assert seen == [((match_id,), "hand_recorded")]
    with app.app_context():
        match = load(match_id)
        assert [hand.inputs["sides"][0]["table_points"] for hand in match.hands] == [50]
        assert match.version == version + 1


def test_the_same_request_key_twice_records_once(app: Flask) -> None:
    match_id = create(app)
    with sent(app) as seen, app.app_context():
        match = load(match_id)
        version = match.version
        assert services.hands.record_hand(match, quiet_hand(), version, "tap").hand_number == 1
        match = load(match_id)
        again = services.hands.record_hand(match, quiet_hand(), version, "tap")  # a double tap
        assert again.duplicate
        assert again.hand_number == 1
        match = load(match_id)
        later = services.hands.record_hand(match, quiet_hand(), match.version, "tap")
        assert later.duplicate
        assert later.hand_number == 1
        assert len(load(match_id).hands) == 1
    assert seen == [((match_id,), "hand_recorded")]


def test_a_parallel_retry_of_one_request_is_a_duplicate(app: Flask) -> None:
    """The same form sent twice at once: both read the match before either saved."""
    match_id = create(app)
    with sent(app) as seen, app.app_context():
        first = load(match_id)
        first.hands  # noqa: B018 - read before the other request saves
        with app.app_context():
            other = load(match_id)
            assert services.hands.record_hand(other, quiet_hand(), other.version, "retry").ok
        retry = services.hands.record_hand(first, quiet_hand(), first.version, "retry")
        assert retry.duplicate
        assert retry.hand_number == 1
    assert seen == [((match_id,), "hand_recorded")]


@pytest.mark.parametrize("change", ["delete", "undo", "abandon"])
def test_a_stale_delete_undo_or_abandon_conflicts(app: Flask, change: str) -> None:
    match_id = create(app, hands=2)
    with app.app_context():
        stale = load(match_id).version
        match = load(match_id)
        assert services.hands.record_hand(match, quiet_hand(), match.version, "k").ok
    with sent(app) as seen, app.app_context():
        match = load(match_id)
        if change == "delete":
            assert services.hands.delete_hand(match, 1, stale).conflict
        elif change == "undo":
            assert services.hands.undo_last_hand(match, stale).conflict
        else:
            assert services.matches.set_abandoned(match, True, stale) is False
    assert seen == []
    with app.app_context():
        match = load(match_id)
        assert (len(match.hands), match.abandoned, match.version) == (3, False, stale + 1)


def test_the_engine_work_of_a_save_is_kept_for_the_page(app: Flask) -> None:
    """A hand saved puts its score in the ``scores`` cache under the match's new key."""
    match_id = create(app)
    with app.app_context():
        match = load(match_id)
        assert services.hands.record_hand(match, quiet_hand(), match.version, "k").ok
        match = load(match_id)
        cached = caches().scores.get(match_key(match))
        assert cached is not None
        assert cached[1].totals == services.matches.score(match).score.totals == (10, 10)


def test_a_preview_racing_a_save_reads_the_whole_file(app: Flask) -> None:
    """A preview whose match row was read before another request's save committed, and its
    hands after (SQLite reads outside a transaction), finds the cached reading a hand short:
    it reads the whole file instead of failing (a 500 seen in the browser tests)."""
    match_id = create_stored_match(app, match_document("burako"))
    hand = {"end": "stock_out", "closer": None, "sides": [{"table_points": 60}, {}]}
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        services.matches.score(match)  # the cached reading: no hand
        game, score, problems = services.hands.changed_reading(match, 1, hand)
        assert problems == []
        assert game is not None
        assert score is not None
        assert len(game.hands) == 1
