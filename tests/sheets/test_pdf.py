"""Printed score sheets: the PDFs' extracted text, their pages, the cache and the commands."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pypdf
import pytest
from click.testing import CliRunner
from flask import Flask
from flask import has_app_context
from flask.testing import FlaskClient
from stored import create_stored_match

from anotador import rules
from anotador import services
from anotador import sheets as pdf
from anotador.commands.main import main
from anotador.sheets import render
from anotador.sheets import shelf
from anotador.sheets.chart import progression_chart

SIDES = [
    {"name": "Nosotros", "players": ["Ana", "Beto"]},
    {"name": "Ellos", "players": ["Carla", "Dani"]},
    {"name": "Los Otros", "players": ["Eva", "Fede"]},
]


def side(clean: int = 0, dirty: int = 0, table: int = 0, hand: int = 0, red: int = 0) -> dict:
    return {
        "clean": clean,
        "dirty": dirty,
        "table_points": table,
        "hand_points": hand,
        "red_threes": red,
    }


def finished_match() -> dict[str, Any]:
    """Uruguaya 4p to 5000, three hands: Ellos win 6315 to 2825 (margin 3490)."""
    return {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "title": "Final del club",
        "played_on": "2025-03-14",
        "sides": SIDES[:2],
        "hands": [
            {
                "end": "closed",
                "closer": 0,
                "sides": [side(2, 1, 760, 0, 1), side(0, 1, 340, 85, 2)],
            },
            {
                "end": "closed",
                "closer": 1,
                "concealed": True,
                "sides": [side(0, 0, 0, 210, 1), side(3, 0, 900, 40, 0)],
            },
            {
                "end": "closed",
                "closer": 1,
                "sides": [side(1, 0, 420, 45, 0), side(2, 2, 1200, 0, 1)],
            },
        ],
    }


def long_match(hands: int, sides: int = 2, seed: int = 7) -> dict[str, Any]:
    """A uruguaya match of ``hands`` modest hands that never reaches its target."""
    rng = random.Random(seed)
    played = []
    for _ in range(hands):
        closer = rng.randrange(sides)
        entries = [
            side(
                clean=1 if index == closer else 0,
                dirty=rng.randint(0, 1),
                table=5 * rng.randint(20, 60),
                hand=0 if index == closer else 5 * rng.randint(10, 60),
                red=rng.randint(0, 1),
            )
            for index in range(sides)
        ]
        played.append({"end": "closed", "closer": closer, "sides": entries})
    return {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p" if sides == 2 else "6p-3x2",
        "options": {"target": 100_000, "canastas_to_close": 1},
        "sides": SIDES[:sides],
        "hands": played,
    }


def scored(document: dict[str, Any]) -> tuple[rules.Match, rules.MatchScore]:
    game, problems = rules.read_match(document)
    assert game is not None, problems
    return game, rules.score_match(game)


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def written(value: int) -> str:
    """A score as an English sheet writes it, as the app's pages do ("3,490", "−85")."""
    return f"{value:,}".replace("-", "\u2212")


def page_size(pdf: bytes) -> tuple[float, float]:
    box = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


@pytest.fixture(scope="module")
def finished_pdf() -> bytes:
    game, score = scored(finished_match())
    return pdf.render_match_sheet(game, score, lang="en")


@pytest.fixture(scope="module")
def sixty_pdf() -> bytes:
    game, score = scored(long_match(60))
    return pdf.render_match_sheet(game, score, lang="en")


# The match sheet


def test_match_sheet_shows_sides_players_and_rules(finished_pdf: bytes) -> None:
    (text,) = pages(finished_pdf)
    for expected in ("Final del club", "2025-03-14", "Uruguayan canasta", "4 players, 2 pairs"):
        assert expected in text
    assert "to 5,000 points" in text
    for name in ("Nosotros", "Ellos", "Ana, Beto", "Carla, Dani"):
        assert name in text


def test_match_sheet_has_every_hand_total_minimum_and_the_result(finished_pdf: bytes) -> None:
    game, score = scored(finished_match())
    (text,) = pages(finished_pdf)
    rows = [line.split() for line in text.splitlines()]
    for number, hand in enumerate(score.hands, start=1):
        row = next(r for r in rows if r and r[0] == str(number) and len(r) > 8)
        for result in hand.sides:
            assert written(result.score) in row
            assert written(result.total) in row
            assert str(result.opening_minimum) in row
    assert score.totals == (2825, 6315)
    assert score.winner == 1
    assert "Ellos wins by 3,490 points" in text
    assert "Margin: 3,490" in text
    assert "Winner" in text or "WINNER" in text


def test_match_sheet_says_who_closed_and_how(finished_pdf: bytes) -> None:
    (text,) = pages(finished_pdf)
    assert "Ellos (in one go)" in text
    game, _ = scored(long_match(1))
    stock_out = {
        "end": "stock_out",
        "closer": None,
        "sides": [side(table=50, hand=20), side(table=60, hand=5)],
    }
    game, score = scored({**long_match(1), "hands": [stock_out]})
    assert "stock ran out" in pages(pdf.render_match_sheet(game, score, lang="en"))[0]


def test_match_sheet_lists_only_changed_options() -> None:
    document = finished_match()
    document["options"] = {"red_threes_need_canasta": True, "target": 7500}
    game, score = scored(document)
    text = pages(pdf.render_match_sheet(game, score, lang="en"))[0]
    assert "red threes need a canasta: yes" in text
    assert "to 7,500 points" in text
    assert "wild canasta" not in text
    default_text = pages(pdf.render_match_sheet(*scored(finished_match()), lang="en"))[0]
    assert "House rules" not in default_text


def test_two_sides_portrait_a4_three_sides_landscape_and_letter() -> None:
    two = pdf.render_match_sheet(*scored(long_match(5)), lang="en")
    three = pdf.render_match_sheet(*scored(long_match(5, sides=3)), lang="en")
    letter = pdf.render_match_sheet(*scored(long_match(5)), paper="letter", lang="en")
    assert page_size(two) == (595, 842)
    assert page_size(three) == (842, 595)
    assert page_size(letter) == (612, 792)
    text = pages(three)[0]
    assert all(name in text for name in ("Nosotros", "Ellos", "Los Otros"))


def test_sixty_hands_span_pages_with_the_header_on_each(sixty_pdf: bytes) -> None:
    texts = pages(sixty_pdf)
    assert len(texts) >= 2
    header = re.compile(
        r"#\s+Nosotros\s+Ellos\s+Closed by\s*"
        r"(Canastas Table Red 3s Closing In hand Points Total Min\.\s*){2}"
    )
    for number, text in enumerate(texts, start=1):
        assert f"Page {number} of {len(texts)}" in text
        assert header.search(text), number
    # Each hand's row, with its running totals, lies whole on one page.
    _, score = scored(long_match(60))
    for number, hand in enumerate(score.hands, start=1):
        totals = [written(result.total) for result in hand.sides]
        rows = [
            line.split()
            for text in texts
            for line in text.splitlines()
            if line.split()[:1] == [str(number)]
        ]
        assert any(all(total in row for total in totals) for row in rows), number


def test_start_scores_and_a_match_without_hands() -> None:
    document = {**finished_match(), "hands": [], "start_scores": [1200, 2700]}
    text = pages(pdf.render_match_sheet(*scored(document), lang="en"))[0]
    assert "Start" in text
    assert "1,200" in text
    assert "2,700" in text
    assert "No hands yet." in text
    assert "In progress" in text


def test_real_has_no_opening_minimum() -> None:
    document = {
        "format": "anotador-match/1",
        "variant": "real",
        "layout": "4p",
        "sides": SIDES[:2],
        "hands": [
            {
                "end": "closed",
                "closer": 0,
                "sides": [
                    {"limpia": 1, "table_points": 300, "hand_points": 0},
                    {"table_points": 100, "hand_points": 60, "muerto": "not_taken"},
                ],
            }
        ],
    }
    text = pages(pdf.render_match_sheet(*scored(document), lang="en"))[0]
    assert "Muerto" in text
    assert "−100" in text
    assert "free" in text


def test_spanish_is_the_default_language() -> None:
    text = pages(pdf.render_match_sheet(*scored(finished_match())))[0]
    assert "Página 1 de 1" in text
    assert "Gana Ellos por 3.490 puntos" in text


def test_a_spanish_sheet_uses_the_words_and_numbers_of_the_app() -> None:
    """ "Mazo" as the app says it, 5.720 as the app writes it, and "mano" once: the column
    of the cards left in hand ("En mano"); the hand's score is "Puntos", a concealed
    closing "de una sola vez"."""
    stock_out = {"end": "stock_out", "sides": [side(table=50, hand=20), side(table=60, hand=5)]}
    document = finished_match()
    document["hands"].insert(0, stock_out)
    text = pages(pdf.render_match_sheet(*scored(document), lang="es"))[0]
    assert "se acabó el mazo" in text
    assert "pozo" not in text
    assert "a 5.000 puntos" in text
    assert re.search(r"Gana Ellos por \d\.\d{3} puntos", text)
    assert not re.search(r"\b\d{4}\b", text.replace("2025-03-14", ""))
    assert "Ellos (de una sola vez)" in text
    assert "(en mano)" not in text
    words = text.split()
    assert words.count("Mano") == 0
    assert words.count("Puntos") == 2


def test_the_chart_has_a_line_per_side_and_the_target() -> None:
    chart = str(progression_chart([[0, 500, 900], [0, 300, 1200], [0, -50, 10]], 1500))
    assert chart.count("<polyline") == 3
    assert 'stroke-dasharray="5 3"' in chart
    assert ">1.500<" in chart
    far = str(progression_chart([[0, 500], [0, 300]], 1_000_000))
    assert "↑ 1.000.000" in far
    assert 'stroke-dasharray="5 3"' not in far


def test_sheets_never_fetch_over_the_network() -> None:
    fetcher = render.local_fetcher()
    with pytest.raises(ValueError, match="disallowed protocol"):
        fetcher.fetch("http://example.com/sheet.css")
    response = fetcher.fetch(render.STYLESHEET.as_uri())
    try:
        assert b"@page" in response.read()
    finally:
        response.close()


# The blank sheet


# The tallest sheets: each variant's two- and three-side layouts (6p-3x2 has long names).
LAYOUTS = [
    (variant, layout)
    for variant in rules.VARIANTS
    for layout in ("4p", "6p-3x2")
    if layout in rules.VARIANTS[variant].layouts
]


@pytest.mark.parametrize(("variant", "layout"), LAYOUTS)
def test_blank_sheet_is_one_page(variant: str, layout: str) -> None:
    for paper in ("A4", "letter"):
        texts = pages(pdf.render_blank_sheet(variant, layout, None, "en", paper=paper))
        assert len(texts) == 1, paper
        assert "20" in texts[0].split()  # room for twenty hands


def reference_text(variant: str, layout: str, target: int | None = None, lang: str = "en") -> str:
    (text,) = pages(pdf.render_blank_sheet(variant, layout, target, lang))
    marker = {"en": "Reference", "es": "Referencia", "it": "Promemoria"}[lang]
    return " ".join(text[text.index(marker) :].split())


def test_blank_uruguaya_reference_values() -> None:
    text = reference_text("uruguaya", "4p")
    for row in ("< 0 15", "0 – 1,495 50", "1,500 – 2,995 90", "3,000 – 6,995 120", "≥ 7,000 150"):
        assert row in text
    for value in ("Joker 50", "A 20", "8 – K 10", "4 – 7 5", "Black 3 5"):
        assert value in text
    assert "Clean canasta 500" in text
    assert "Dirty canasta 300" in text
    assert "Closing 100" in text
    assert "Concealed closing 200" in text
    assert "1 2 3 4 100 200 300 800" in text
    six = reference_text("uruguaya", "6p-3x2")
    assert "1 2 3 4 5 6 100 200 300 400 1,000 1,200" in six


def test_blank_canastone_reference_values() -> None:
    text = reference_text("canastone", "4p")
    assert "to 12,000 points" in pages(pdf.render_blank_sheet("canastone", "4p", None, "en"))[0]
    for row in ("< 3,000 50", "3,000 – 4,995 90", "5,000 – 6,995 120", "7,000 – 9,995 160"):
        assert row in text
    assert "≥ 10,000 180" in text
    assert "200" not in text.split("Card values")[0]
    for value in ("Pure aces 1,000", "Seven pinelle 3,000", "Six jokers 5,000", "Closing 300"):
        assert value in text
    assert "1 2 3 4 5 6 100 200 300 800 1,000 1,200" in text
    longer = reference_text("canastone", "4p", 15000)
    assert "10,000 – 11,995 180" in longer
    assert "≥ 12,000 200" in longer


def test_blank_real_has_a_free_opening_and_its_runs() -> None:
    text = reference_text("real", "4p")
    assert "free" in text
    assert "Red threes" not in text
    assert "Clean run 200" in text
    assert "Dirty run 100" in text
    assert "(de mil) 1,000" in text
    assert "Muerto not taken −100" in text
    assert "A 15" in text
    assert "libre" in reference_text("real", "2p", lang="es").lower()


def test_blank_sheet_refuses_bad_settings() -> None:
    with pytest.raises(rules.InvalidInput):
        pdf.render_blank_sheet("mac", "2p", None, "es")
    with pytest.raises(rules.InvalidInput):
        pdf.render_blank_sheet("real", "3p", None, "es")
    with pytest.raises(rules.InvalidInput):
        pdf.render_blank_sheet("uruguaya", "4p", 0, "es")
    with pytest.raises(ValueError, match="language"):
        pdf.render_blank_sheet("uruguaya", "4p", None, "de")


# The web


def test_download_is_a_pdf_with_etag_and_304(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, finished_match())
    response = client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    assert "Ellos wins by 3,490 points" in pages(response.data)[0]
    etag = response.headers["ETag"]
    again = client.get(
        f"/partidas/{match_id}/planilla.pdf?idioma=en", headers={"If-None-Match": etag}
    )
    assert again.status_code == 304
    assert again.data == b""
    other_paper = client.get(
        f"/partidas/{match_id}/planilla.pdf?idioma=en&papel=carta",
        headers={"If-None-Match": etag},
    )
    assert other_paper.status_code == 200
    assert page_size(other_paper.data) == (612, 792)


def test_repeated_download_comes_from_the_cache(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = create_stored_match(app, finished_match())
    first = client.get(f"/partidas/{match_id}/planilla.pdf")

    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("rendered again")

    monkeypatch.setattr(shelf, "draw", refuse)
    second = client.get(f"/partidas/{match_id}/planilla.pdf")
    assert second.status_code == 200
    assert second.data == first.data
    assert second.headers["ETag"] == first.headers["ETag"]


def test_an_edited_hand_changes_the_sheet(app: Flask, client: FlaskClient) -> None:
    document = finished_match()
    match_id = create_stored_match(app, document)
    first = client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en")
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        changed = {
            **document["hands"][2],
            "sides": [side(1, 0, 420, 45, 0), side(2, 2, 1150, 0, 1)],
        }
        assert services.hands.edit_hand(match, 3, changed, match.version).ok
    second = client.get(
        f"/partidas/{match_id}/planilla.pdf?idioma=en",
        headers={"If-None-Match": first.headers["ETag"]},
    )
    assert second.status_code == 200
    assert second.headers["ETag"] != first.headers["ETag"]
    assert "Ellos wins by 3,440 points" in pages(second.data)[0]


def test_the_users_language_is_the_default(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, finished_match())
    english = client.get(f"/partidas/{match_id}/planilla.pdf", headers={"Accept-Language": "en"})
    assert "Page 1 of 1" in pages(english.data)[0]
    spanish = client.get(f"/partidas/{match_id}/planilla.pdf", headers={"Accept-Language": "es"})
    assert "Página 1 de 1" in pages(spanish.data)[0]


@pytest.mark.parametrize(
    ("query", "message"),
    [("papel=a3", "a4 or carta"), ("idioma=de", "es, en or it"), ("papel=", "a4 or carta")],
)
def test_bad_parameters_are_a_400(
    app: Flask, client: FlaskClient, query: str, message: str
) -> None:
    match_id = create_stored_match(app, finished_match())
    response = client.get(
        f"/partidas/{match_id}/planilla.pdf?{query}", headers={"Accept-Language": "en"}
    )
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_unknown_match_is_a_404(client: FlaskClient) -> None:
    assert client.get("/partidas/999/planilla.pdf").status_code == 404


def test_blank_sheet_form_and_download(client: FlaskClient) -> None:
    form = client.get("/planillas/en-blanco")
    assert form.status_code == 200
    assert 'name="variante"' in form.get_data(as_text=True)
    response = client.get(
        "/planillas/en-blanco?variante=canastone&disposicion=6p-3x2&objetivo=15000&idioma=en"
    )
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    (text,) = pages(response.data)
    assert "to 15,000 points" in text
    assert "≥ 12,000 200" in " ".join(text.split())
    repeat = client.get(
        "/planillas/en-blanco?variante=canastone&disposicion=6p-3x2&objetivo=15000&idioma=en",
        headers={"If-None-Match": response.headers["ETag"]},
    )
    assert repeat.status_code == 304


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("variante=bridge&disposicion=4p", "variants in the list"),
        ("variante=real&disposicion=3p", "not played with that layout"),
        ("variante=uruguaya&disposicion=4p&objetivo=mucho", "whole number"),
        ("variante=uruguaya&disposicion=4p&objetivo=0", "at least 5"),
        ("variante=uruguaya&disposicion=4p&papel=a5", "a4 or carta"),
        ("variante=uruguaya&disposicion=4p&idioma=fr", "es, en or it"),
    ],
)
def test_blank_sheet_bad_parameters_are_a_400(
    client: FlaskClient, query: str, message: str
) -> None:
    response = client.get(f"/planillas/en-blanco?{query}", headers={"Accept-Language": "en"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in page
    assert 'name="variante"' in page  # the form again, to fix the choice


# The command line


def test_sheet_command_writes_the_pdf(tmp_path: Path) -> None:
    source = tmp_path / "match.json"
    source.write_text(json.dumps(finished_match()), encoding="utf-8")
    output = tmp_path / "out.pdf"
    result = CliRunner().invoke(
        main, ["sheet", str(source), "-o", str(output), "--lang", "en", "--paper", "letter"]
    )
    assert result.exit_code == 0, result.output
    assert "Ellos wins by 3,490 points" in pages(output.read_bytes())[0]
    assert page_size(output.read_bytes()) == (612, 792)


def test_sheet_command_reports_an_invalid_file_like_score(tmp_path: Path) -> None:
    document = finished_match()
    document["sides"] = document["sides"][:1]
    document["hands"][0]["sides"][1]["red_threes"] = -1
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    output = tmp_path / "out.pdf"
    result = CliRunner().invoke(main, ["sheet", str(source), "-o", str(output)])
    assert result.exit_code == 2
    assert re.search(r"^sides: ", result.stderr, re.MULTILINE)
    assert not output.exists()
    scored_result = CliRunner().invoke(main, ["score", str(source)])
    assert scored_result.exit_code == 2
    assert result.stderr == scored_result.stderr


def test_blank_command(tmp_path: Path) -> None:
    output = tmp_path / "blank.pdf"
    args = ["blank", "--variant", "uruguaya", "--layout", "4p", "--target", "7500"]
    result = CliRunner().invoke(main, [*args, "--lang", "en", "-o", str(output)])
    assert result.exit_code == 0, result.output
    (text,) = pages(output.read_bytes())
    assert "to 7,500 points" in text
    bad = CliRunner().invoke(main, ["blank", "--variant", "real", "--layout", "3p", "-o", "x.pdf"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("layout: ")


@pytest.mark.parametrize(("lang", "words"), [("es", "Mínimo para bajar"), ("it", "Totale finale")])
def test_a_sheet_drawn_outside_the_web_app_is_in_its_language(lang: str, words: str) -> None:
    """The command line and the drawing process draw sheets with no web app: they read the
    same catalogs (anotador/words/translations)."""
    assert not has_app_context()
    assert words in pages(pdf.render_match_sheet(*scored(finished_match()), lang=lang))[0]
