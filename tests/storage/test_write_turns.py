"""Saves to a SQLite file take turns: a thread or a worker process waits for the one before."""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

import pytest
from flask import Flask

from anotador.storage import write_turns
from anotador.storage.database import db


def sqlite_file(app: Flask) -> Path | None:
    with app.app_context():
        url = db.engine.url
        if url.get_backend_name() != "sqlite" or not url.database:
            return None
        return Path(url.database)


@pytest.fixture
def database(app: Flask) -> Path:
    found = sqlite_file(app)
    if found is None:
        pytest.skip("turns are taken on a SQLite file only")
    return found


def test_a_thread_waits_for_the_turn_of_another(app: Flask, database: Path):
    order: list[str] = []
    holding = threading.Event()
    release = threading.Event()

    def first() -> None:
        with app.app_context(), write_turns.turn():
            order.append("first in")
            holding.set()
            release.wait(5)
            order.append("first out")

    def second() -> None:
        holding.wait(5)
        with app.app_context(), write_turns.turn():
            order.append("second in")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    holding.wait(5)
    # The second thread is blocked on the turn: nothing it does shows until the first ends.
    threads[1].join(0.2)
    assert order == ["first in"]
    release.set()
    for thread in threads:
        thread.join(5)
    assert order == ["first in", "first out", "second in"]


def test_another_process_cannot_take_the_turn_while_it_is_held(app: Flask, database: Path):
    turns = Path(str(database) + write_turns.SUFFIX)
    with app.app_context(), write_turns.turn():
        assert turns.exists()
        child = os.fork()
        if child == 0:  # another worker: its own open file, refused while the turn is held
            descriptor = os.open(turns, os.O_RDWR)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os._exit(0)
            os._exit(1)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    descriptor = os.open(turns, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again once it ends
    finally:
        os.close(descriptor)


def test_a_turn_is_given_back_when_the_write_fails(app: Flask, database: Path):
    with pytest.raises(RuntimeError), app.app_context(), write_turns.turn():
        raise RuntimeError("a failed save")
    taken = threading.Event()

    def other() -> None:
        with app.app_context(), write_turns.turn():
            taken.set()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(5)
    assert taken.is_set()


def test_on_postgresql_turns_do_not_wait(app: Flask):
    """PostgreSQL locks the rows a save changes: two saves of different matches go at once."""
    if sqlite_file(app) is not None:
        pytest.skip("PostgreSQL only")
    inside = threading.Event()

    def other() -> None:
        with app.app_context(), write_turns.turn():
            inside.set()

    with app.app_context(), write_turns.turn():
        thread = threading.Thread(target=other)
        thread.start()
        thread.join(5)
        assert inside.is_set()
