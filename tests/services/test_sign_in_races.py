"""The throttle and the first account under bursts: many requests at once, on several app
instances sharing one database (several hosts), counted exactly; and OWASP's device cookies,
so that strangers cannot lock an account's owner out.

Each app keeps at most 15 connections (SQLAlchemy's pool), as a server's worker does: a burst
is spread over enough apps that none waits for one. The throttle's clock is stopped
(``Clock``), so a burst is at one moment however slowly the machine runs it: the counts below
are exact, not "at most".
"""

from __future__ import annotations

import collections
import datetime
import threading
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from stored import OWNER
from stored import PASSWORD

from anotador import services
from anotador.services import throttle
from anotador.services.accounts import FIRST_TAKEN
from anotador.services.accounts import setup_code
from anotador.storage.database import db
from anotador.storage.models import SignInFailure
from anotador.storage.models import User
from anotador.storage.models import name_key
from anotador.web import device_cookies

ACCOUNT = throttle.ALLOWANCES["account"]
SETUP = throttle.ALLOWANCES["setup"]
OWNER_KEY = throttle.account_key(name_key(OWNER))


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = datetime.datetime(2026, 12, 1, 20, 0, tzinfo=datetime.UTC)
        monkeypatch.setattr(throttle, "utc_now", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def at_once(requests: list[Callable[[], Any]]) -> collections.Counter[int]:
    """Run every request in a thread of its own, all released together; their statuses."""
    return collections.Counter(response.status_code for response in responses_at_once(requests))


def responses_at_once(requests: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(requests))
    responses: list[Any] = []
    errors: list[BaseException] = []

    def run(request: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            responses.append(request())
        except BaseException as error:  # a 500 is an exception in a test app
            errors.append(error)

    threads = [threading.Thread(target=run, args=(request,)) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return responses


def post(client: FlaskClient, path: str, address: str, **data: str) -> Callable[[], Any]:
    return lambda: client.post(path, data=data, environ_overrides={"REMOTE_ADDR": address})


def sign_in(client: FlaskClient, password: str, address: str = "127.0.0.1") -> Any:
    return post(client, "/cuenta/entrar", address, name=OWNER, password=password)()


def attempts(app: Flask, key: str) -> int:
    with app.app_context():
        return throttle.attempts(key)


def count_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords checked from now on (every host of the test shares the one function)."""
    checked: list[str] = []
    original = services.accounts.check_password_hash

    def check(stored: str, password: str) -> bool:
        checked.append(password)
        return original(stored, password)

    monkeypatch.setattr(services.accounts, "check_password_hash", check)
    return checked


def owners_phone(app: Flask) -> FlaskClient:
    """A browser the owner signed in with before (and signed out of): it has its cookie."""
    phone = app.test_client()
    assert sign_in(phone, PASSWORD).status_code == 303
    assert phone.get_cookie(device_cookies.COOKIE, path="/cuenta/entrar") is not None
    assert phone.post("/cuenta/salir").status_code == 303
    return phone


def test_a_burst_of_wrong_passwords_on_two_hosts_passes_only_the_allowance(
    app_factory: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    hosts = [app_factory(), app_factory()]
    phone = owners_phone(hosts[0])
    burst = [
        post(hosts[n % 2].test_client(), "/cuenta/entrar", "127.0.0.1", name=OWNER, password="mal")
        for n in range(20)
    ]
    checked = count_checks(monkeypatch)
    statuses = at_once(burst)
    assert set(statuses) <= {401, 429}  # never a 500
    # Only the allowance was checked; every attempt is counted, on the account and the address.
    assert len(checked) == ACCOUNT.free
    assert attempts(hosts[0], OWNER_KEY) == 20
    assert attempts(hosts[1], "address:127.0.0.1") == 20
    # So the account is locked for strangers, the right password too; the owner's phone is not.
    locked = sign_in(hosts[1].test_client(), PASSWORD)
    assert "Probá de nuevo en 15 minutos." in locked.get_data(as_text=True)
    assert sign_in(phone, PASSWORD).status_code == 303


def test_strangers_from_many_addresses_lock_strangers_out_not_the_owner(
    app_factory: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    hosts = [app_factory() for _ in range(3)]
    phone = owners_phone(hosts[0])
    burst = [
        post(hosts[n % 3].test_client(), "/cuenta/entrar", f"192.0.2.{n}", name=OWNER, password="x")
        for n in range(40)
    ]
    checked = count_checks(monkeypatch)
    assert set(at_once(burst)) <= {401, 429}
    assert len(checked) == ACCOUNT.free
    assert attempts(hosts[0], OWNER_KEY) == 40
    clock.advance(throttle.MAX_WAIT)
    locked = sign_in(hosts[1].test_client(), PASSWORD, "203.0.113.1")
    assert "Probá de nuevo en 14 minutos." in locked.get_data(as_text=True)
    # The owner's phone is no stranger: it signs in, on either host, and stays trusted.
    assert sign_in(phone, PASSWORD).status_code == 303
    assert phone.post("/cuenta/salir").status_code == 303
    phone_on_other_host = hosts[1].test_client()
    cookie = phone.get_cookie(device_cookies.COOKIE, path="/cuenta/entrar")
    assert cookie is not None
    phone_on_other_host.set_cookie(device_cookies.COOKIE, cookie.value, path="/cuenta/entrar")
    assert sign_in(phone_on_other_host, PASSWORD).status_code == 303


def test_a_device_has_its_own_allowance_and_its_cookie_cannot_be_forged(app: Flask, clock: Clock):
    phone = owners_phone(app)
    for _ in range(ACCOUNT.lock_after or 0):
        sign_in(phone, "mal")
        clock.advance(throttle.MAX_WAIT)
    assert sign_in(phone, PASSWORD).status_code == 429  # that phone is locked now
    assert attempts(app, OWNER_KEY) == 0  # strangers were not
    assert sign_in(app.test_client(), PASSWORD, "192.0.2.9").status_code == 303
    forged = app.test_client()
    forged.set_cookie(device_cookies.COOKIE, "eyJuIjoieCIsImEiOlsxXX0.x.y", path="/cuenta/entrar")
    for _ in range(ACCOUNT.free):
        assert sign_in(forged, "mal", "192.0.2.10").status_code in (401, 429)
    assert attempts(app, OWNER_KEY) == ACCOUNT.free  # counted as a stranger's


def test_an_unknown_name_reads_as_a_wrong_password(app: Flask):
    unknown = post(app.test_client(), "/cuenta/entrar", "192.0.2.1", name="Nadie", password="x")
    wrong = post(app.test_client(), "/cuenta/entrar", "192.0.2.2", name=OWNER, password="x")
    first, second = unknown(), wrong()
    assert first.status_code == second.status_code == 401
    # The same page, but for the name typed back into its field.
    page = first.get_data(as_text=True).replace("Nadie", OWNER)
    assert page == second.get_data(as_text=True)
    assert attempts(app, throttle.account_key("nadie")) == attempts(app, OWNER_KEY) == 1


def test_setup_codes_from_many_addresses_at_once_pass_only_the_allowance(
    app_factory: Any, clock: Clock
):
    hosts = [app_factory(account=False) for _ in range(3)]
    burst = [
        post(
            hosts[n % 3].test_client(),
            "/cuenta/crear",
            f"127.0.{n // 200}.{n % 200 + 1}",
            name=f"Intruso {n}",
            password=PASSWORD,
            confirm=PASSWORD,
            setup_code=f"{n:09d}",
        )
        for n in range(30)
    ]
    statuses = at_once(burst)
    assert statuses == {422: SETUP.free, 429: 30 - SETUP.free}
    assert attempts(hosts[0], throttle.SETUP_KEY) == 30
    with hosts[0].app_context():
        assert services.accounts.account_count() == 0
    code = setup_code(hosts[0].config["SECRET_KEY"])
    late = post(
        hosts[1].test_client(),
        "/cuenta/crear",
        "127.9.9.9",
        name="Admin",
        password=PASSWORD,
        confirm=PASSWORD,
        setup_code=code,
    )
    assert late().status_code == 429  # from a new address too


def test_first_sign_ups_at_once_make_exactly_one_administrator(app_factory: Any):
    # Closed sign-up: one that arrives after the first account exists is refused (403),
    # rather than made an ordinary account.
    hosts = [app_factory(account=False, SIGN_UP_OPEN=False) for _ in range(2)]
    code = setup_code(hosts[0].config["SECRET_KEY"])
    burst = [
        post(
            hosts[n % 2].test_client(),
            "/cuenta/crear",
            "127.0.0.1",
            name=f"Primera {n}",
            password=PASSWORD,
            confirm=PASSWORD,
            setup_code=code,
        )
        for n in range(10)
    ]
    responses = responses_at_once(burst)
    statuses = collections.Counter(response.status_code for response in responses)
    assert statuses[303] == 1
    assert set(statuses) <= {303, 422, 403}
    with hosts[0].app_context():
        users = db.session.scalars(sa.select(User)).all()
        assert [(user.is_admin, user.first_account) for user in users] == [(True, True)]
    with hosts[0].test_request_context():
        expected = str(FIRST_TAKEN).split(":")[0]
    refused = [response for response in responses if response.status_code == 422]
    assert all(expected in response.get_data(as_text=True) for response in refused)
    assert attempts(hosts[0], throttle.SETUP_KEY) == 0  # the right code is not a guess


def test_sign_ups_are_throttled_per_address_and_for_the_installation(
    app_factory: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    hosts = [app_factory(), app_factory()]
    free = throttle.ALLOWANCES["sign-up"].free

    def sign_up(n: int, address: str) -> Callable[[], Any]:
        return post(
            hosts[n % 2].test_client(),
            "/cuenta/crear",
            address,
            name=f"Cuenta {n}",
            password=PASSWORD,
            confirm=PASSWORD,
        )

    assert at_once([sign_up(n, "192.0.2.1") for n in range(12)]) == {303: free, 429: 12 - free}
    # The installation counted those 12 attempts: with an allowance of 15, 3 more go through.
    monkeypatch.setitem(throttle.ALLOWANCES, "sign-ups", throttle.Allowance(free=15))
    statuses = at_once([sign_up(n, f"192.0.2.{n}") for n in range(100, 110)])
    assert statuses == {303: 3, 429: 7}
    with hosts[0].app_context():
        assert services.accounts.account_count() == 1 + free + 3


def test_trying_names_that_are_taken_is_throttled_too(app: Flask, clock: Clock):
    client = app.test_client()
    typed = {"password": PASSWORD, "confirm": PASSWORD}
    for _ in range(throttle.ALLOWANCES["sign-up"].free):
        taken = post(client, "/cuenta/crear", "192.0.2.1", name=OWNER, **typed)()
        assert "Ese nombre ya está usado" in taken.get_data(as_text=True)
    refused = post(client, "/cuenta/crear", "192.0.2.1", name="Otra", **typed)()
    assert refused.status_code == 429
    assert "Ese nombre" not in refused.get_data(as_text=True)


def test_forgotten_keys_are_deleted_when_new_ones_come(app: Flask, clock: Clock):
    for number in range(5):
        post(app.test_client(), "/cuenta/entrar", f"192.0.2.{number}", name="x", password="y")()
    clock.advance(throttle.LOCK_FOR.total_seconds())
    post(app.test_client(), "/cuenta/entrar", "198.51.100.1", name="z", password="y")()
    with app.app_context():
        kept = db.session.scalars(sa.select(SignInFailure.key).order_by(SignInFailure.key))
        assert list(kept) == [throttle.account_key("z"), throttle.address_key("198.51.100.1")]
