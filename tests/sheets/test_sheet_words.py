"""Issue 12: each variant's printed words (Burako is played with tiles, Burraco scores
burrachi), from the catalogs, in every language."""

from __future__ import annotations

import io

import pypdf
import pytest
from stored import create_stored_match
from stored import signed_in

from anotador import sheets as pdf


def blank_text(variant: str, lang: str) -> str:
    document = pdf.render_blank_sheet(variant, "4p", None, lang)
    return " ".join(pypdf.PdfReader(io.BytesIO(document)).pages[0].extract_text().split())


@pytest.mark.parametrize(
    ("lang", "tiles", "decks"),
    [
        ("es", "2 juegos de fichas", "mazos"),
        ("en", "2 sets of tiles", "decks"),
        ("it", "2 serie di tessere", "mazzi"),
    ],
)
def test_the_burako_sheet_counts_tiles_not_decks(lang: str, tiles: str, decks: str) -> None:
    text = blank_text("burako", lang)
    assert tiles in text
    assert decks not in text
    assert decks in blank_text("uruguaya", lang)  # cards still come in decks


@pytest.mark.parametrize(
    ("lang", "word", "canastas"),
    [("es", "Burracos", "Canastas"), ("en", "Burrachi", "Canastas"), ("it", "Burrachi", "Canaste")],
)
def test_the_burraco_sheet_names_its_canastas_burrachi(lang: str, word: str, canastas: str) -> None:
    text = blank_text("burraco", lang)
    # The column and the reference box's title.
    assert text.count(word) >= 2
    assert canastas not in text
    assert canastas in blank_text("uruguaya", lang)


@pytest.mark.parametrize(
    ("lang", "word"),
    [("es", "Premios por burracos"), ("en", "Burraco bonuses"), ("it", "Premi dei burrachi")],
)
def test_the_burraco_planilla_names_its_canastas_burrachi(app, lang: str, word: str) -> None:
    sides = [{"name": "Nos"}, {"name": "Ellos"}]
    hand = {"end": "closed", "closer": 0, "sides": [{"pulito": 1, "table_points": 200}, {}]}
    document = {"format": "anotador-match/1", "variant": "burraco", "layout": "4p"}
    match_id = create_stored_match(app, {**document, "sides": sides, "hands": [hand]})
    page = signed_in(app).get(f"/partidas/{match_id}", headers={"Accept-Language": lang})

    breakdown = page.get_data(as_text=True)
    assert f"<dt>{word}</dt>" in breakdown
    assert "<dt>Canastas</dt>" not in breakdown
    assert "<dt>Canaste</dt>" not in breakdown
