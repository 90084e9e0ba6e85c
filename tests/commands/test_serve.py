"""``anotador serve`` really serves: gunicorn in a child process, on a free port and a new data
folder (its SQLite database is migrated first), several workers, the app's headers, and a
clean stop on SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

#: Only there so that a server that never comes up fails instead of blocking the run.
HANG_GUARD_SECONDS = 120
SERVE = "from anotador.commands.main import main; main(['serve'])"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers), response.read().decode("utf-8")


def wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"anotador serve stopped ({server.returncode}):\n{log.read_text()}")
        try:
            get(url)
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    pytest.fail(f"anotador serve did not answer {url}:\n{log.read_text()}")


@pytest.mark.slow
def test_anotador_serve_serves_with_several_workers(tmp_path: Path):
    port = free_port()
    data = tmp_path / "data"
    log = tmp_path / "serve.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SECRET_KEY", "WEB_CONCURRENCY", "LANGUAGE", "LC_ALL"}
    }
    env.update(
        LANG="en_US.UTF-8",
        ANOTADOR_DATA=str(data),
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
        ANOTADOR_BEHIND_PROXY="1",
        PYTHONUNBUFFERED="1",
    )
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVE], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_until_up(f"{base}/healthz", server, log)

        status, headers, page = get(f"{base}/")
        proxied = get(f"{base}/healthz", {"X-Forwarded-Proto": "https"})[1]
        blank = get(f"{base}/planillas/en-blanco")
    finally:
        server.send_signal(signal.SIGTERM)
        returncode = server.wait(timeout=HANG_GUARD_SECONDS)

    output = log.read_text(encoding="utf-8")
    assert returncode == 0, output
    assert status == 200
    assert "Crear una cuenta" in page
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "Strict-Transport-Security" not in headers
    assert "Strict-Transport-Security" in proxied  # ANOTADOR_BEHIND_PROXY: ProxyFix
    assert blank[0] == 200
    assert "New database: applying the migrations." in output  # startup.prepare first
    assert (data / "anotador.sqlite3").is_file()
    assert f"http://127.0.0.1:{port}/" in output  # the banner
    assert output.count("Booting worker") == 2
    assert "BufferingThreadWorker" in output  # gthread's, reading requests whole first
