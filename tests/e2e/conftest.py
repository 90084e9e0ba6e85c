"""Browser tests: the real app served on 127.0.0.1, driven by Debian's Chromium as a phone.

One live server for the whole session (its own temporary SQLite database, migrated with
Flask-Migrate, CSRF on as in production) and a fresh phone-sized browser context per test,
through pytest-playwright's ``page`` fixture. Every test module is marked ``browser``.

Screenshots of each step go to ``artifacts/e2e/`` (emptied at the start of the session).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from urllib.parse import urlsplit

import flask_migrate
import pytest
from flask import Flask
from flask import got_request_exception
from phone import Shot
from phone import Table
from playwright.sync_api import Browser
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from sqlalchemy import text
from stored import OWNER
from stored import PASSWORD
from werkzeug.serving import make_server

from anotador import create_app
from anotador import services
from anotador.storage.config import database_uri
from anotador.storage.database import db

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse
    from _typeshed.wsgi import WSGIApplication
    from _typeshed.wsgi import WSGIEnvironment

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "locale": "es-AR",
    # The offline tests (test_offline_outbox.py) allow the service worker; elsewhere it would
    # fetch the engine's 13 MB in the background of every test, cut off when its context closes.
    "service_workers": "block",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last: the quick test-client suite reports first."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


class LiveServer:
    """The app in a background thread; ``errors`` collects every exception a request raised."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.errors: list[BaseException] = []
        self.server = make_server("127.0.0.1", 0, whole_responses(app), threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        got_request_exception.connect(self._record, app, weak=False)

    def _record(self, sender: Flask, exception: BaseException, **extra: Any) -> None:
        self.errors.append(exception)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def whole_responses(app: WSGIApplication) -> WSGIApplication:
    """``app`` answering each body whole, its iterable closed before the server writes it.
    Werkzeug's development server skips ``close()`` when the browser drops the connection
    mid-write (a page left while its icon downloads): the static file stays open and a later
    test fails on the ResourceWarning."""

    def whole(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        answer = app(environ, start_response)
        try:
            return [b"".join(answer)]
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    return whole


def start_server(folder: Path, database: str, *, owner: bool) -> LiveServer:
    """The app from ``create_app`` on ``database`` (emptied and migrated), CSRF on, served
    in a thread; with the account ``OWNER`` when ``owner``."""
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": database,
            "WTF_CSRF_ENABLED": True,
        },
        instance_path=folder / "instance",
    )
    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            with db.engine.begin() as connection:
                connection.execute(text("DROP SCHEMA public CASCADE"))
                connection.execute(text("CREATE SCHEMA public"))
        flask_migrate.upgrade()
        if owner:
            services.accounts.create_account(OWNER, PASSWORD)
    server = LiveServer(app)
    server.start()
    return server


def stop_server(server: LiveServer) -> None:
    server.stop()
    with server.app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The app with one account, ``OWNER``: on PostgreSQL when ``DATABASE_URL`` is set
    (emptied first: the browser tests run after the others), else a SQLite file of its own."""
    folder = tmp_path_factory.mktemp("live")
    url = os.environ.get("DATABASE_URL")
    server = start_server(
        folder, database_uri(url) if url else f"sqlite:///{folder / 'e2e.sqlite3'}", owner=True
    )
    yield server
    stop_server(server)


@pytest.fixture
def new_installation(tmp_path: Path) -> Iterator[LiveServer]:
    """A second server, of an installation without any account (always SQLite: the
    session's PostgreSQL database is the live server's)."""
    server = start_server(tmp_path, f"sqlite:///{tmp_path / 'new.sqlite3'}", owner=False)
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium (Playwright cannot download its own browsers here)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install it with `apt-get install chromium`")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": LAUNCH_ARGS,
    }


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    """Relative URLs in ``page.goto`` go to the live server (replaces pytest-base-url's)."""
    return live_server.url


@pytest.fixture(scope="session")
def browser_context_args(
    browser_context_args: dict[str, Any], live_server: LiveServer
) -> dict[str, Any]:
    """A phone held in Argentina: 390×844 at 3×, touch, Spanish (es-AR), signed in as
    ``OWNER`` (the test-client sign-in's cookies, as the sign-in form would leave them)."""
    return {**browser_context_args, **PHONE, "storage_state": owner_cookies(live_server)}


def owner_cookies(server: LiveServer) -> dict[str, Any]:
    """A browser's storage state after ``OWNER`` signed in on ``server`` through its form."""
    client = server.app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, page
    data = {"csrf_token": token.group(1), "name": OWNER, "password": PASSWORD}
    assert client.post("/cuenta/entrar", data=data).status_code == 303
    host = urlsplit(server.url).hostname
    cookies = [
        {"name": cookie.key, "value": cookie.value, "domain": host, "path": "/", "expires": -1}
        for cookie in (client.get_cookie("session"), client.get_cookie("remember_token"))
        if cookie is not None
    ]
    return {"cookies": cookies, "origins": []}


@pytest.fixture(scope="session", autouse=True)
def _fresh_artifacts() -> None:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)


def prepare(page: Page) -> None:
    """Fail fast: 10 s for an action instead of 30 (expectations keep their 5 s)."""
    page.set_default_timeout(10_000)


#: Runs before any script of every document (an init script: the page's CSP does not apply to
#: it): each violation of the Content-Security-Policy becomes a console error.
CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(
    `Content Security Policy violation: ${event.effectiveDirective} blocked ` +
    `${event.blockedURI || "inline"} at ${event.sourceFile || location.href}:${event.lineNumber}`
  );
});
"""


def watch_csp(page: Page) -> list[str]:
    """The console messages about the Content-Security-Policy ``page`` will show: Chromium's
    own ("Refused to ... because it violates the following Content Security Policy
    directive") and :data:`CSP_REPORTER`'s."""
    found: list[str] = []
    page.add_init_script(CSP_REPORTER)
    page.on(
        "console",
        lambda message: (
            found.append(message.text)
            if "content security policy" in message.text.lower()
            else None
        ),
    )
    return found


@pytest.fixture
def no_js_page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """The same phone with JavaScript off (every form must still work); it fails the test on
    a CSP violation too."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    prepare(page)
    violations = watch_csp(page)
    yield page
    context.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"


@pytest.fixture
def phones(browser: Browser, live_server: LiveServer) -> Iterator[Callable[..., Page]]:
    """``phones(base_url=None)``: one more phone (its own browser context, signed in
    nowhere, on the live server unless ``base_url`` says another); each fails the test on a
    JavaScript error or a CSP violation, as the ``page`` fixture."""
    opened: list[tuple[BrowserContext, list[str]]] = []

    def open_phone(base_url: str | None = None) -> Page:
        context = browser.new_context(**PHONE, base_url=base_url or live_server.url)
        page = context.new_page()
        prepare(page)
        problems = watch_csp(page)
        page.on("pageerror", lambda error: problems.append(str(error)))
        opened.append((context, problems))
        return page

    yield open_phone
    for context, _ in opened:
        context.close()
    problems = [problem for _, found in opened for problem in found]
    assert not problems, f"JavaScript errors or CSP violations on the phones: {problems}"


@pytest.fixture
def csp_violations(page: Page) -> list[str]:
    """What the page reported against the Content-Security-Policy (``watch_csp``)."""
    return watch_csp(page)


@pytest.fixture(autouse=True)
def _no_server_errors(
    live_server: LiveServer, page: Page, csp_violations: list[str]
) -> Iterator[None]:
    """Fail a test whose requests raised on the server, whose page threw in JavaScript or
    broke the Content-Security-Policy (an inline script, style or handler, anything from
    another origin): every browser test proves its pages run under the policy."""
    page.set_default_timeout(10_000)

    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    live_server.errors.clear()
    yield
    assert not live_server.errors, f"the server raised: {live_server.errors!r}"
    assert not page_errors, f"JavaScript errors on the page: {page_errors}"
    assert not csp_violations, f"Content-Security-Policy violations: {csp_violations}"


@pytest.fixture
def shot(page: Page, request: pytest.FixtureRequest) -> Shot:
    """``shot("name")`` saves a full-page screenshot as artifacts/e2e/<test>-<nn>-<name>.png
    (of the ``page`` fixture, or of the page given as ``of``)."""
    test = re.sub(r"[^\w-]+", "-", request.node.name).strip("-")
    count = 0

    def take(name: str, of: Page | None = None) -> Path:
        nonlocal count
        count += 1
        path = ARTIFACTS / f"{test}-{count:02d}-{name}.png"
        (of or page).screenshot(path=path, full_page=True)
        return path

    return take


@pytest.fixture
def table(page: Page, shot: Shot) -> Table:
    return Table(page, shot)
