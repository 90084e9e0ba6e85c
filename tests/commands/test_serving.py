"""Reachable from the table: the listening address, the LAN address, the banner with its QR
code, the home page's QR code (anotador/web/addresses.py) and gunicorn's settings
(anotador/commands/serve.py)."""

from __future__ import annotations

import socket
from typing import Any

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from gunicorn.workers.gthread import ThreadWorker

from anotador.commands import gunicorn_worker
from anotador.commands import serve as production
from anotador.commands import startup
from anotador.web import addresses as serving
from anotador.web import security
from anotador.web.extensions import LANGUAGES
from anotador.words import i18n

LAN = "192.168.1.23"


@pytest.fixture(autouse=True)
def english_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine whose user reads English: the banner follows ``LANG`` (tests below set
    other languages)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


@pytest.fixture
def on_a_network(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(serving, "lan_ipv4", lambda: LAN)
    return LAN


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serving, "lan_ipv4", lambda: None)


# Where it listens


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, ("0.0.0.0", 5000)),
        ({"HOST": "127.0.0.1"}, ("127.0.0.1", 5000)),
        ({"PORT": "8080"}, ("0.0.0.0", 8080)),
        ({"HOST": " ", "PORT": ""}, ("0.0.0.0", 5000)),
        ({"HOST": "::", "PORT": "65535"}, ("::", 65535)),
    ],
)
def test_listen_address_defaults_to_every_address_on_5000(environ, expected):
    assert serving.listen_address(environ) == expected


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1", "5 000", "٥٠٠٠", "0x50"])
def test_listen_address_refuses_a_port_that_is_not_one(port: str):
    with pytest.raises(ValueError, match="PORT"):
        serving.listen_address({"PORT": port})


# The LAN address, found without sending a packet


class FakeSocket:
    """A UDP socket whose system picks ``address`` (or has no route: ``address`` None)."""

    connected: list[tuple[str, int]] = []

    def __init__(self, address: str | None) -> None:
        self.address = address

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def connect(self, target: tuple[str, int]) -> None:
        if self.address is None:
            raise OSError(101, "Network is unreachable")
        FakeSocket.connected.append(target)

    def getsockname(self) -> tuple[str, int]:
        assert self.address is not None
        return (self.address, 54321)

    def send(self, data: bytes) -> int:  # pragma: no cover - never called
        raise AssertionError("lan_ipv4 must not send anything")


@pytest.mark.parametrize(
    ("picked", "expected"),
    [
        ("192.168.1.23", "192.168.1.23"),
        ("10.0.0.7", "10.0.0.7"),
        (None, None),  # no network at all
        ("127.0.0.1", None),
        ("0.0.0.0", None),
        ("169.254.3.4", None),  # link-local: no DHCP, no network to speak of
    ],
)
def test_lan_ipv4_asks_the_system_which_address_it_would_use(
    monkeypatch: pytest.MonkeyPatch, picked: str | None, expected: str | None
):
    made: list[tuple[Any, ...]] = []

    def fake(*args: Any) -> FakeSocket:
        made.append(args)
        return FakeSocket(picked)

    monkeypatch.setattr(socket, "socket", fake)

    assert serving.lan_ipv4() == expected
    assert made == [(socket.AF_INET, socket.SOCK_DGRAM)]  # UDP: connect sends nothing


def test_lan_ipv4_on_this_machine_is_an_address_or_none():
    found = serving.lan_ipv4()
    assert found is None or serving.is_loopback(found) is False


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("192.168.1.23", False),
        ("anotador.club.example", False),
        ("", False),
        (None, False),
    ],
)
def test_is_loopback(host: str | None, loopback: bool):
    assert serving.is_loopback(host) is loopback


# The banner


def qr_of(url: str) -> list[str]:
    return startup.terminal_qr(url)


def test_banner_shows_the_lan_address_and_its_qr_code(app: Flask, on_a_network: str):
    lines = startup.banner_lines(app, "0.0.0.0", 5000)

    url = f"http://{LAN}:5000/"
    assert any(url in line and "phone" in line for line in lines)
    qr = qr_of(url)
    assert len(qr) > 10
    assert set("".join(qr)) <= set("█▀▄ ")
    text = "\n".join(lines)
    assert "\n".join(qr) in text
    assert qr != qr_of("http://192.168.1.24:5000/")  # the code is the address's own


def test_banner_without_a_network_says_only_this_machine(app: Flask, offline: None):
    lines = startup.banner_lines(app, "0.0.0.0", 8000)

    assert any("No network" in line and "http://127.0.0.1:8000/" in line for line in lines)
    assert "\n".join(qr_of("http://127.0.0.1:8000/")) in "\n".join(lines)


@pytest.mark.parametrize(
    ("host", "port", "url", "reachable"),
    [
        ("127.0.0.1", 5000, "http://127.0.0.1:5000/", False),
        ("::1", 5000, "http://[::1]:5000/", False),
        ("10.0.0.7", 80, "http://10.0.0.7/", True),
        ("::", 5000, f"http://{LAN}:5000/", True),
        ("fd00::7", 5000, "http://[fd00::7]:5000/", True),
    ],
)
def test_phone_address_for_each_kind_of_host(
    on_a_network: str, host: str, port: int, url: str, reachable: bool
):
    assert serving.phone_address(host, port) == (url, reachable)


def test_a_loopback_banner_says_how_to_let_the_phones_in(app: Flask):
    lines = startup.banner_lines(app, "127.0.0.1", 5000)

    assert any("Only this machine" in line and "HOST=0.0.0.0" in line for line in lines)


def test_a_terminal_without_block_characters_gets_the_address_only(app: Flask, on_a_network: str):
    shown: list[str] = []

    startup.echo_banner(app, "0.0.0.0", 5000, shown.append, "ascii")

    assert any(f"http://{LAN}:5000/" in line for line in shown)
    assert not any("█" in line or "▀" in line for line in shown)
    everything: list[str] = []
    startup.echo_banner(app, "0.0.0.0", 5000, everything.append, "utf-8")
    assert everything == startup.banner_lines(app, "0.0.0.0", 5000)


@pytest.mark.parametrize(
    ("environ", "line"),
    [
        ({"LANG": "es_AR.UTF-8"}, "Abrilo en un teléfono de esta red"),
        ({"LANG": "C.UTF-8"}, "Abrilo en un teléfono de esta red"),  # no language: Spanish
        ({"LANG": "de_DE.UTF-8"}, "Abrilo en un teléfono de esta red"),  # none of ours
        ({"LANG": "it_IT.UTF-8"}, "Aprilo su un telefono di questa rete"),
        ({"LANG": "es_AR.UTF-8", "LC_ALL": "it_IT.UTF-8"}, "Aprilo su un telefono"),
        ({"LANG": "en_GB.UTF-8"}, "Open it on a phone on this network"),
        ({"LANGUAGE": "en:es", "LANG": "es_ES.UTF-8"}, "Open it on a phone on this network"),
    ],
)
def test_the_banner_speaks_the_machines_language(
    app: Flask,
    on_a_network: str,
    monkeypatch: pytest.MonkeyPatch,
    environ: dict[str, str],
    line: str,
):
    monkeypatch.delenv("LANG")
    for name, value in environ.items():
        monkeypatch.setenv(name, value)

    lines = startup.banner_lines(app, "0.0.0.0", 5000)

    assert any(text.startswith(line) and f"http://{LAN}:5000/" in text for text in lines)


def test_without_language_variables_the_system_locale_decides(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("LANG")
    monkeypatch.setattr("locale.getlocale", lambda: ("it_IT", "cp1252"))  # as on Windows

    assert i18n.machine_language({}, LANGUAGES) == "it"
    monkeypatch.setattr("locale.getlocale", lambda: (None, None))
    assert i18n.machine_language({}, LANGUAGES) == "es"


# The home page's QR code


def qr_section(page: str) -> str:
    start = page.index('<section class="phone-link"')
    return page[start : page.index("</section>", start)]


@pytest.mark.parametrize(
    "base_url", ["http://localhost", "http://127.0.0.1:5000", "http://0.0.0.0:5000"]
)
def test_home_page_on_this_machine_shows_the_lan_address(
    client: FlaskClient, on_a_network: str, base_url: str
):
    page = client.get("/", base_url=base_url).get_data(as_text=True)

    port = base_url.rpartition(":")[2] if base_url.count(":") == 2 else None
    expected = f"http://{LAN}:{port}/" if port else f"http://{LAN}/"
    section = qr_section(page)
    assert serving.qr_svg(expected) in section
    assert f'<p class="phone-url">{expected}</p>' in section
    assert "Abrí en otro teléfono" in section
    assert 'class="qr-code"' in section
    assert " style=" not in section


def test_home_page_reached_on_the_network_shows_that_address(client: FlaskClient, offline: None):
    page = client.get("/", base_url="http://192.168.7.8:5000").get_data(as_text=True)

    section = qr_section(page)
    assert serving.qr_svg("http://192.168.7.8:5000/") in section
    assert "http://192.168.7.8:5000/" in section


def test_the_qr_code_is_the_address_and_draws_nothing_from_outside():
    svg = str(serving.qr_svg("http://192.168.7.8:5000/"))
    expected = segno.make("http://192.168.7.8:5000/", error="m").svg_inline(
        dark="#000", light="#fff", border=2, omitsize=True, svgclass="qr-code"
    )

    assert svg == expected.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
    assert svg != str(serving.qr_svg("http://192.168.7.9:5000/"))
    assert "viewBox" in svg
    assert "style" not in svg
    assert "href" not in svg


def test_home_page_on_this_machine_without_a_network_has_no_qr_code(
    client: FlaskClient, offline: None
):
    page = client.get("/").get_data(as_text=True)

    assert "phone-link" not in page
    assert "<svg" not in page


def test_a_forged_host_gets_no_qr_code(client: FlaskClient, offline: None):
    response = client.get("/", headers={"Host": ".".join(["a" * 60] * 5) + ".example"})

    assert response.status_code == 200
    assert "phone-link" not in response.get_data(as_text=True)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost"])
def test_a_server_on_this_machine_only_offers_the_phones_no_address(
    app: Flask, client: FlaskClient, on_a_network: str, host: str
):
    serving.listen_on(app, host)

    page = client.get("/", base_url="http://127.0.0.1:5101").get_data(as_text=True)

    section = qr_section(page)
    assert LAN not in page
    assert "<svg" not in page
    assert "--host 0.0.0.0" in section
    assert "Los otros teléfonos no pueden abrirla" in section


def test_a_server_on_every_address_offers_the_lan_address(
    app: Flask, client: FlaskClient, on_a_network: str
):
    serving.listen_on(app, "0.0.0.0")

    page = client.get("/", base_url="http://127.0.0.1:5101").get_data(as_text=True)

    assert f"http://{LAN}:5101/" in qr_section(page)


def test_waitress_tells_the_app_where_it_listens(app: Flask, monkeypatch: pytest.MonkeyPatch):
    from anotador.commands import waitress_server

    monkeypatch.setattr(waitress_server.startup, "prepare", lambda app, echo: True)
    monkeypatch.setattr(waitress_server, "listen", lambda app, host, port: Stopped())
    waitress_server.serve(app, "127.0.0.1", 5101, lambda line: None)

    assert serving.phones_locked_out(app)


class Stopped:
    """A server that stops at once (Ctrl+C)."""

    def run(self) -> None:
        raise KeyboardInterrupt

    def close(self) -> None:
        pass


def test_home_page_in_english(client: FlaskClient, on_a_network: str):
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)

    assert "Open on another phone" in qr_section(page)


# gunicorn's settings


@pytest.mark.parametrize(
    ("environ", "cores", "expected"),
    [
        ({}, 1, 2),
        ({}, 2, 3),
        ({}, 4, 5),
        ({}, 32, 8),
        ({}, None, 2),
        ({"WEB_CONCURRENCY": "3"}, 32, 3),
        ({"WEB_CONCURRENCY": " "}, 4, 5),
    ],
)
def test_workers_follow_web_concurrency_else_the_cores(environ, cores, expected):
    assert production.default_workers(environ, cores) == expected


@pytest.mark.parametrize("value", ["0", "65", "many", "-2", "2.5"])
def test_web_concurrency_must_be_a_count(value: str):
    with pytest.raises(ValueError, match="WEB_CONCURRENCY"):
        production.default_workers({"WEB_CONCURRENCY": value}, 4)


def test_gunicorn_serves_the_app_object_with_several_threaded_workers(app: Flask):
    options = production.gunicorn_options(app, "::", 8000, 3, print)
    server = production.Server(app, options)

    assert server.load() is app
    assert server.cfg.bind == ["[::]:8000"]
    assert server.cfg.workers == 3
    assert server.cfg.worker_class_str == production.WORKER_CLASS
    assert issubclass(server.cfg.worker_class, ThreadWorker)  # gthread's, buffering requests
    assert server.cfg.threads == production.THREADS
    assert server.cfg.keepalive == production.KEEPALIVE  # live viewers keep their connection
    assert server.cfg.secure_scheme_headers == {}  # the scheme is ProxyFix's only
    assert production.bind_address("0.0.0.0", 5000) == "0.0.0.0:5000"


# gunicorn's worker: a request arrives whole before a thread serves it


@pytest.mark.parametrize(
    ("received", "expected"),
    [
        (b"", "waiting"),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\n", "waiting"),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "arrived"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nab", "waiting"),
        (b"POST /x HTTP/1.1\r\ncontent-length:  5\r\n\r\nabcde", "arrived"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcdeGET", "arrived"),  # pipelined
        (b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "arrived"),
        (b"POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 9\r\n\r\n", "arrived"),
        (b"POST /x HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", "arrived"),  # the thread reads
        (b"POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "arrived"),  # gunicorn refuses it
        (b"POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "arrived"),
        (b"GET / HTTP/1.1\r\nX: " + b"a" * gunicorn_worker.HEAD_LIMIT, "too large"),
    ],
)
def test_a_request_arrives_with_its_head_and_its_small_body(received: bytes, expected: str):
    assert gunicorn_worker.arrival(received).value == expected


def test_gunicorn_error_answers_get_the_security_headers():
    sent: list[bytes] = []

    class Sock:
        def sendall(self, data: bytes) -> None:
            sent.append(data)

    hardened = gunicorn_worker.HardenedSocket(Sock())
    hardened.sendall(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nbad")

    head, body = sent[0].split(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 400 Bad Request"
    assert "Connection: close" in lines
    for name, value in security.HEADERS.items():
        assert f"{name}: {value}" in lines
    assert body == b"bad"
