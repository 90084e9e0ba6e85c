"""Queued hands and the conflict panel's choices at the services level: a hand equal to one
another phone stored is stored once, silently; a choice changes only the stored hand it
showed; and, over generated sequences of online and offline saves, corrections and choices
on three phones, every acknowledged hand stays as stored unless a choice that showed it (or
a correction of it) replaced it."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import Flask
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from stored import create_stored_match
from stored import match_document

from anotador import rules
from anotador import services
from anotador.services.outbox import Choice
from anotador.services.outbox import Sent
from anotador.services.outbox import fingerprint
from anotador.storage.models import Match


def quiet_hand(table: int = 50) -> dict[str, Any]:
    """A stock-out hand worth ``table`` − 40 to each side: a match of many never ends."""
    side = {"clean": 0, "dirty": 0, "table_points": table, "hand_points": 40, "red_threes": 0}
    return {"end": "stock_out", "sides": [dict(side), dict(side)]}


#: Few hands, so that two phones sometimes type the same one.
HANDS = [quiet_hand(table) for table in range(50, 80, 5)]
_GAME, _PROBLEMS = rules.read_match(match_document())
assert _GAME is not None
RULES = _GAME.rules


def key(n: int) -> str:
    return f"{n:032x}"


def new_match(app: Flask, hands: int = 0) -> int:
    document = match_document(hands=[quiet_hand(50 + 5 * n) for n in range(hands)])
    return create_stored_match(app, document)


def load(match_id: int) -> Match:
    match = services.queries.load_match(match_id)
    assert match is not None
    return match


def rows(app: Flask, match_id: int) -> list[tuple[str | None, dict[str, Any]]]:
    """The stored hands in order: (request key, inputs)."""
    with app.app_context():
        return [(hand.request_key, hand.inputs) for hand in load(match_id).hands]


def shown(app: Flask, match_id: int, number: int) -> str:
    """Stored hand ``number`` as a conflict panel shows it (its fingerprint)."""
    with app.app_context():
        return fingerprint(load(match_id).hands[number - 1])


def send(
    app: Flask, match_id: int, hand: dict[str, Any], request_key: str, number: int, **choice: Any
) -> Sent:
    with app.app_context():
        return services.outbox.send_hand(
            lambda: load(match_id), hand, request_key, number, Choice(**choice)
        )


def test_a_queued_hand_equal_to_one_another_phone_stored_is_stored_once(app: Flask):
    match_id = new_match(app, hands=2)
    typed_on_both = quiet_hand(95)
    with app.app_context():
        match = load(match_id)
        assert services.hands.record_hand(match, typed_on_both, match.version, key(1)).ok
    before = rows(app, match_id)
    sent = send(app, match_id, typed_on_both, key(2), 3)
    assert not sent.conflict
    assert sent.outcome is not None
    assert (sent.outcome.duplicate, sent.outcome.hand_number) == (True, 3)
    assert rows(app, match_id) == before


def test_a_hand_equal_to_a_later_unknown_hand_is_that_hand(app: Flask):
    """The phone knew two hands; others saved hands 3 and 4, and hand 4 is the phone's."""
    match_id = new_match(app, hands=4)
    sent = send(app, match_id, quiet_hand(65), key(9), 3)
    assert sent.outcome is not None
    assert (sent.outcome.duplicate, sent.outcome.hand_number) == (True, 4)
    assert len(rows(app, match_id)) == 4


def test_a_hand_equal_to_one_the_phone_knew_is_a_new_hand(app: Flask):
    match_id = new_match(app, hands=2)
    sent = send(app, match_id, quiet_hand(50), key(9), 3)
    assert sent.outcome is not None
    assert sent.outcome.ok
    assert not sent.outcome.duplicate
    assert [inputs["sides"][0]["table_points"] for _key, inputs in rows(app, match_id)] == [
        50,
        55,
        50,
    ]


def test_mine_replaces_the_hand_the_person_picked_among_those_shown(app: Flask):
    """The issue's story: the phone knew five hands, others saved 6 to 9 with a typo in 9;
    the person picks hand 9, and hands 6 to 8 stay as stored."""
    match_id = new_match(app, hands=9)
    mine = quiet_hand(100)
    assert send(app, match_id, mine, key(20), 6).conflict
    before = rows(app, match_id)
    seen = shown(app, match_id, 9)
    sent = send(app, match_id, mine, key(20), 6, resolution="replace", target=9, shown=seen)
    assert sent.outcome is not None
    assert (sent.outcome.ok, sent.outcome.hand_number) == (True, 9)
    after = rows(app, match_id)
    assert after[:8] == before[:8]
    assert after[8][0] == key(20)
    assert after[8][1]["sides"][0]["table_points"] == 100


def test_a_replace_of_a_hand_changed_since_it_was_shown_is_a_fresh_conflict(app: Flask):
    match_id = new_match(app, hands=3)
    assert send(app, match_id, quiet_hand(100), key(20), 2).conflict
    seen = shown(app, match_id, 3)
    with app.app_context():  # another phone corrects hand 3 meanwhile
        match = load(match_id)
        assert services.hands.edit_hand(match, 3, quiet_hand(90), match.version).ok
    before = rows(app, match_id)
    sent = send(
        app, match_id, quiet_hand(100), key(20), 2, resolution="replace", target=3, shown=seen
    )
    assert sent.conflict
    assert rows(app, match_id) == before


def test_a_replace_outside_the_hands_shown_is_a_conflict(app: Flask):
    """Hand 1 was known to the phone, never shown in its panel: it cannot be replaced."""
    match_id = new_match(app, hands=3)
    before = rows(app, match_id)
    seen = shown(app, match_id, 1)
    sent = send(
        app, match_id, quiet_hand(100), key(20), 2, resolution="replace", target=1, shown=seen
    )
    assert sent.conflict
    assert rows(app, match_id) == before


def test_keep_both_appends_after_the_last_stored_hand_whatever_came_since(app: Flask):
    match_id = new_match(app, hands=3)
    assert send(app, match_id, quiet_hand(100), key(20), 2).conflict
    with app.app_context():
        match = load(match_id)
        assert services.hands.record_hand(match, quiet_hand(80), match.version, key(21)).ok
    before = rows(app, match_id)
    sent = send(app, match_id, quiet_hand(100), key(20), 2, resolution="append")
    assert sent.outcome is not None
    assert sent.outcome.hand_number == 5
    assert rows(app, match_id)[:4] == before


# The property: three phones, generated sequences.


@dataclasses.dataclass
class Queued:
    key: str
    number: int
    hand: dict[str, Any]
    #: The hands the conflict panel showed: number -> (fingerprint, request key, inputs).
    shown: dict[int, tuple[str, str | None, dict[str, Any]]] | None = None


@dataclasses.dataclass
class Phone:
    known: int = 0
    queue: list[Queued] = dataclasses.field(default_factory=list)


STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["online", "online", "correct", "correct", "delete", "offline", "offline"]
            + ["sync", "sync", "sync"]
        ),
        st.integers(0, 2),  # the phone
        st.integers(0, 20),  # which hand, which stored hand, which choice
    ),
    min_size=10,
    max_size=40,
)


class Table:
    """The match as the phones and the model see it: ``acked`` is every hand the server
    acknowledged, by request key, as it must be stored now."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.match_id = new_match(app)
        self.phones = [Phone() for _ in range(3)]
        self.acked: dict[str, dict[str, Any]] = {}
        self.keys = 0
        self.turns = 0

    def hand(self, pick: int) -> dict[str, Any]:
        """A hand of the pool; each step's differs from the last one's unless ``pick`` says
        otherwise (generated numbers are mostly 0: the same hand every time)."""
        self.turns += 1
        return HANDS[(pick + self.turns) % len(HANDS)]

    def new_key(self) -> str:
        self.keys += 1
        return key(self.keys)

    def stored(self) -> dict[str | None, dict[str, Any]]:
        return dict(rows(self.app, self.match_id))

    def step(self, kind: str, phone: Phone, pick: int) -> None:
        before = self.stored()
        getattr(self, kind)(phone, pick, before)
        # Every acknowledged hand is stored, unchanged but for what the step was allowed to
        # change (a correction, a choice that showed it), and no hand is stored twice.
        assert canonical(self.stored()) == canonical(self.acked)

    def online(self, phone: Phone, pick: int, before: dict[str | None, Any]) -> None:
        request_key = self.new_key()
        with self.app.app_context():
            match = load(self.match_id)
            outcome = services.hands.record_hand(match, self.hand(pick), match.version, request_key)
            assert outcome.ok
            phone.known = len(load(self.match_id).hands)
        self.acked[request_key] = self.stored()[request_key]

    def correct(self, phone: Phone, pick: int, before: dict[str | None, Any]) -> None:
        stored = rows(self.app, self.match_id)
        if not stored:
            return
        number = recent(stored, pick)
        with self.app.app_context():
            match = load(self.match_id)
            outcome = services.hands.edit_hand(match, number, self.hand(pick), match.version)
            assert outcome.ok
            phone.known = len(match.hands)
        corrected = stored[number - 1][0]
        assert corrected is not None
        self.acked[corrected] = self.stored()[corrected]

    def delete(self, phone: Phone, pick: int, before: dict[str | None, Any]) -> None:
        stored = rows(self.app, self.match_id)
        if not stored:
            return
        number = recent(stored, pick)
        with self.app.app_context():
            match = load(self.match_id)
            assert services.hands.delete_hand(match, number, match.version).ok
            phone.known = len(match.hands)
        del self.acked[stored[number - 1][0]]

    def offline(self, phone: Phone, pick: int, before: dict[str | None, Any]) -> None:
        number = phone.known + len(phone.queue) + 1
        phone.queue.append(Queued(self.new_key(), number, self.hand(pick)))

    def sync(self, phone: Phone, pick: int, before: dict[str | None, Any]) -> None:
        """The phone's signal returns: it sends its first queued hand, or the person makes
        the choice its conflict panel asks for."""
        if not phone.queue:
            return
        entry = phone.queue[0]
        if entry.shown is not None:
            self.choose(phone, pick, before)
            return
        stored = rows(self.app, self.match_id)
        sent = send(self.app, self.match_id, entry.hand, entry.key, entry.number)
        if sent.conflict:
            mine = engine_form(entry.hand)
            # Identical hands are never a conflict.
            assert all(engine_form(inputs) != mine for _key, inputs in stored[entry.number - 1 :])
            entry.shown = {
                number: (shown(self.app, self.match_id, number), request_key, inputs)
                for number, (request_key, inputs) in enumerate(stored, start=1)
                if number >= entry.number
            }
            phone.known = len(stored)
            return
        self.settled(phone, entry, sent)

    def choose(self, phone: Phone, pick: int, before: dict[str | None, Any]) -> None:
        entry = phone.queue[0]
        options = ["append", "drop", *sorted(entry.shown or {})]
        picked = options[pick % len(options)]
        if picked == "drop":
            phone.queue.pop(0)
            return
        if picked == "append":
            sent = send(
                self.app, self.match_id, entry.hand, entry.key, entry.number, resolution="append"
            )
        else:
            assert isinstance(picked, int)
            shown_print, shown_key, shown_inputs = (entry.shown or {})[picked]
            sent = send(
                self.app,
                self.match_id,
                entry.hand,
                entry.key,
                entry.number,
                resolution="replace",
                target=picked,
                shown=shown_print,
            )
            if sent.outcome is not None and sent.outcome.ok and not sent.outcome.duplicate:
                # Replaced: the hand the panel showed, still stored as it showed it.
                assert before.get(shown_key) == shown_inputs
                del self.acked[shown_key]
        if sent.conflict:
            entry.shown = None  # asked again on the next sync, with what is stored now
            return
        self.settled(phone, entry, sent)

    def settled(self, phone: Phone, entry: Queued, sent: Sent) -> None:
        """The phone's entry was answered: stored (now acknowledged), already stored or
        refused; the phone forgets it and numbers its next ones after it, as offline.js."""
        outcome = sent.outcome
        assert outcome is not None
        phone.queue.pop(0)
        if outcome.ok and not outcome.duplicate:
            self.acked[entry.key] = self.stored()[entry.key]
        if outcome.hand_number is not None:
            shift = outcome.hand_number - entry.number
            for later in phone.queue:
                later.number += shift
            phone.known = max(phone.known, outcome.hand_number)


def recent(stored: list[Any], pick: int) -> int:
    """One of the last three stored hands: those another phone's conflict panel shows."""
    return len(stored) - pick % min(3, len(stored))


def engine_form(hand: dict[str, Any]) -> dict[str, Any] | None:
    return services.outbox.normalized(RULES, hand)


def canonical(hands: dict[Any, dict[str, Any]]) -> dict[Any, str]:
    return {
        request_key: json.dumps(inputs, sort_keys=True) for request_key, inputs in hands.items()
    }


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_every_acknowledged_hand_stays_unless_a_choice_that_showed_it_replaced_it(
    app: Flask, steps: list[tuple[str, int, int]]
):
    table = Table(app)
    for kind, phone, pick in steps:
        table.step(kind, table.phones[phone], pick)
