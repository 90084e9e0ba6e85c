"""PostgreSQL really stopped and restarted under the app (a server of the test's own):
pooled connections a restart closed are replaced before use, a stopped server gives the 503
page and JSON with ``Retry-After``, ``/readyz`` follows it, and the app serves again once it
is back, without a restart of its own."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask
from postgres_server import PostgresServer
from postgres_server import available
from stored import E1_FORM
from stored import OWNER
from stored import create_stored_match
from stored import match_document
from stored import signed_in
from test_outage import assert_unavailable_json
from test_outage import assert_unavailable_page
from test_serve import HANG_GUARD_SECONDS
from test_serve import SERVE
from test_serve import free_port
from test_serve import get
from test_serve import wait_until_up

from anotador.storage.database import db

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not available(), reason="PostgreSQL 15's initdb is not installed"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    started = PostgresServer()
    try:
        yield started
    finally:
        started.remove()


@pytest.fixture
def app(app_factory: Any, server: PostgresServer) -> Flask:
    return app_factory(SQLALCHEMY_DATABASE_URI=server.url, PROPAGATE_EXCEPTIONS=False)


def test_a_restart_does_not_fail_the_next_requests(app: Flask, server: PostgresServer):
    client = signed_in(app, OWNER)
    match_id = create_stored_match(app, match_document(layout="4p"))
    assert client.get(f"/partidas/{match_id}").status_code == 200  # the pool holds one now

    server.restart()  # terminates every connection the pool holds

    assert client.get(f"/partidas/{match_id}").status_code == 200
    assert client.get(f"/partidas/{match_id}/version").status_code == 200
    assert client.get("/readyz").status_code == 200


def test_a_connection_lost_after_the_view_costs_the_request_nothing(
    app: Flask, server: PostgresServer
):
    """The server gone between the view's answer and the end of the request (a restart under
    scorers: issue 36): rolling back the request's transaction then fails, at the session's
    teardown, after the answer was made. The answer stands (the view's work is committed or
    was only read), no error escapes to the server (gunicorn would answer 500)."""
    client = signed_in(app, OWNER)
    match_id = create_stored_match(app, match_document(layout="4p"))
    terminated: list[int] = []

    @app.teardown_request
    def terminate_this_connection(error: BaseException | None) -> None:
        # The request's own connection, still in its transaction, killed from another one.
        pid = db.session.connection().connection.dbapi_connection.info.backend_pid
        with psycopg.connect(server.url.replace("+psycopg", ""), autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", (pid,))
            deadline = time.monotonic() + HANG_GUARD_SECONDS
            gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
            while other.execute(gone, (pid,)).fetchone() != (0,):
                assert time.monotonic() < deadline, "the connection was not terminated"
                time.sleep(0.05)
        terminated.append(pid)

    form = client.get(f"/partidas/{match_id}/manos/nueva")
    assert form.status_code == 200
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', form.text)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', form.text)
    assert key is not None
    assert version is not None
    hand = {**E1_FORM, "request_key": key.group(1), "version": version.group(1)}
    assert client.post(f"/partidas/{match_id}/manos/nueva", data=hand).status_code == 302
    assert len(terminated) == 2
    app.teardown_request_funcs[None].remove(terminate_this_connection)
    assert client.get(f"/partidas/{match_id}/version").get_json()["hands"] == 1


def test_a_stopped_database_is_a_503_until_it_is_back(app: Flask, server: PostgresServer):
    client = signed_in(app, OWNER)
    anonymous = app.test_client()
    match_id = create_stored_match(app, match_document(layout="4p"))
    assert client.get(f"/partidas/{match_id}").status_code == 200

    server.stop()
    try:
        assert_unavailable_page(client.get(f"/partidas/{match_id}"))
        assert_unavailable_page(client.get("/historial"))
        english = {"Accept-Language": "en"}
        assert_unavailable_page(anonymous.get("/cuenta/entrar", headers=english), "en")
        signing_in = {"name": OWNER, "password": "una clave larga"}
        assert_unavailable_page(anonymous.post("/cuenta/entrar", data=signing_in))
        assert_unavailable_page(client.post(f"/partidas/{match_id}/manos/nueva", data=E1_FORM))
        assert_unavailable_json(client.get(f"/partidas/{match_id}/version"))
        assert_unavailable_json(client.get(f"/partidas/{match_id}/manos/pendientes"))
        assert client.get("/readyz").status_code == 503
        assert client.get("/healthz").status_code == 200
    finally:
        server.start()

    assert client.get("/readyz").status_code == 200
    assert client.get(f"/partidas/{match_id}").status_code == 200
    assert anonymous.post("/cuenta/entrar", data=signing_in).status_code == 303


def test_the_real_server_answers_503_while_postgresql_is_stopped(
    server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """``anotador serve`` (gunicorn, two workers) on the test's PostgreSQL: restarted, then
    stopped, then started again."""
    monkeypatch.setenv("DATABASE_URL", server.url)
    port = free_port()
    env = {
        **os.environ,
        "ANOTADOR_DATA": str(tmp_path / "data"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
    }
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    english = {"Accept-Language": "en"}
    try:
        wait_until_up(f"{base}/readyz", process, log)
        assert [answer(f"{base}/cuenta/entrar")[0] for _ in range(4)] == [200] * 4
        server.restart()
        assert [answer(f"{base}/cuenta/entrar")[0] for _ in range(4)] == [200] * 4
        server.stop()
        try:
            status, headers, page = answer(f"{base}/cuenta/entrar", english)
            assert (status, headers["Retry-After"]) == (503, "5")
            assert "Service unavailable" in page
            assert "Back to the home page" in page
            status, headers, body = answer(f"{base}/partidas/1/version")
            assert (status, headers["Content-Type"]) == (503, "application/json")
            assert json.loads(body)["error"] == "unavailable"
            assert answer(f"{base}/readyz")[0] == 503
            assert answer(f"{base}/healthz")[0] == 200
        finally:
            server.start()
        assert answer(f"{base}/readyz")[0] == 200
        assert [answer(f"{base}/cuenta/entrar")[0] for _ in range(4)] == [200] * 4
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=HANG_GUARD_SECONDS)


def answer(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    """Status, headers and body of a GET, whatever the status."""
    try:
        return get(url, headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8")
