"""The hand flow through the test client: record, preview, calculator, correct, undo."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import E1_FORM
from stored import MakeMatch
from stored import create_stored_match
from stored import match_document

from anotador import services
from anotador.storage.models import Match


def new_match(app: Flask, variant: str = "uruguaya", layout: str = "4p", **extra: Any) -> int:
    return create_stored_match(app, match_document(variant, layout=layout, **extra))


def stored(app: Flask, match_id: int) -> Match:
    with app.app_context():
        match = services.queries.load_match(match_id)
        assert match is not None
        match.hands  # noqa: B018 - load before the session closes
        return match


def fresh_form(client: FlaskClient, match_id: int) -> dict[str, str]:
    """The hidden fields of a newly rendered hand form."""
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    key = re.search(r'name="request_key" type="hidden" value="([0-9a-f]+)"', page)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert key, page
    assert version, page
    return {"request_key": key.group(1), "version": version.group(1)}


def record(client: FlaskClient, match_id: int, data: dict[str, str], **extra: str):
    return client.post(
        f"/partidas/{match_id}/manos/nueva", data={**fresh_form(client, match_id), **data, **extra}
    )


def field_html(page: str, name: str) -> str:
    """The markup of one field's block (label, input and its messages)."""
    start = page.index(f'id="f-{name}"')
    end = page.find('id="f-', start + 5)
    return page[start : end if end > 0 else None]


def test_record_e1_hand_through_the_form(app: Flask, client: FlaskClient):
    match_id = new_match(app, start_scores=[1200, 2700])

    response = record(client, match_id, E1_FORM)

    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/partidas/{match_id}")
    match = stored(app, match_id)
    assert match.totals == [3460, 3455]
    assert len(match.hands) == 1
    with app.app_context():
        score = services.matches.score(services.queries.load_match(match_id)).score
    assert [side.score for side in score.hands[0].sides] == [2260, 755]
    assert score.opening_minimum == (120, 120)


def test_form_shows_current_totals_and_minimums(app: Flask, client: FlaskClient):
    match_id = new_match(app, start_scores=[1495, 1500])
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    standing = page[page.index('class="standing"') : page.index("</table>")]
    assert re.findall(r"<td[^>]*>([\d.]+)</td>", standing) == ["1.495", "50", "1.500", "90"]


VARIANT_CASES = [
    (
        "uruguaya",
        {},
        ["s0_clean", "s0_dirty", "s0_red_threes", "concealed"],
        {"closer": "0", "concealed": "y", "s0_clean": "1", "s0_table_points": "260"},
        [960, 0],
    ),
    (
        "classic",
        {"options": {"preset": "pagat"}},
        ["s1_clean", "concealed"],
        {"closer": "none", "s0_table_points": "100", "s1_table_points": "50"},
        [100, 50],
    ),
    (
        "classic",
        {"options": {"preset": "rulebook-es"}},
        ["concealed_kind", "s0_wild_canastas", "s0_four_black_threes_out"],
        {
            "closer": "1",
            "concealed_kind": "first_turn_alone",
            "s1_clean": "1",
            "s1_table_points": "200",
        },
        [0, 1800],
    ),
    (
        "canastone",
        {},
        ["s0_pure", "s0_impure", "s0_aces_pure", "s0_six_jokers", "s1_pinelle"],
        {
            "closer": "0",
            "s0_pure": "1",
            "s0_impure": "1",
            "s0_table_points": "540",
            "s0_hand_points": "20",
            "s0_red_threes": "3",
            "s1_hand_points": "100",
        },
        [1920, -200],
    ),
    (
        "real",
        {},
        ["s0_limpia", "s0_sucia", "s0_de_mil", "s0_muerto"],
        {
            "closer": "0",
            "s0_sucia": "1",
            "s0_de_mil": "1",
            "s0_table_points": "520",
            "s0_hand_points": "25",
            "s0_muerto": "taken",
            "s1_limpia": "1",
            "s1_table_points": "310",
            "s1_hand_points": "140",
            "s1_muerto": "not_taken",
        },
        [1695, 270],
    ),
]


@pytest.mark.parametrize(("variant", "extra", "names", "data", "scores"), VARIANT_CASES)
def test_each_variant_renders_its_fields_and_saves(
    app: Flask, client: FlaskClient, variant, extra, names, data, scores
):
    match_id = new_match(app, variant, **extra)
    page = client.get(f"/partidas/{match_id}/manos/nueva").get_data(as_text=True)
    for name in names:
        assert f'name="{name}"' in page, name
        assert f'for="{name}' in page or f'id="f-{name}"' in page
    if variant != "real":
        assert 'name="s0_muerto"' not in page
    if variant == "real":
        assert 'name="s0_red_threes"' not in page

    response = record(client, match_id, data)

    assert response.status_code == 302, field_errors(response.get_data(as_text=True))
    with app.app_context():
        score = services.matches.score(services.queries.load_match(match_id)).score
    assert [side.score for side in score.hands[0].sides] == scores


def field_errors(page: str) -> list[str]:
    return re.findall(r'<p class="msg error"[^>]*>([^<]*)</p>', page) + re.findall(
        r'<div class="alert" role="alert">(.*?)</div>', page, re.S
    )


def test_spanish_labels_of_each_variant(app: Flask, client: FlaskClient):
    uruguaya = client.get(f"/partidas/{new_match(app)}/manos/nueva").get_data(as_text=True)
    for text in ("Limpias", "Sucias", "Puntos en mesa", "Puntos en mano", "Treses rojos"):
        assert text in uruguaya
    assert "Cerró en mano" in uruguaya
    assert "Nadie, se acabó el mazo" in uruguaya
    canastone = client.get(f"/partidas/{new_match(app, 'canastone')}/manos/nueva")
    for text in ("Puras", "Impuras", "De ases puras", "Robó demasiadas cartas"):
        assert text in canastone.get_data(as_text=True)
    real = client.get(f"/partidas/{new_match(app, 'real')}/manos/nueva").get_data(as_text=True)
    for text in ("De mil", "Muerto", "Tomado", "No tomado", "Tomado sin usar"):
        assert text in real


def test_problems_appear_next_to_their_field_in_spanish(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {**E1_FORM, "s1_red_threes": "5"}

    response = record(client, match_id, data)

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Como máximo 4 treses rojos con 2 mazos" in field_html(page, "s1_red_threes")
    assert "treses rojos" not in field_html(page, "s0_red_threes").lower().split("</label>")[1]
    assert 'value="760"' in page  # nothing typed is lost
    assert stored(app, match_id).hands == []


def test_closer_without_canastas_is_shown_at_the_closer_choice(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {"closer": "1", "s1_table_points": "100"}

    page = record(client, match_id, data).get_data(as_text=True)

    assert "Para cerrar hacen falta 1 canasta(s)" in field_html(page, "closer")
    assert stored(app, match_id).hands == []


def test_shape_errors_are_in_spanish_and_keep_the_input(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {**E1_FORM, "s0_table_points": "mucho", "s1_hand_points": "-5", "s0_clean": str(10**30)}

    response = record(client, match_id, data)

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Escribí un número entero" in field_html(page, "s0_table_points")
    assert 'value="mucho"' in page
    assert "Tiene que estar entre 0 y 20000: sin el signo menos." in field_html(
        page, "s1_hand_points"
    )
    assert "Tiene que estar entre 0 y 30" in field_html(page, "s0_clean")
    for name in ("s0_table_points", "s1_hand_points", "s0_clean"):
        assert field_html(page, name).count('class="msg error"') == 1, name  # one message each
    assert stored(app, match_id).hands == []


def test_warning_does_not_block_saving(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {"closer": "0", "s0_clean": "3", "s0_table_points": "60"}  # low for 3 canastas

    response = record(client, match_id, data)

    assert response.status_code == 302
    assert len(stored(app, match_id).hands) == 1
    with client.session_transaction() as session:
        categories = [category for category, _ in session["_flashes"]]
    assert "warning" in categories


def test_double_post_with_the_same_request_key_records_once(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {**fresh_form(client, match_id), **E1_FORM}

    first = client.post(f"/partidas/{match_id}/manos/nueva", data=data)
    second = client.post(f"/partidas/{match_id}/manos/nueva", data=data)

    assert first.status_code == second.status_code == 302
    assert second.headers["Location"] == first.headers["Location"]
    assert len(stored(app, match_id).hands) == 1


def test_the_forms_script_is_told_where_to_go_and_the_planilla_keeps_the_message(
    app: Flask, client: FlaskClient
):
    """A save sent by the page's script (offline.js asks for JSON) is answered with the
    planilla's address, not a redirect: the one-time "saved" message waits for that page. A
    refused one is the form as HTML, as without JavaScript."""
    match_id = new_match(app)
    data = {**fresh_form(client, match_id), **E1_FORM}
    url = f"/partidas/{match_id}/manos/nueva"
    headers = {"Accept": "application/json"}

    saved = client.post(url, data=data, headers=headers)
    again = client.post(url, data=data, headers=headers)
    planilla = client.get(f"/partidas/{match_id}").get_data(as_text=True)
    refused = client.post(
        url,
        data={**fresh_form(client, match_id), **E1_FORM, "s0_table_points": "33"},
        headers=headers,
    )

    assert saved.status_code == again.status_code == 200
    assert saved.get_json() == again.get_json() == {"location": f"/partidas/{match_id}"}
    assert len(stored(app, match_id).hands) == 1
    assert "Mano 1 anotada." in planilla
    assert "Esta mano ya estaba anotada." in planilla
    assert refused.status_code == 422
    assert refused.mimetype == "text/html"
    assert 'value="33"' in refused.get_data(as_text=True)


def test_stale_form_is_refused_with_its_input_and_fresh_totals(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    other_phone = fresh_form(client, match_id)
    assert record(client, match_id, E1_FORM).status_code == 302  # the first phone saves

    response = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**other_phone, **E1_FORM, "s0_table_points": "765"},
    )

    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Otro teléfono anotó una mano mientras tanto" in page
    assert 'value="765"' in page
    assert re.search(r'name="version" type="hidden" value="1"', page)
    assert ">2.260<" in page  # the fresh totals at the top, as the planilla writes them
    assert len(stored(app, match_id).hands) == 1

    resent = re.search(r'name="request_key" type="hidden" value="(\w+)"', page)
    assert resent is not None
    again = client.post(
        f"/partidas/{match_id}/manos/nueva",
        data={**E1_FORM, "request_key": resent.group(1), "version": "1"},
    )
    assert again.status_code == 302  # a second, deliberate tap saves it
    assert len(stored(app, match_id).hands) == 2


def test_edit_middle_hand_changes_later_totals_and_minimums(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    stock_out = {"closer": "none", "s0_table_points": "700", "s1_table_points": "50"}
    for _ in range(3):
        assert record(client, match_id, stock_out).status_code == 302
    assert stored(app, match_id).totals == [2100, 150]

    page = client.get(f"/partidas/{match_id}/manos/2").get_data(as_text=True)
    assert 'value="700"' in page
    assert 'checked id="closer-2"' in page
    data = {"closer": "none", "s0_table_points": "100", "s1_table_points": "50", "version": "3"}
    response = client.post(f"/partidas/{match_id}/manos/2", data=data, follow_redirects=True)

    assert "Mano 2 corregida." in response.get_data(as_text=True)  # not "anotada": an edit
    with app.app_context():
        score = services.matches.score(services.queries.load_match(match_id)).score
    assert score.totals == (1500, 150)
    assert [side.total for side in score.hands[2].sides] == [1500, 150]
    assert score.opening_minimum == (90, 50)
    assert score.hands[1].sides[0].opening_minimum == 50


def test_edit_refused_when_later_hands_would_follow_the_end(app: Flask, client: FlaskClient):
    match_id = new_match(app, start_scores=[4500, 0])
    small = {"closer": "none", "s0_table_points": "100", "s1_table_points": "50"}
    record(client, match_id, small)
    record(client, match_id, small)
    data = {**small, "s0_table_points": "600", "version": "2"}

    response = client.post(f"/partidas/{match_id}/manos/1", data=data)

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Mano 2:" in page
    assert stored(app, match_id).totals == [4700, 100]


def test_delete_asks_then_removes_and_renumbers(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    for points in ("100", "200", "300"):
        record(client, match_id, {"closer": "none", "s0_table_points": points})

    ask = client.post(f"/partidas/{match_id}/manos/2/borrar", data={})
    assert ask.status_code == 200
    assert "¿Borrar la mano 2?" in ask.get_data(as_text=True)
    assert len(stored(app, match_id).hands) == 3

    done = client.post(
        f"/partidas/{match_id}/manos/2/borrar", data={"confirm": "1", "version": "3"}
    )

    assert done.status_code == 302
    match = stored(app, match_id)
    assert [h.number for h in match.hands] == [1, 2]
    assert [h.inputs["sides"][0]["table_points"] for h in match.hands] == [100, 300]
    assert match.totals == [400, 0]


def test_stale_delete_is_refused(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    record(client, match_id, {"closer": "none", "s0_table_points": "100"})
    record(client, match_id, {"closer": "none", "s0_table_points": "200"})

    response = client.post(
        f"/partidas/{match_id}/manos/1/borrar", data={"confirm": "1", "version": "1"}
    )

    assert response.status_code == 409
    assert len(stored(app, match_id).hands) == 2


def test_undo_last_hand_with_confirmation(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    record(client, match_id, {"closer": "none", "s0_table_points": "100"})
    record(client, match_id, {"closer": "none", "s0_table_points": "200"})

    ask = client.post(f"/partidas/{match_id}/deshacer")
    page = ask.get_data(as_text=True)
    assert ask.status_code == 200
    assert "¿Deshacer la mano 2?" in page
    assert 'name="version" value="2"' in page

    done = client.post(f"/partidas/{match_id}/deshacer", data={"confirm": "1", "version": "2"})

    assert done.status_code == 302
    assert stored(app, match_id).totals == [100, 0]
    again = client.post(f"/partidas/{match_id}/deshacer", data={"confirm": "1", "version": "2"})
    assert again.status_code == 409  # the confirmation was for a hand that is gone
    assert len(stored(app, match_id).hands) == 1


def test_undo_without_hands_changes_nothing(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    response = client.post(f"/partidas/{match_id}/deshacer", data={"confirm": "1"})
    assert response.status_code == 302
    assert stored(app, match_id).version == 0


def test_preview_json_figures(app: Flask, client: FlaskClient):
    match_id = new_match(app, start_scores=[1200, 2700])

    response = client.post(f"/partidas/{match_id}/manos/vista-previa", data=E1_FORM)

    result = response.get_json()
    assert result["ok"] is True
    assert [(s["score"], s["total"], s["minimum"]) for s in result["sides"]] == [
        (2260, 3460, 120),
        (755, 3455, 120),
    ]
    texts = [(s["score_text"], s["total_text"], s["minimum_text"]) for s in result["sides"]]
    assert texts == [("+2.260", "3.460", "120"), ("+755", "3.455", "120")]
    english = client.post(
        f"/partidas/{match_id}/manos/vista-previa", data=E1_FORM, headers={"Accept-Language": "en"}
    ).get_json()
    assert [s["total_text"] for s in english["sides"]] == ["3,460", "3,455"]
    assert stored(app, match_id).hands == []


def test_preview_json_problems_name_their_field(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {**E1_FORM, "s1_red_threes": "5", "s0_hand_points": "abc"}

    result = client.post(f"/partidas/{match_id}/manos/vista-previa", data=data).get_json()
    assert result["ok"] is False
    # All at once: the unreadable value, and what the engine says about the other side.
    assert {p["field"] for p in result["problems"]} == {"s0_hand_points", "s1_red_threes"}

    del data["s0_hand_points"]
    result = client.post(f"/partidas/{match_id}/manos/vista-previa", data=data).get_json()
    assert result["ok"] is False
    assert [(p["field"], p["severity"]) for p in result["problems"]] == [("s1_red_threes", "error")]


def test_preview_of_an_edit_scores_that_hand(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    record(client, match_id, {"closer": "none", "s0_table_points": "100"})
    record(client, match_id, {"closer": "none", "s0_table_points": "200"})

    data = {"closer": "none", "s0_table_points": "500"}
    result = client.post(f"/partidas/{match_id}/manos/vista-previa?numero=1", data=data).get_json()

    assert [(s["score"], s["total"]) for s in result["sides"]] == [(500, 500), (0, 0)]


def test_preview_button_without_javascript(app: Flask, client: FlaskClient):
    match_id = new_match(app, start_scores=[1200, 2700])

    response = record(client, match_id, E1_FORM, action="preview")

    page = response.get_data(as_text=True)
    assert response.status_code == 200
    preview = page[page.index('id="preview"') :]
    assert "+2.260" in preview
    assert "3.460" in preview
    assert "+755" in preview
    assert stored(app, match_id).hands == []


def test_card_calculator_without_javascript(app: Flask, client: FlaskClient):
    match_id = new_match(app)
    data = {
        "closer": "0",
        "s0_clean": "1",
        "s0_t_joker": "1",
        "s0_t_ace": "7",
        "s0_t_four_to_seven": "3",
        "s0_h_eight_to_king": "2",
        "s1_table_points": "90",
    }

    response = record(client, match_id, data, action="calc:s0")

    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'value="205"' in field_html(page, "s0_table_points")  # 50 + 7x20 + 3x5
    assert 'value="20"' in field_html(page, "s0_hand_points")
    assert 'value="90"' in field_html(page, "s1_table_points")  # the rest is kept
    assert stored(app, match_id).hands == []


def test_penalty_preset_without_javascript(app: Flask, client: FlaskClient):
    match_id = new_match(app, "canastone")
    data = {"closer": "none", "s1_adjustment": "-100"}

    page = record(client, match_id, data, action="penalty:s1:too_many_cards_drawn")

    html = page.get_data(as_text=True)
    assert 'value="-150"' in field_html(html, "s1_adjustment")
    assert "Robó demasiadas cartas (-50)" in field_html(html, "s1_adjustment_note")


def test_finished_match_takes_no_new_hand(app: Flask, client: FlaskClient):
    match_id = new_match(app, start_scores=[4900, 0])
    record(client, match_id, {"closer": "none", "s0_table_points": "200"})

    response = client.get(f"/partidas/{match_id}/manos/nueva")

    assert response.status_code == 302
    late = client.post(f"/partidas/{match_id}/manos/nueva", data={**E1_FORM, "version": "1"})
    assert late.status_code == 422
    assert len(stored(app, match_id).hands) == 1


@pytest.mark.parametrize(
    "url",
    [
        "/partidas/999/manos/nueva",
        "/partidas/1/manos/7",
        "/partidas/1/manos/0",
        "/partidas/0/manos/nueva",
    ],
)
def test_missing_match_or_hand_is_404(app: Flask, client: FlaskClient, url: str):
    new_match(app)
    assert client.get(url).status_code == 404


def test_hand_page_first_load_is_light(client: FlaskClient, make_match: MakeMatch):
    """HTML + CSS + JS of the biggest hand form, as a phone downloads them (compressed where
    the server compresses), stay under 100 KB (no web fonts)."""
    sides = [{"name": "A"}, {"name": "B"}, {"name": "C"}]
    match_id = make_match("canastone", layout="6p-3x2", sides=sides)
    path = f"/partidas/{match_id}/manos/nueva"
    phone = {"Accept-Encoding": "gzip"}
    page = client.get(path, headers=phone)
    html = gzip.decompress(page.data) if page.content_encoding == "gzip" else page.data
    assets = re.findall(rb'(?:href|src)="(/static/[^"?]+\.(?:css|js))(?:\?v=[0-9a-f]+)?"', html)
    assert any(a.endswith(b"hand.js") for a in assets)
    assert not re.search(rb"\.(?:woff2?|ttf)\b", html)
    total = len(page.data)
    for asset in assets:
        response = client.get(asset.decode(), headers=phone)
        total += len(response.data)
        response.close()
    assert total <= 100 * 1024
