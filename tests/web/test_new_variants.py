"""mac, burako and burraco through the app (issue 12): the new-match form, the hand form (mac's
special hand replacing a side's inputs, burako's muerto and tiles, burraco's pozzetto and
semipulito), the match page, both PDFs, the statistics and the match file's round trip."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from printed import pdf_text
from stored import MakeMatch
from test_matches import new_match_fields

from anotador import rules
from anotador import services
from anotador.services.scope import EVERYTHING
from anotador.statistics import reads as statistics_reads
from anotador.statistics import summaries as stats

ENGLISH = {"Accept-Language": "en"}
SIDES = [
    {"name": "Norte", "players": ["Ana", "Beto"]},
    {"name": "Sur", "players": ["Carla", "Dani"]},
]


def hand_form_keys(client: FlaskClient, match_id: int) -> dict[str, str]:
    text = client.get(f"/partidas/{match_id}/manos/nueva", headers=ENGLISH).get_data(as_text=True)
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', text)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', text)
    assert key
    assert version
    return {"request_key": key.group(1), "version": version.group(1)}


def post_hand(client: FlaskClient, match_id: int, data: dict[str, str], status: int = 302):
    response = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**hand_form_keys(client, match_id), **data},
        headers=ENGLISH,
    )
    assert response.status_code in ((302, 303) if status == 302 else (status,)), response.get_data(
        as_text=True
    )
    return response


def stored_hands(app: Flask, match_id: int) -> list[dict[str, Any]]:
    with app.app_context():
        return [hand.inputs for hand in services.queries.load_match(match_id).hands]


@pytest.mark.parametrize(
    ("variant", "layout", "options"),
    [
        ("mac", "4p", {"three_in_hand_cost": "5", "garbage_value": "2000"}),
        ("burako", "2p", {"muerto_bonus": "0"}),
        ("burako", "4p", {"no_canasta_table_negative": ""}),
        ("burraco", "4p", {"semipulito": "", "pulito_to_close": "y"}),
    ],
)
def test_the_new_match_form_starts_each_variant(
    app: Flask, client: FlaskClient, variant: str, layout: str, options: dict[str, str]
):
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    defaults = rules.variant_defaults(variant, layout)
    data = {**form, "variant": variant, "layout": layout, "target": str(defaults["target"])}
    for spec in rules.get_variant(variant).options:
        default = spec.default
        value = ("y" if default else "") if spec.kind == "bool" else str(default)
        data[f"{variant}__{spec.name}"] = options.get(spec.name, value)
    data["start"] = "1"
    created = client.post("/partidas/nueva", data=data)
    assert created.status_code == 303, created.get_data(as_text=True)
    match_id = int(created.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert (match.variant, match.layout) == (variant, layout)
        expected = {
            spec.name: (
                bool(options[spec.name]) if spec.kind == "bool" else int(options[spec.name])
            )
            for spec in rules.get_variant(variant).options
            if spec.name in options
        }
        assert {key: match.settings[key] for key in expected} == expected


def test_a_mac_special_hand_replaces_the_side_inputs(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    match_id = make_match("mac", layout="4p", sides=SIDES)
    form = client.get(f"/partidas/{match_id}/manos/nueva", headers=ENGLISH).get_data(as_text=True)
    for word in (
        "Natural aces canastas",
        "Wild-card canastas with the four jokers",
        "Black threes",
        "Unfinished sevens meld",
        "Players left with 3 or more aces",
        "Threes left in hand",
        "Special hand",
        "Zip code",
        "Nobody: a side laid down a special hand",
    ):
        assert word in form, word
    # A side's inputs beside its special hand are refused, next to the field.
    wrong = post_hand(
        client,
        match_id,
        {"closer": "special", "s1_special_hand": "straight", "s1_table_points": "50"},
        status=422,
    )
    assert re.search(r'id="f-s1_table_points">.*?msg error', wrong.get_data(as_text=True), re.S)
    post_hand(
        client,
        match_id,
        {
            "closer": "special",
            "s1_special_hand": "straight",
            "s0_natural": "1",
            "s0_table_points": "200",
            "s0_hand_points": "15",
        },
    )
    (hand,) = stored_hands(app, match_id)
    assert (hand["end"], hand["closer"]) == ("special_hand", None)
    assert hand["sides"][1]["special_hand"] == "straight"
    page = client.get(f"/partidas/{match_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Special hand of Sur: Straight." in page
    # The edit form shows it chosen again.
    edit = client.get(f"/partidas/{match_id}/manos/1", headers=ENGLISH).get_data(as_text=True)
    assert re.search(r'value="straight"[^>]*checked|checked[^>]*value="straight"', edit)
    pdf = client.get(f"/partidas/{match_id}/planilla.pdf?idioma=en")
    assert pdf.status_code == 200
    assert "Sur (Straight)" in pdf_text(pdf.data)


def test_a_mac_dream_hand_ends_the_match(app: Flask, client: FlaskClient, make_match: MakeMatch):
    match_id = make_match("mac", layout="4p", sides=SIDES)
    post_hand(client, match_id, {"closer": "special", "s0_special_hand": "dream_hand_plus_5"})
    page = client.get(f"/partidas/{match_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Norte won!" in page


def test_burako_hand_form_has_tiles_and_muerto(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    match_id = make_match("burako", layout="4p", sides=SIDES)
    form = client.get(f"/partidas/{match_id}/manos/nueva", headers={"Accept-Language": "es"})
    text = form.get_data(as_text=True)
    for word in (
        "Puras",
        "Impuras",
        "Muerto",
        "Fichas 1 (15)",
        "Comodines (50)",
        "No tomado",
        "Calculadora de fichas",
        "Fichas en mesa",
    ):
        assert word in text, word
    post_hand(
        client,
        match_id,
        {
            "closer": "0",
            "s0_pura": "1",
            "s0_table_points": "200",
            "s0_muerto": "taken",
            "s1_table_points": "60",
            "s1_hand_points": "40",
            "s1_muerto": "not_taken",
        },
    )
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match.totals == [200 + 200 + 100 + 100, -60 - 100 - 40]


def test_burraco_semipulito_follows_its_option(client: FlaskClient, make_match: MakeMatch):
    pairs = [{"name": "Nord"}, {"name": "Sud"}]
    on = make_match("burraco", layout="2p", sides=pairs)
    off = make_match("burraco", layout="2p", sides=pairs, options={"semipulito": False})
    italian = {"Accept-Language": "it"}
    text_on = client.get(f"/partidas/{on}/manos/nueva", headers=italian).get_data(as_text=True)
    text_off = client.get(f"/partidas/{off}/manos/nueva", headers=italian).get_data(as_text=True)
    for word in ("Burraco pulito", "Burraco sporco", "Pozzetto", "Jolly (30)", "Pinelle (2) (20)"):
        assert word in text_on, word
    assert "Burraco semipulito" in text_on
    assert "Burraco semipulito" not in text_off


@pytest.mark.parametrize(
    ("variant", "layout", "lang", "words"),
    [
        ("mac", "4p", "en", ["Special hands", "Zip code 2,500", "Natural aces 2,500", "−2,500"]),
        ("burako", "2p", "es", ["Valor de las fichas", "Canasta pura 200", "Muerto tomado 100"]),
        ("burraco", "4p", "it", ["Pulito 200", "Semipulito 150", "Pozzetto non preso \u2212100"]),
    ],
)
def test_blank_sheets(client: FlaskClient, variant: str, layout: str, lang: str, words: list):
    blank = client.get(
        f"/planillas/en-blanco?variante={variant}&disposicion={layout}&idioma={lang}"
    )
    assert blank.status_code == 200
    text = pdf_text(blank.data)
    for word in words:
        assert word in text, word


def test_statistics_count_canastas_by_kind_and_special_hands(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    hands = [
        {
            "end": "closed",
            "closer": 0,
            "sides": [{"natural": 1, "aces": 1, "table_points": 400}, {"table_points": 60}],
        },
        {"end": "special_hand", "closer": None, "sides": [{"special_hand": "pairs"}, {}]},
    ]
    make_match("mac", layout="4p", sides=SIDES, hands=hands)
    with app.app_context():
        player = services.queries.find_player(EVERYTHING, "Ana")
        assert player is not None
        summaries = statistics_reads.summaries(EVERYTHING, frozenset({player.id}), all_players=True)
        record = stats.team_stats(summaries, frozenset({player.id})).by_variant["mac"]
        assert record.kinds["natural"] == 1
        assert record.kinds["aces"] == 1
        assert record.special_hands == 1
        assert dict(record.kinds_per_hand())["aces"] == 0.5
        player_id = player.id
    page = client.get(f"/jugadores/{player_id}", headers=ENGLISH).get_data(as_text=True)
    assert "Canastas per hand by kind" in page
    assert "Natural aces canastas" in page


@pytest.mark.parametrize("variant", ["mac", "burako", "burraco"])
def test_export_is_the_imported_file(app: Flask, client: FlaskClient, variant: str):
    fixture = {
        "mac": {"sides": [{"natural": 2, "table_points": 300}, {"table_points": 60}]},
        "burako": {"sides": [{"pura": 1, "table_points": 200}, {"muerto": "not_taken"}]},
        "burraco": {"sides": [{"pulito": 1, "table_points": 200}, {"pozzetto": "not_taken"}]},
    }[variant]
    document = {
        "format": "anotador-match/1",
        "variant": variant,
        "layout": "4p",
        "sides": SIDES,
        "played_on": "2026-11-30",
        "hands": [{"end": "closed", "closer": 0, **fixture}],
    }
    match, problems = rules.read_match(document)
    assert match is not None, problems
    upload = client.post(
        "/partidas/importar",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "m.json")},
        content_type="multipart/form-data",
    )
    assert upload.status_code in (302, 303), upload.get_data(as_text=True)
    match_id = int(upload.headers["Location"].rsplit("/", 1)[1])
    exported = client.get(f"/partidas/{match_id}/exportar")
    assert json.loads(exported.data) == rules.match_to_document(match)
