"""Static files under content-hashed URLs with a year's immutable lifetime (old names still
served, revalidated), hashes read once per file; responses compressed."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from flask import Flask
from flask import url_for
from flask.testing import FlaskClient

from anotador.web import assets


def stylesheet_url(client: FlaskClient) -> str:
    page = client.get("/no-such-page").get_data(as_text=True)
    found = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]+)"', page)
    assert found, "the layout's stylesheet has a hashed URL"
    return found.group(1)


def test_a_hashed_static_url_is_immutable_and_the_old_name_still_served(client: FlaskClient):
    url = stylesheet_url(client)
    hashed = client.get(url)
    assert hashed.status_code == 200
    assert hashed.headers["Cache-Control"] == assets.IMMUTABLE
    plain = client.get("/static/css/app.css")
    assert plain.status_code == 200
    assert plain.data == hashed.data
    assert "immutable" not in plain.headers.get("Cache-Control", "")
    stale = client.get("/static/css/app.css?v=000000000000")
    assert stale.status_code == 200
    assert "immutable" not in stale.headers.get("Cache-Control", "")
    for response in (hashed, plain, stale):
        response.close()  # a file response holds its file open until closed


def urls_before_and_after_a_change(app: Flask, name: str) -> tuple[str, str]:
    """The URL of a new static file ``js/<name>``, then its URL once its content changed."""
    probe = Path(app.static_folder or "") / "js" / name
    try:
        probe.write_text("one")
        with app.test_request_context():
            first = url_for("static", filename=f"js/{name}")
            probe.write_text("two, longer")
            return first, url_for("static", filename=f"js/{name}")
    finally:
        probe.unlink()


def test_the_hash_follows_the_content_in_debug_mode(app: Flask):
    app.debug = True
    first, second = urls_before_and_after_a_change(app, "zz-assets-probe.js")
    with app.test_request_context():
        folder_url = url_for("static", filename="js/")
    assert first != second
    assert "?v=" in first
    assert folder_url == "/static/js/"  # a folder (Pyodide's indexURL) is left alone


def test_a_served_file_keeps_its_first_hash_outside_debug_mode(app: Flask):
    first, second = urls_before_and_after_a_change(app, "zz-assets-probe-kept.js")
    assert "?v=" in first
    assert second == first  # the files of a running server do not change: no stat per URL


def test_a_file_is_hashed_once(app: Flask, monkeypatch: pytest.MonkeyPatch):
    with app.test_request_context():
        url_for("static", filename="css/app.css")
        opened: list[Path] = []
        original = Path.open

        def spy(self: Path, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
            opened.append(self)
            return original(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Path, "open", spy)
        for _ in range(3):
            url_for("static", filename="css/app.css")
    assert opened == []


def test_pages_are_compressed(client: FlaskClient):
    response = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(response.data)
    assert "Accept-Encoding" in response.headers["Vary"]
    plain = client.get("/")
    assert "Content-Encoding" not in plain.headers


def test_static_text_files_are_compressed_and_still_revalidated(client: FlaskClient):
    url = stylesheet_url(client)
    original = (Path(client.application.static_folder or "") / "css" / "app.css").read_bytes()
    phone = {"Accept-Encoding": "gzip"}
    response = client.get(url, headers=phone)
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.data) == original
    assert len(response.data) < len(original) / 2
    assert response.headers["Cache-Control"] == assets.IMMUTABLE
    again = client.get(url, headers={**phone, "If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers
    assert plain.data == original
    plain.close()


def test_binary_static_files_are_sent_as_they_are(client: FlaskClient):
    response = client.get("/static/favicon.ico", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    response.close()
