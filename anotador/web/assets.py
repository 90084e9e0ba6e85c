"""Static files with content-hashed URLs, kept by browsers for a year; compressed responses.

``url_for('static', filename=...)`` of a file adds ``v=<hash of its content>``: a changed
file has a new URL, so the URL with the current hash is answered ``immutable`` with a year's
lifetime and a phone never asks again. The same file without ``v`` (an old page, a link
kept somewhere) or with an old hash is still served, revalidated as before. Each file is
hashed once per process, on first use, and again (in debug mode) only when its size or
modification time changes (the large Pyodide files under ``static/vendor/pyodide/`` are
read once, not per request). A folder (Pyodide's ``indexURL``) gets no hash. Routes outside
the ``static`` endpoint (a service worker, a manifest) are left as they are.

Pages, JSON answers and static text files (CSS, JavaScript, manifests) are compressed with
Flask-Compress (the encodings the client accepts) above a small size: a phone on a poor
connection downloads about a third of the bytes. Other streamed bodies (exports) and
downloads (PDF) are sent as they are.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Any

from flask import Flask
from flask import Response
from flask import request
from flask_compress import Compress

#: A year, the longest lifetime worth giving (RFC 9111 caches treat more as a year).
IMMUTABLE = "public, max-age=31536000, immutable"
#: Characters of the content hash in a URL.
HASH_LENGTH = 12
#: Static text files up to this size are read whole so that they can be compressed (every
#: file of ours; Pyodide's run-time files are larger or binary and are streamed as they are).
COMPRESSED_STATIC_BYTES = 4 * 1024 * 1024

compress = Compress()
_hashes: dict[str, tuple[int, int, str]] = {}
_lock = threading.Lock()


def content_hash(path: Path) -> str | None:
    """The hash of a static file's content (None for a folder or a missing file), kept in
    memory until its size or modification time changes."""
    try:
        found = path.stat()
    except OSError:
        return None
    if not path.is_file():
        return None
    key = str(path)
    with _lock:
        known = _hashes.get(key)
    if known is not None and known[:2] == (found.st_size, found.st_mtime_ns):
        return known[2]
    digest = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    value = digest.hexdigest()[:HASH_LENGTH]
    with _lock:
        _hashes[key] = (found.st_size, found.st_mtime_ns, value)
    return value


def init_app(app: Flask) -> None:
    folder = Path(app.static_folder or "")
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    # Streamed bodies (static files, exports) stay as they are: Flask-Compress's stream
    # path never closes the file it reads, and a static file is fetched once (immutable).
    app.config.setdefault("COMPRESS_STREAMS", False)
    compress.init_app(app)
    compressed = frozenset(app.config["COMPRESS_MIMETYPES"])

    # Outside debug mode the files do not change while the server runs: each name's hash
    # is looked up once (a page links a dozen files).
    hashed_names: dict[str, str | None] = {}

    @app.url_defaults
    def hashed_static_url(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            filename = str(values.get("filename") or "")
            if app.debug or filename not in hashed_names:
                hashed_names[filename] = content_hash(safe_join(folder, filename))
            found = hashed_names[filename]
            if found is not None:
                values["v"] = found

    # Registered after Flask-Compress's hook, so it runs before it (Flask runs them last first).
    @app.after_request
    def cache_hashed_static_files(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code in (200, 304):
            filename = (request.view_args or {}).get("filename", "")
            asked = request.args.get("v")
            if asked and asked == content_hash(safe_join(folder, filename)):
                response.headers["Cache-Control"] = IMMUTABLE
            if response.status_code == 200 and response.mimetype in compressed:
                read_whole_to_compress(response)
        return response


def read_whole_to_compress(response: Response) -> None:
    """Give a static file's response its bytes instead of the open file, closing the file
    now, so that Flask-Compress compresses it (it leaves streamed bodies alone: its stream
    path never closed the file)."""
    size = response.content_length
    if not response.is_streamed or size is None or size > COMPRESSED_STATIC_BYTES:
        return
    response.direct_passthrough = False
    body = b"".join(response.iter_encoded())
    response.close()
    response.set_data(body)


def safe_join(folder: Path, filename: str) -> Path:
    """``filename`` inside ``folder``; a name reaching outside it gives the folder (no hash)."""
    path = Path(os.path.normpath(folder / filename))
    return path if path.is_relative_to(folder) else folder


COMPRESSED = [
    "text/html",
    "text/css",
    "text/plain",
    "text/xml",
    "application/json",
    "application/javascript",
    "text/javascript",
    "application/manifest+json",
    "image/svg+xml",
]
