"""The bytes the service worker keeps on a phone: the app's static files, the pages of one
match (home, planilla, hand form, offline page) and the engine's files (fetched in the
background on a later visit), read from the Cache Storage of Debian's Chromium after a
person opened a match and its hand form twice. Target: the shell and pages under 300 KB (the
engine is what Pyodide weighs: reported, not targeted).
"""

from __future__ import annotations

import contextlib
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
from werkzeug.serving import make_server

from anotador import create_app
from anotador import services
from benchmarks.web import signed_in_client

CHROMIUM = Path("/usr/bin/chromium")
SHELL_LIMIT = 300 * 1024

#: True once the engine's files are all kept (their background fetch is over).
ENGINE_CACHED = """async () => {
  if (!window.anotadorEngine) return false;  // the page is still loading its scripts
  const urls = window.anotadorEngine.assetUrls();
  for (const url of urls) if (!(await caches.match(url))) return false;
  return true;
}"""
#: Every cache's entries and bytes (bodies as stored).
MEASURE = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    let bytes = 0, entries = 0;
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      bytes += (await response.arrayBuffer()).byteLength;
      entries += 1;
    }
    found[name.replace(/-[0-9a-f]{16}$/, "")] = {bytes, entries};
  }
  return found;
}"""


def until_engine_cached(page: Any, seconds: int = 180) -> None:
    """Wait until the engine's files are kept (``wait_for_function`` takes the check's promise
    as true at once: it does not wait for it)."""
    for _check in range(seconds * 2):
        if page.evaluate(ENGINE_CACHED):
            return
        page.wait_for_timeout(500)
    raise TimeoutError("the engine's files were never kept")


def cookies(app: Any, url: str) -> list[dict[str, Any]]:
    client = signed_in_client(app)
    host = url.split("//")[1].split(":")[0]
    return [
        {"name": cookie.key, "value": cookie.value, "domain": host, "path": "/"}
        for cookie in (client.get_cookie("session"), client.get_cookie("remember_token"))
        if cookie is not None
    ]


def measure(url: str, match_id: int, jar: list[dict[str, Any]]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        context = browser.new_context(base_url=url)
        context.add_cookies(jar)
        page = context.new_page()
        for _visit in range(2):  # the engine's files are fetched on a later visit only
            page.goto("/")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            page.goto(f"/partidas/{match_id}")
            page.goto(f"/partidas/{match_id}/manos/nueva")
            page.wait_for_load_state("networkidle")
        until_engine_cached(page)
        found: dict[str, Any] = page.evaluate(MEASURE)
        browser.close()
    return found


@contextlib.contextmanager
def served_match() -> Iterator[tuple[str, int, list[dict[str, Any]]]]:
    """A server on loopback with one empty uruguaya match: its URL, the match's id and a
    signed-in phone's cookies (the offline benchmarks open it in Chromium)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite3'}"},
            instance_path=Path(folder) / "instance",
        )
        with app.app_context():
            flask_migrate.upgrade()
            document = {
                "format": "anotador-match/1",
                "variant": "uruguaya",
                "sides": [{"name": "Nosotros"}, {"name": "Ellos"}],
                "hands": [],
            }
            match, _problems = services.matches.create_match(document)
            assert match is not None
            match_id = match.id
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}"
        try:
            yield url, match_id, cookies(app, url)
        finally:
            server.shutdown()


def run() -> list[str]:
    if not CHROMIUM.exists():
        return ["offline cache: skipped (no /usr/bin/chromium)"]
    with served_match() as (url, match_id, jar):
        found = measure(url, match_id, jar)
    shell = sum(value["bytes"] for name, value in found.items() if not name.endswith("engine"))
    lines = [
        f"offline cache {name}: {value['bytes'] / 1024:.1f} KB in {value['entries']} entries"
        for name, value in sorted(found.items())
    ]
    lines.append(
        f"offline cache shell + pages: {shell / 1024:.1f} KB (target < {SHELL_LIMIT // 1024} KB)"
    )
    total = sum(value["bytes"] for value in found.values())
    lines.append(f"offline cache total: {total / 1024:.1f} KB")
    return lines
