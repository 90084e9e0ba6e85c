"""What a printed sheet says: a PDF's text, for the tests that read a sheet as a person does.

A module of its own, as ``stored.py``, so the browser tests can import it too."""

from __future__ import annotations

import io

import pypdf


def pdf_text(pdf: bytes) -> str:
    """Every page's text, its runs of spaces and line ends made one space."""
    assert pdf.startswith(b"%PDF-")
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())
