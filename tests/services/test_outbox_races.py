"""The same queued hand sent many times at once (a phone retrying on a flaky signal, two tabs
flushing one outbox): stored exactly once, and every answer says so, never a conflict."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from stored import OWNER
from stored import create_stored_match
from stored import match_document
from stored import signed_in

from anotador import services

SENDERS = 20
HAND = {
    "end": "closed",
    "closer": 0,
    "sides": [{"clean": 2, "dirty": 1, "table_points": 400}, {"dirty": 1, "table_points": 250}],
}
KNOWN = {
    "end": "stock_out",
    "sides": [{"table_points": 50, "hand_points": 40}, {"table_points": 50, "hand_points": 40}],
}


def send_at_once(app: Flask, match_id: int, bodies: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """POST every body to the outbox, each from its own thread and signed-in client, all
    released together."""
    clients = [signed_in(app, OWNER) for _ in bodies]
    start = threading.Barrier(len(bodies))
    answers: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def sender(client: Any, body: dict[str, Any]) -> None:
        start.wait(10)
        response = client.post(f"/partidas/{match_id}/manos/pendientes", json=body)
        with lock:
            answers.append((response.status_code, response.get_json()))

    threads = [
        threading.Thread(target=sender, args=pair) for pair in zip(clients, bodies, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == len(bodies)
    return answers


def stored_keys(app: Flask, match_id: int) -> list[str | None]:
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        return [hand.request_key for hand in match.hands]


@pytest.mark.parametrize("known", [0, 3])
def test_one_queued_hand_sent_twenty_times_at_once_is_stored_once(app: Flask, known: int):
    match_id = create_stored_match(app, match_document(hands=[KNOWN] * known))
    body = {"request_key": "a" * 32, "number": known + 1, "hand": HAND}
    answers = send_at_once(app, match_id, [body] * SENDERS)
    statuses = Counter(status for status, _answer in answers)
    assert statuses == {201: 1, 200: SENDERS - 1}
    assert {answer["number"] for _status, answer in answers} == {known + 1}
    assert Counter(answer["status"] for _status, answer in answers) == {
        "saved": 1,
        "duplicate": SENDERS - 1,
    }
    assert stored_keys(app, match_id) == [None] * known + ["a" * 32]


def test_one_hand_typed_on_twenty_phones_and_sent_at_once_is_stored_once(app: Flask):
    """Each phone queued the same inputs under its own key: the same hand, stored once."""
    match_id = create_stored_match(app, match_document())
    bodies = [{"request_key": f"{n:032x}", "number": 1, "hand": HAND} for n in range(SENDERS)]
    answers = send_at_once(app, match_id, bodies)
    assert Counter(status for status, _answer in answers) == {201: 1, 200: SENDERS - 1}
    assert {answer["number"] for _status, answer in answers} == {1}
    assert len(stored_keys(app, match_id)) == 1
