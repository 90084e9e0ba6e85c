"""The child process of tests/storage/test_two_threads.py: two threads of one app at the same time.

The main thread restores a backup (``POST /historial/restaurar``) while another thread, with its
own test client of the same app, loads ``/historial`` until the restore is over: what a threaded
server does (``make run``). Usage: ``python two_threads_child.py DATABASE_URI BACKUP INSTANCE
EXPECTED``; exits 0 when both threads got their pages and the restore stored EXPECTED matches.
A crash of the interpreter is this process dying (faulthandler prints every thread's stack).

Two settings make the threads interleave, and the collector run, far more often than by default,
so one restore is enough to meet what a server meets after hours: a thread switch every 0.1 ms
(default 5 ms) and a young-generation collection every 100 allocations (default 700).
"""

from __future__ import annotations

import faulthandler
import gc
import sys
import threading

import sqlalchemy as sa
from stored import signed_in

from anotador import create_app
from anotador.storage.database import db
from anotador.storage.models import Match


def main(uri: str, backup: str, instance: str, expected: int) -> None:
    faulthandler.enable(all_threads=True)
    sys.setswitchinterval(0.0001)
    gc.set_threshold(100)
    config = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": uri}
    app = create_app(config, instance_path=instance)
    # Both signed in as the account the test made (the history is an account's page).
    restorer, reader = signed_in(app), signed_in(app)
    done = threading.Event()
    pages: list[int] = []
    errors: list[BaseException] = []

    def read_history() -> None:
        try:
            while not done.is_set():
                pages.append(reader.get("/historial").status_code)
        except BaseException as error:  # said by the main thread below
            errors.append(error)
            raise

    thread = threading.Thread(target=read_history)
    thread.start()
    try:
        with open(backup, "rb") as file:
            response = restorer.post(
                "/historial/restaurar",
                data={"copia": (file, "copia.jsonl")},
                content_type="multipart/form-data",
            )
    finally:
        done.set()
        thread.join()
    with app.app_context():
        stored = db.session.scalar(sa.select(sa.func.count()).select_from(Match))
        db.engine.dispose()
    print(f"restore: HTTP {response.status_code}, {stored} stored; history: {len(pages)} pages")
    assert not errors, errors
    assert response.status_code == 200, response.status_code
    assert stored == expected, stored
    assert pages, "the history page was never loaded"
    assert set(pages) == {200}, sorted(set(pages))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
