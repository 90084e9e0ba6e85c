"""Views of the matches blueprint (home, new match, planilla, export/import) and languages."""

from __future__ import annotations

import copy
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from sql_counting import count_statements
from stored import MakeMatch
from stored import create_account
from stored import create_stored_match
from stored import match_document
from stored import signed_in

from anotador import services
from anotador.rules import MESSAGES
from anotador.rules import variant_defaults
from anotador.storage import caching
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Player

ROOT = Path(__file__).resolve().parent.parent.parent
E1 = json.loads((ROOT / "tests/fixtures/examples/E01.json").read_text())
E1_HAND = E1["hands"][0]


def document(**changes: Any) -> dict[str, Any]:
    return match_document(**{"layout": "4p", **changes})


def record(app: Flask, match_id: int, hand: dict[str, Any]) -> None:
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        outcome = services.hands.record_hand(match, copy.deepcopy(hand), match.version, None)
        assert outcome.ok, outcome


def match_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count(Match.id)))


def quiet_hand(table: int = 50, hand: int = 40) -> dict[str, Any]:
    """A stock-out hand worth table − hand to each side: totals creep up slowly."""
    side = {"clean": 0, "dirty": 0, "table_points": table, "hand_points": hand, "red_threes": 0}
    return {"end": "stock_out", "sides": [dict(side), dict(side)]}


class FormReader(HTMLParser):
    """What a browser would submit from the form marked ``data-new-match``."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.in_form = False
        self.disabled_depth = 0
        self.select: str | None = None
        self.select_first: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.in_form = "data-new-match" in a
        if not self.in_form:
            return
        if tag == "fieldset":
            self.disabled_depth += 1 if ("disabled" in a or self.disabled_depth) else 0
        if self.disabled_depth or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.fields[name] = a.get("value") or "y"
            elif kind != "submit":
                self.fields[name] = a.get("value") or ""
        elif tag == "select":
            self.select, self.select_first = name, None
        elif tag == "option" and self.select:
            if self.select_first is None:
                self.select_first = a.get("value") or ""
                self.fields[self.select] = self.select_first
            if "selected" in a:
                self.fields[self.select] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        elif tag == "fieldset" and self.disabled_depth:
            self.disabled_depth -= 1
        elif tag == "select":
            self.select = None


def new_match_fields(html: str) -> dict[str, str]:
    reader = FormReader()
    reader.feed(html)
    return reader.fields


# Home


def test_home_lists_ongoing_before_finished(app: Flask, client: FlaskClient) -> None:
    ongoing = create_stored_match(app, document(sides=[{"name": "Jugando"}, {"name": "Ahora"}]))
    # Created later (more recent), yet listed after the ongoing one.
    finished = document(sides=[{"name": "Campeones"}, {"name": "Rivales"}])
    create_stored_match(app, finished | {"start_scores": [4900, 0], "hands": [E1_HAND]})

    page = client.get("/").get_data(as_text=True)

    assert "Nueva partida" in page
    assert page.index("Jugando") < page.index("Campeones")
    assert f'href="/partidas/{ongoing}"' in page
    assert "Ganó Campeones" in page
    assert "1 mano" in page


def test_home_issues_the_same_statements_for_1_or_12_matches(
    app: Flask, client: FlaskClient
) -> None:
    create_stored_match(app, document())
    with count_statements(app) as few:
        assert client.get("/").status_code == 200
    for _ in range(11):
        create_stored_match(
            app, document(sides=[{"name": "A", "players": ["Ana", "Beto"]}, {"name": "B"}])
        )
    with count_statements(app) as many:
        assert client.get("/").status_code == 200
    assert len(few) == len(many)


# New match


def test_new_match_with_the_defaults_is_a_uruguaya_4p_match(
    app: Flask, client: FlaskClient
) -> None:
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    response = client.post("/partidas/nueva", data={**form, "start": "1"})

    assert response.status_code == 303
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert (match.variant, match.layout) == ("uruguaya", "4p")
        assert [side.name for side in match.sides] == ["Nosotros", "Ellos"]
        assert match.settings == variant_defaults("uruguaya", "4p")
        assert match.start_scores == [0, 0]


def test_defaults_follow_the_chosen_variant(app: Flask, client: FlaskClient) -> None:
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    page = client.post("/partidas/nueva", data={**form, "variant": "canastone", "apply": "1"})
    applied = new_match_fields(page.get_data(as_text=True))
    assert applied["target"] == "12000"
    assert applied["decks"] == "3"
    assert "canastas_to_close" not in applied or applied["canastas_to_close"] == ""

    response = client.post("/partidas/nueva", data={**applied, "start": "1"})

    assert response.status_code == 303
    with app.app_context():
        match = db.session.scalars(sa.select(Match)).one()
        assert match.variant == "canastone"
        assert match.settings == variant_defaults("canastone", "4p")


def test_defaults_for_every_variant_and_layout_are_in_the_page(client: FlaskClient) -> None:
    page = client.get("/partidas/nueva").get_data(as_text=True)
    data = json.loads(re.search(r'id="match-defaults">(.*?)</script>', page, re.S)[1])
    assert data["variants"]["canastone"]["layouts"]["4p"]["target"] == 12000
    assert data["variants"]["uruguaya"]["layouts"]["6p-2x3"] == variant_defaults(
        "uruguaya", "6p-2x3"
    )
    assert data["layouts"]["3p"]["names"] == ["Jugador 1", "Jugador 2", "Jugador 3"]


def test_three_sides_get_three_default_names(client: FlaskClient) -> None:
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    page = client.post("/partidas/nueva", data={**form, "layout": "6p-3x2", "apply": "1"})
    applied = new_match_fields(page.get_data(as_text=True))
    assert [applied["side_0"], applied["side_1"], applied["side_2"]] == [
        "Nosotros",
        "Ellos",
        "Los otros",
    ]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"target": "cinco mil"}, "target", "Escribí un número entero"),
        ({"start_0": "-7"}, "start_0", "Tiene que ser múltiplo de 5."),
        ({"start_1": "5000"}, "start_1", "tiene que ser menor que la meta (5000)"),
        ({"side_1": "x" * 61}, "side_1", "como máximo 60 caracteres"),
        ({"player_0_1": "y" * 61}, "player_0_1", "como máximo 60 caracteres"),
        ({"side_0": "  "}, "side_0", "No puede quedar vacío."),
        ({"uruguaya__aces_clean_value": "1003"}, "uruguaya__aces_clean_value", "múltiplo de 5"),
        ({"variant": "bridge"}, "variant", "Tiene que ser uno de: uruguaya"),
        ({"layout": "5p"}, "layout", "no se juega con la disposición 5p"),
    ],
)
def test_invalid_new_match_is_refused_in_spanish_and_keeps_what_was_typed(
    app: Flask, client: FlaskClient, changes: dict[str, str], field: str, message: str
) -> None:
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    data = {**form, "player_0_0": "Graciela", "start": "1", **changes}

    response = client.post("/partidas/nueva", data=data)

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in page
    assert 'value="Graciela"' in page
    errors = re.search(rf'id="{field}(?:-errors)?"(.*?)(?:</fieldset>|</div>)', page, re.S)
    assert errors is not None
    assert message in errors[1], f"{message!r} not next to {field}"
    assert match_count(app) == 0


def test_new_match_without_csrf_token_is_refused(app_factory: Any) -> None:
    app = app_factory(WTF_CSRF_ENABLED=True)
    client = signed_in(app)
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    assert form.get("csrf_token")
    del form["csrf_token"]

    response = client.post("/partidas/nueva", data={**form, "side_0": "Los Primos", "start": "1"})

    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Este formulario había vencido" in page
    assert 'value="Los Primos"' in page  # what was typed is kept
    assert match_count(app) == 0
    again = new_match_fields(page)
    assert client.post("/partidas/nueva", data={**again, "start": "1"}).status_code == 303
    assert match_count(app) == 1


def test_players_and_first_dealer_are_stored_in_seating_order(
    app: Flask, client: FlaskClient
) -> None:
    form = new_match_fields(client.get("/partidas/nueva").get_data(as_text=True))
    players = {"player_0_0": "Ana", "player_1_0": "Beto", "player_0_1": "Carla"}
    players |= {"player_1_1": "Dani", "first_dealer": "3"}
    response = client.post("/partidas/nueva", data={**form, **players, "start": "1"})
    assert response.status_code == 303
    with app.app_context():
        match = db.session.scalars(sa.select(Match)).one()
        seats = {seat.seat: seat.player.name for side in match.sides for seat in side.seats}
        assert seats == {0: "Ana", 1: "Beto", 2: "Carla", 3: "Dani"}
        assert match.first_dealer == 3
    page = client.get("/partidas/nueva").get_data(as_text=True)
    assert '<option value="Carla">' in page  # suggested from earlier matches


# The planilla


def test_planilla_shows_totals_and_opening_minimums(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, document(start_scores=[1200, 2700]))
    record(app, match_id, E1_HAND)

    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)

    assert 'data-total="3460"' in page
    assert 'data-total="3455"' in page
    assert page.count('data-minimum="120"') == 2
    assert "Mínimo para bajar" in page
    assert "+2.260" in page  # side A's hand score, in the hand row
    assert "Treses rojos" in page  # the breakdown, translated
    assert "faltan 1.540" in page
    assert ">3.460<" in page  # the big total


@pytest.mark.parametrize(("language", "total"), [("es", "3.460"), ("en", "3,460"), ("it", "3.460")])
def test_planilla_numbers_follow_the_language(
    app: Flask, client: FlaskClient, language: str, total: str
) -> None:
    match_id = create_stored_match(app, document(start_scores=[1200, 2700], hands=[E1_HAND]))
    headers = {"Accept-Language": language}
    page = client.get(f"/partidas/{match_id}", headers=headers).get_data(as_text=True)
    assert f">{total}<" in page
    assert "\u202f" not in page  # no other grouping left over
    hand_form = client.get(f"/partidas/{match_id}/manos/nueva", headers=headers).text
    assert f">{total}<" in hand_form  # the hand form writes totals the same way


def test_planilla_draws_the_score_progression_once_there_are_hands(
    app: Flask, client: FlaskClient
) -> None:
    match_id = create_stored_match(app, document(start_scores=[1200, 2700]))
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "<svg" not in page
    assert "Evolución del puntaje" not in page
    record(app, match_id, E1_HAND)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    chart = page[page.index('<section class="progression"') :]
    assert "Evolución del puntaje" in chart
    assert chart.count("<polyline") == 2  # one line per side
    assert "Meta" in chart  # the target, as a dashed line
    legend = re.search(r'<ul class="chart-legend">(.*?)</ul>', chart, re.S)
    assert legend is not None
    assert re.findall(r"</svg>([^<]+)</li>", legend[1]) == ["Nosotros", "Ellos"]


def test_planilla_without_opening_minimum_for_real(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, document(variant="real"))
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Bajada libre" in page
    assert "Mínimo para bajar" not in page


def test_winner_banner(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, document(start_scores=[4900, 0]))
    record(app, match_id, E1_HAND)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "¡Ganó Nosotros!" in page


@pytest.mark.parametrize(
    ("tie", "banner"),
    [("extra_hand", "Empate arriba: se juega otra mano."), ("shared", "Victoria compartida")],
)
def test_tie_follows_the_tie_policy(app: Flask, client: FlaskClient, tie: str, banner: str) -> None:
    match_id = create_stored_match(app, document(start_scores=[4500, 4500], options={"tie": tie}))
    record(app, match_id, quiet_hand(table=600, hand=0))
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert banner in page


def test_next_dealer_goes_round_the_table(app: Flask, client: FlaskClient) -> None:
    sides = [{"name": "Nosotros", "players": ["Ana", "Carla"]}]
    sides.append({"name": "Ellos", "players": ["Beto", "Dani"]})
    match_id = create_stored_match(app, document(sides=sides), first_dealer=1)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Reparte: Beto (Ellos)" in page
    record(app, match_id, quiet_hand())
    record(app, match_id, quiet_hand())
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Reparte: Dani (Ellos)" in page


def forget_cached_pages(app: Flask) -> None:
    caching.caches(app).clear()


def test_planilla_statements_do_not_grow_with_hands(app: Flask, client: FlaskClient) -> None:
    one = create_stored_match(app, document(hands=[quiet_hand()]))
    forty = create_stored_match(app, document(hands=[quiet_hand()] * 40))
    client.get(f"/partidas/{one}")  # warm up whatever runs once
    forget_cached_pages(app)
    counts = {}
    for cache in ("cold", "warm"):  # first view of each match, then a second one
        with count_statements(app) as for_one:
            assert client.get(f"/partidas/{one}").status_code == 200
        with count_statements(app) as for_forty:
            page = client.get(f"/partidas/{forty}").get_data(as_text=True)
        assert page.count('<details class="hand') == 40
        counts[cache] = len(for_one), len(for_forty)
    # The signed-in account is one more statement on every page (its session's id).
    assert counts["cold"][0] == counts["cold"][1] <= 4
    assert counts["warm"] == (2, 2)


def totals_shown(client: FlaskClient, match_id: int) -> list[str]:
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    return re.findall(r'data-total="(-?\d+)"', page)


def test_planilla_follows_every_change_at_once(app: Flask, client: FlaskClient) -> None:
    """The score and the rendered rows are cached per version of the match: each change
    shows at once (a cache that ignored the change would show the totals before it)."""
    match_id = create_stored_match(app, document(start_scores=[1200, 2700]))
    record(app, match_id, E1_HAND)
    record(app, match_id, quiet_hand())
    assert totals_shown(client, match_id) == ["3470", "3465"]
    assert totals_shown(client, match_id) == ["3470", "3465"]  # served from the caches

    with app.app_context():
        match = services.queries.load_match(match_id)
        assert services.hands.edit_hand(match, 2, quiet_hand(table=150), match.version).ok
    assert totals_shown(client, match_id) == ["3570", "3565"]
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "+110" in page  # the edited hand's row
    assert "+10<" not in page  # not the old one

    with app.app_context():
        match = services.queries.load_match(match_id)
        assert services.hands.delete_hand(match, 1, match.version).ok
    assert totals_shown(client, match_id) == ["1310", "2810"]
    assert (
        client.get(f"/partidas/{match_id}").get_data(as_text=True).count('<details class="hand')
        == 1
    )

    with app.app_context():
        match = services.queries.load_match(match_id)
        assert services.hands.undo_last_hand(match, match.version).ok
    assert totals_shown(client, match_id) == ["1200", "2700"]
    assert "Todavía no hay manos" in client.get(f"/partidas/{match_id}").get_data(as_text=True)


def test_planilla_shows_an_abandoned_match_at_once(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, document(hands=[quiet_hand()]))
    assert "quedó sin terminar" not in client.get(f"/partidas/{match_id}").get_data(as_text=True)
    with app.app_context():
        match = services.queries.load_match(match_id)
        version = match.version
        assert services.matches.set_abandoned(match, True, version)
    with app.app_context():
        assert services.queries.load_match(match_id).version == version + 1
    assert "quedó sin terminar" in client.get(f"/partidas/{match_id}").get_data(as_text=True)
    with app.app_context():
        assert services.matches.set_abandoned(
            services.queries.load_match(match_id), False, version + 1
        )
    assert "quedó sin terminar" not in client.get(f"/partidas/{match_id}").get_data(as_text=True)


def test_planilla_shows_a_renamed_player_at_once(app: Flask, client: FlaskClient) -> None:
    sides = [{"name": "Nosotros", "players": ["Ana", "Carla"]}]
    sides.append({"name": "Ellos", "players": ["Beto", "Dani"]})
    match_id = create_stored_match(app, document(sides=sides, hands=[quiet_hand()]), first_dealer=2)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Reparte: Dani (Ellos)" in page
    assert "Beto, Dani" in page
    with app.app_context():
        dani = db.session.scalars(sa.select(Player).where(Player.name == "Dani")).one()
        assert services.players.rename_player(dani, "Daniela") is None
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert "Reparte: Daniela (Ellos)" in page
    assert "Beto, Daniela" in page
    with app.app_context():
        exported = services.matches.export_document(services.queries.load_match(match_id))
    assert exported["sides"][1]["players"] == ["Beto", "Daniela"]


def test_planilla_follows_any_change_that_bumps_the_version(
    app: Flask, client: FlaskClient
) -> None:
    """A write that bumps ``Match.version`` (the contract of every write to a match) is seen
    even when nothing else the cache key holds changed."""
    match_id = create_stored_match(app, document(start_scores=[1200, 2700], hands=[quiet_hand()]))
    assert totals_shown(client, match_id) == ["1210", "2710"]
    with app.app_context():
        hand = db.session.scalars(sa.select(Hand).where(Hand.match_id == match_id)).one()
        db.session.execute(
            sa.update(Hand).where(Hand.id == hand.id).values(inputs=quiet_hand(table=250))
        )
        db.session.execute(
            sa.update(Match).where(Match.id == match_id).values(version=Match.version + 1)
        )
        db.session.commit()
    assert totals_shown(client, match_id) == ["1410", "2910"]


def test_undo_from_the_planilla_removes_the_last_hand(app: Flask, client: FlaskClient) -> None:
    if "hands.undo" not in app.view_functions:
        pytest.skip("the hands blueprint is not registered")
    match_id = create_stored_match(app, document(start_scores=[1200, 2700]))
    record(app, match_id, E1_HAND)
    record(app, match_id, quiet_hand())
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    form = re.search(r'<form method="post" action="([^"]+/deshacer)"[^>]*>(.*?)</form>', page, re.S)
    assert form is not None
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form[2]))

    response = client.post(form[1], data=fields)

    assert response.status_code in (302, 303)
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    assert 'data-total="3460"' in page
    assert page.count('<details class="hand') == 1


@pytest.mark.parametrize("path", ["/partidas/9999", "/partidas/9999/exportar", "/partidas/x"])
def test_unknown_match_is_a_friendly_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Página no encontrada" in response.get_data(as_text=True)


# Export and import


def test_export_then_import_gives_the_same_match_file(app: Flask, client: FlaskClient) -> None:
    match_id = create_stored_match(app, document(start_scores=[1200, 2700], title="Domingo"))
    record(app, match_id, E1_HAND)
    response = client.get(f"/partidas/{match_id}/exportar")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    exported = json.loads(response.get_data())
    with app.app_context():
        assert exported == services.matches.export_document(services.queries.load_match(match_id))

    # Imported by another account (its owner already has it: that import skips it).
    create_account(app, "Otra")
    other = signed_in(app, "Otra")
    upload = {"file": (io.BytesIO(response.get_data()), "partida.json")}
    imported = other.post("/partidas/importar", data=upload)

    assert imported.status_code == 303
    new_id = int(imported.headers["Location"].rsplit("/", 1)[1])
    assert new_id != match_id
    again = json.loads(other.get(f"/partidas/{new_id}/exportar").get_data())
    assert again == exported


@pytest.mark.parametrize(
    ("content", "status", "expected"),
    [
        (b"{not json", 400, "El archivo no es JSON válido"),
        (b"\xff\xfe\x00garbage", 400, "El archivo no es JSON válido"),
        (b"[1, 2]", 422, "Se esperaba un objeto."),
        (
            json.dumps(document(sides=[{"name": "A"}, {"name": ""}])).encode(),
            422,
            "<code>sides[1].name</code>: No puede quedar vacío.",
        ),
        (
            json.dumps(document(hands=[{"end": "closed", "closer": 5}])).encode(),
            422,
            "<code>hands[0].closer</code>",
        ),
    ],
)
def test_bad_uploads_are_refused_with_their_paths(
    app: Flask, client: FlaskClient, content: bytes, status: int, expected: str
) -> None:
    response = client.post(
        "/partidas/importar", data={"file": (io.BytesIO(content), "partida.json")}
    )
    assert response.status_code == status
    assert expected in response.get_data(as_text=True)
    assert match_count(app) == 0


def test_upload_without_a_file_is_a_400(app: Flask, client: FlaskClient) -> None:
    response = client.post("/partidas/importar", data={})
    assert response.status_code == 400
    assert "Elegí un archivo." in response.get_data(as_text=True)


# Languages


def test_language_from_the_browser_then_from_the_switch(client: FlaskClient) -> None:
    italian = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert "Nuova partita" in italian.get_data(as_text=True)
    assert '<html lang="it">' in italian.get_data(as_text=True)

    switched = client.get("/idioma/en?next=/partidas/nueva")
    assert switched.status_code == 303
    assert switched.headers["Location"] == "/partidas/nueva"

    english = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert "New match" in english.get_data(as_text=True)
    assert "Nuova partita" not in english.get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil"])
def test_language_switch_never_redirects_elsewhere(client: FlaskClient, target: str) -> None:
    response = client.get("/idioma/es", query_string={"next": target})
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize(
    ("target", "back_to"),
    [
        ("/historial?q=ana", "/historial?q=ana"),
        ("/jugadores", "/jugadores"),  # the route adds its final slash
        ("/historial/restaurar", "/"),  # the answer to the restore form: POST only
        ("/no-such-page", "/"),
    ],
)
def test_language_switch_goes_back_only_to_a_page_that_opens(
    client: FlaskClient, target: str, back_to: str
) -> None:
    response = client.get("/idioma/en", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == back_to


def test_unknown_language_is_a_404(client: FlaskClient) -> None:
    assert client.get("/idioma/fr").status_code == 404


@pytest.mark.parametrize("lang", ["es", "it"])
def test_catalog_is_complete(lang: str) -> None:
    path = ROOT / f"anotador/words/translations/{lang}/LC_MESSAGES/messages.po"
    with path.open("rb") as source:
        catalog = read_po(source, locale=lang)
    untranslated = [
        message.id
        for message in catalog
        if message.id
        and (
            message.fuzzy
            or not all(message.string if isinstance(message.string, tuple) else [message.string])
        )
    ]
    assert untranslated == []
    assert set(MESSAGES.values()) <= {message.id for message in catalog}


def test_catalogs_hold_every_string_of_the_sources() -> None:
    """A new ``_()`` anywhere fails here until `make update-translations` brings it in."""
    from babel.messages.extract import DEFAULT_KEYWORDS
    from babel.messages.extract import extract_from_dir

    keywords = {**DEFAULT_KEYWORDS, "N_": None, "lazy_gettext": None, "_l": None}
    methods = [("anotador/**.py", "python"), ("templates/**.html", "jinja2")]
    found = {
        message
        for _, _, message, _, _ in extract_from_dir(ROOT, methods, keywords=keywords)
        if message
    }
    with (ROOT / "anotador/words/translations/es/LC_MESSAGES/messages.po").open("rb") as source:
        catalog = {message.id for message in read_po(source, locale="es") if message.id}
    assert sorted(found - catalog, key=str) == []


def shown_version(client: FlaskClient, match_id: int) -> str:
    """The match version the abandon/resume form of the match page carries."""
    page = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    form = page[page.index('id="abandon-form"') :]
    return re.search(r'name="version" value="(\d+)"', form).group(1)


def test_a_stale_abandon_changes_nothing(app: Flask, client: FlaskClient):
    """A page shown before another phone saved a hand cannot abandon the match unseen."""
    match_id = create_stored_match(app, document(hands=[quiet_hand()]))
    stale = shown_version(client, match_id)
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert services.matches.set_abandoned(match, True, match.version)
    with app.app_context():
        version = services.queries.load_match(match_id).version
    page = client.post(
        f"/partidas/{match_id}/abandonar",
        data={"abandoned": "0", "version": stale},
        follow_redirects=True,
    )
    assert "Otro teléfono cambió esta partida" in page.get_data(as_text=True)
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert (match.status, match.version) == ("abandoned", version)


def test_a_match_is_abandoned_and_resumed_from_its_page(
    app: Flask, client: FlaskClient, make_match: MakeMatch
):
    match_id = make_match()
    page = client.post(
        f"/partidas/{match_id}/abandonar",
        data={"abandoned": "1", "version": shown_version(client, match_id)},
        follow_redirects=True,
    )
    assert "Partida marcada como abandonada." in page.get_data(as_text=True)
    assert "Reanudar la partida" in page.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Match, match_id).status == "abandoned"
    page = client.post(
        f"/partidas/{match_id}/abandonar",
        data={"abandoned": "0", "version": shown_version(client, match_id)},
        follow_redirects=True,
    )
    assert "Partida reanudada." in page.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Match, match_id).status == "ongoing"
    version = shown_version(client, match_id)
    for bad in ({"abandoned": "x", "version": version}, {"abandoned": "1"}, {"version": version}):
        assert client.post(f"/partidas/{match_id}/abandonar", data=bad).status_code == 400
    assert client.post("/partidas/999999/abandonar", data={"abandoned": "1"}).status_code == 404
