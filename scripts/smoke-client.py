#!/usr/bin/env python3
"""Use a running anotador as a person would: the first account with the setup code the server
printed, the home page, a new match, one hand, its PDF.

Usage: smoke-client.py BASE_URL SERVER_LOG   (e.g. http://127.0.0.1:8123 server.log)

Standard library only, so any Python 3.11 runs it. CSRF protection is on, as in the real app:
each form is fetched first, and its fields (csrf_token included) are posted back with the
session cookie, like a browser. Exits non-zero with a message at the first thing that fails.
"""

from __future__ import annotations

import http.cookiejar
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

#: A hand of the shared spec's examples (E1): 2260 to the first side, 755 to the second.
HAND = {
    "closer": "0",
    "s0_clean": "2",
    "s0_dirty": "1",
    "s0_table_points": "760",
    "s0_red_threes": "1",
    "s1_dirty": "1",
    "s1_table_points": "340",
    "s1_hand_points": "85",
    "s1_red_threes": "2",
    "action": "save",
}


class Forms(HTMLParser):
    """The fields a browser would submit from each form of a page (submit buttons left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[dict[str, str | None], dict[str, str]]] = []
        self.current: dict[str, str] | None = None
        self.disabled = 0
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.current = {}
            self.forms.append((a, self.current))
            return
        if self.current is None:
            return
        if tag == "fieldset" and (self.disabled or "disabled" in a):
            self.disabled += 1
        if self.disabled or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.current[name] = a.get("value") or "on"
            elif kind != "submit":
                self.current[name] = a.get("value") or ""
        elif tag == "select" and name:
            self.select = name
        elif (
            tag == "option" and self.select and (self.select not in self.current or "selected" in a)
        ):
            self.current[self.select] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "fieldset" and self.disabled:
            self.disabled -= 1
        elif tag == "select":
            self.select = None


def fail(message: str) -> None:
    sys.exit(f"smoke-client: {message}")


class Browser:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def open(self, path: str, data: dict[str, str] | None = None) -> tuple[str, str, bytes]:
        """(final URL, content type, body) after redirects; fails on any error status."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)
        request.add_header("Accept-Language", "es-AR,es;q=0.9")
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.geturl(), response.headers.get_content_type(), response.read()
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace")[:2000]
            fail(f"{'POST' if data is not None else 'GET'} {path}: {error.code}\n{detail}")
            raise

    def page(self, path: str, data: dict[str, str] | None = None) -> tuple[str, str]:
        url, kind, body = self.open(path, data)
        if kind != "text/html":
            fail(f"{path}: expected text/html, got {kind}")
        return url, body.decode("utf-8")


def form_fields(page: str, chosen: str, where: str) -> dict[str, str]:
    """The fields of the first form whose opening tag has the attribute ``chosen``."""
    reader = Forms()
    reader.feed(page)
    for attrs, fields in reader.forms:
        if chosen in attrs:
            if not fields.get("csrf_token"):
                fail(f"{where}: the form has no csrf_token")
            return fields
    fail(f"{where}: no form with {chosen}")
    raise AssertionError


def main(base: str, log: str) -> None:
    browser = Browser(base)

    _, welcome = browser.page("/")
    for words in ('<html lang="es">', "Anotador de Canasta", "Crear una cuenta"):
        if words not in welcome:
            fail(f"the welcome page is not in Spanish: {words!r} missing")
    # The first account, with the setup code the server printed where it was started (in the
    # machine's language: the code is the line's three groups of three digits).
    said = re.search(r": (\d{3} \d{3} \d{3})$", Path(log).read_text(), re.MULTILINE)
    if said is None:
        fail("the server did not print the setup code of the first account")
        raise AssertionError
    _, sign_up = browser.page("/cuenta/crear")
    fields = form_fields(sign_up, "data-sign-up", "/cuenta/crear")
    password = "la clave de la casa"
    account = {"name": "Marta", "password": password, "confirm": password}
    _, home = browser.page("/cuenta/crear", {**fields, **account, "setup_code": said.group(1)})
    for words in ("Anotador de Canasta", "Nueva partida", "Marta"):
        if words not in home:
            fail(f"the home page after the sign-up: {words!r} missing")
    print("first account with the setup code; home page: 200, in Spanish")

    _, new = browser.page("/partidas/nueva")
    fields = form_fields(new, "data-new-match", "/partidas/nueva")
    url, match_page = browser.page("/partidas/nueva", {**fields, "start": "1"})
    found = re.fullmatch(r".*/partidas/(\d+)", url)
    if not found:
        fail(f"creating a match led to {url}, not to a match page")
    match_id = found.group(1)
    print(f"match {match_id} created (default: uruguaya, 4 players)")

    _, hand_form = browser.page(f"/partidas/{match_id}/manos/nueva")
    fields = form_fields(hand_form, "data-preview-url", "the new-hand form")
    url, match_page = browser.page(f"/partidas/{match_id}/manos/nueva", {**fields, **HAND})
    if not url.endswith(f"/partidas/{match_id}"):
        fail(f"saving the hand led to {url}, not back to the match")
    if "2.260" not in match_page or "755" not in match_page:
        fail("the match page does not show the hand's score (2.260 and 755)")
    print("hand 1 scored: 2.260 and 755")

    _, kind, pdf = browser.open(f"/partidas/{match_id}/planilla.pdf")
    if kind != "application/pdf" or not pdf.startswith(b"%PDF"):
        fail(f"the planilla is {kind}, starting {pdf[:8]!r}: not a PDF")
    print(f"planilla.pdf: {len(pdf)} bytes of PDF")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
