"""Issue 13, item 1: no screen of any variant and layout scrolls sideways on a 360 px or a
390 px phone. Each screen is opened with a match of the variant and layout (two hands on
its planilla) and photographed, full page, in artifacts/e2e/."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from conftest import LiveServer
from playwright.sync_api import Page
from stored import BIG_HAND
from stored import OWNER
from stored import PASSWORD
from stored import TWO_PAIRS
from stored import create_stored_match
from stored import match_document

from anotador import rules
from anotador import services
from anotador.rules.variant import LAYOUTS
from anotador.rules.variant import Role
from anotador.tournaments.operations import rounds as tournament_rounds
from anotador.tournaments.operations import service as tournament_service
from anotador.tournaments.operations.service import SetUp
from anotador.tournaments.store.models import Tournament

pytestmark = pytest.mark.browser

WIDTHS = (360, 390)
COMBINATIONS = [
    (name, layout) for name in rules.VARIANTS for layout in rules.get_variant(name).layouts
]

#: Whether the page is wider than the phone, and its widest elements to say which. A phone's
#: browser widens its layout viewport to a page that overflows (innerWidth grows with it), so
#: the page is measured against the phone's own width too.
OVERFLOW = """(phone) => {
  const width = Math.min(window.innerWidth, phone);
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 0.5 && r.width > 0) {
      const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      wide.push(`${name} ${Math.round(r.right)}`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: width,
          wide: wide.slice(0, 6)};
}"""


def sides_of(layout: str) -> list[dict[str, Any]]:
    """Sides with long names and every player named, the widest a table writes."""
    shape = LAYOUTS[layout]
    return [
        {
            "name": f"Los de la esquina {index + 1}",
            "players": [
                f"Jugadora {index + 1}{seat + 1}" for seat in range(shape.players_per_side)
            ],
        }
        for index in range(shape.sides)
    ]


def played_match(variant: str, layout: str) -> dict[str, Any]:
    """A match of ``variant`` and ``layout`` with two hands: the first side goes out with the
    canastas it needs, or (where that is not a hand) the stock runs out."""
    match_rules = rules.make_rules(variant, layout, {})
    count = match_rules.layout.sides
    clean = match_rules.field_with(Role.CLEAN_CANASTAS)
    table = match_rules.field_with(Role.TABLE_POINTS)
    other = {table.name: 1230} if table else {}
    closer = {**other, **({clean.name: match_rules.canastas_to_close} if clean else {})}
    candidates = [
        {"end": "closed", "closer": 0, "sides": [closer] + [other] * (count - 1)},
        {"end": "stock_out", "sides": [other] * count},
    ]
    for hand in candidates:
        document = {
            "format": "anotador-match/1",
            "variant": variant,
            "layout": layout,
            "sides": sides_of(layout),
            "hands": [hand, hand],
        }
        if rules.read_match(document)[0] is not None:
            return document
    raise AssertionError(f"no hand for {variant} {layout}")


def check(page: Page, shot: Any, name: str, width: int) -> dict[str, Any] | None:
    """The overflow of the current screen (None when there is none), after its screenshot."""
    shot(f"{width}-{name}")
    found = page.evaluate(OVERFLOW, width)
    return found if found["scrollWidth"] > found["innerWidth"] else None


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("variant", "layout"), COMBINATIONS)
def test_the_screens_of_a_variant_fit_the_phone(
    page: Page, shot: Any, live_server: LiveServer, variant: str, layout: str, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    match_id = create_stored_match(live_server.app, played_match(variant, layout))
    problems: dict[str, Any] = {}
    page.goto("/partidas/nueva")
    page.locator(f'input[name="variant"][value="{variant}"]').check(force=True)
    page.locator(f'input[name="layout"][value="{layout}"]').check(force=True)
    for name, url in [
        ("new-match", None),
        ("match", f"/partidas/{match_id}"),
        ("hand-form", f"/partidas/{match_id}/manos/nueva"),
        ("share", f"/partidas/{match_id}/compartir"),
    ]:
        if url is not None:
            page.goto(url)
        if found := check(page, shot, name, width):
            problems[name] = found
    page.goto(f"/partidas/{match_id}")
    page.locator("details.hand summary").first.tap()  # a row's breakdown open
    if found := check(page, shot, "breakdown", width):
        problems["breakdown"] = found
    assert not problems, problems


@pytest.mark.parametrize("width", WIDTHS)
def test_the_other_screens_fit_the_phone(
    page: Page, shot: Any, live_server: LiveServer, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    create_stored_match(live_server.app, played_match("uruguaya", "6p-3x2"))
    with live_server.app.app_context():
        owner = services.accounts.find_account(OWNER)
        scope = services.scope.Scope(owner.id)
        player = services.queries.find_player(scope, "Jugadora 11")
        group = services.groups.create_group(owner.id, f"La mesa de los jueves {width}")
        # An invitation waiting in each direction: the lists of both show on the pages.
        guest = services.accounts.create_account(f"Invitada con nombre largo {width}", PASSWORD)
        services.groups.invite(group, owner.id, guest.name)
        theirs = services.groups.create_group(guest.id, f"El club de los martes {width}")
        services.groups.invite(theirs, guest.id, OWNER)
        ids = (player.id, group.id)
    problems: dict[str, Any] = {}
    for name, url in [
        ("home", "/"),
        ("history", "/historial"),
        ("players", "/jugadores/"),
        ("player", f"/jugadores/{ids[0]}"),
        ("account", "/cuenta"),
        ("groups", "/grupos"),
        ("group", f"/grupos/{ids[1]}"),
        ("blank-sheet", "/planillas/en-blanco"),
    ]:
        page.goto(url)
        if found := check(page, shot, name, width):
            problems[name] = found
    assert not problems, problems


@pytest.mark.parametrize("width", WIDTHS)
def test_the_club_screens_fit_the_phone(
    page: Page, shot: Any, live_server: LiveServer, width: int
) -> None:
    """A tournament's screens, its board followed on a phone, and the ratings."""
    page.set_viewport_size({"width": width, "height": 800})
    create_stored_match(
        live_server.app, match_document(layout="4p", sides=TWO_PAIRS, hands=[BIG_HAND, BIG_HAND])
    )
    with live_server.app.app_context():
        owner = services.accounts.find_account(OWNER)
        setup = SetUp(
            f"Noche de club de los jueves {width}",
            datetime.date(2026, 12, 3),
            "burraco",
            {},
            3,
            "fibur-3",
            "danese",
            3,
        )
        tournament = tournament_service.create_tournament(owner.id, setup)
        assert isinstance(tournament, Tournament)
        for number in range(5):
            tournament_service.add_pair(
                tournament, owner.id, f"Jugadora de apellido largo {number}", f"Compañero {number}"
            )
        tournament_rounds.start_round(tournament_rounds.draw_round(tournament, owner.id), owner.id)
        base = f"/torneos/{tournament.id}"
    problems: dict[str, Any] = {}
    for name, url in [
        ("tournaments", "/torneos"),
        ("tournament", base),
        ("round", f"{base}/rondas/1"),
        ("standings", f"{base}/posiciones"),
        ("board", f"{base}/tablero"),
        ("ratings", "/ranking/"),
    ]:
        page.goto(url)
        if found := check(page, shot, name, width):
            problems[name] = found
    assert not problems, problems


THREE_SIDES = [(name, layout) for name, layout in COMBINATIONS if LAYOUTS[layout].sides == 3]
#: How much wider than its box the hand's preview is (its table, or anything in it).
PREVIEW_OVERFLOW = """() => {
  const box = document.getElementById("preview").getBoundingClientRect();
  let right = box.right;
  for (const el of document.querySelectorAll("#preview, #preview *")) {
    right = Math.max(right, el.getBoundingClientRect().right);
  }
  const table = document.getElementById("preview-table");
  return {over: Math.round(right - Math.min(box.right, window.innerWidth)),
          shown: !table.hidden && table.getBoundingClientRect().height > 0};
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("variant", "layout"), THREE_SIDES)
def test_the_preview_of_three_sides_fits_the_phone(
    page: Page, shot: Any, live_server: LiveServer, variant: str, layout: str, width: int
) -> None:
    """Issue 25, item 8: the preview was 17 px wider than its box at 390 px."""
    page.set_viewport_size({"width": width, "height": 800})
    match_id = create_stored_match(live_server.app, played_match(variant, layout))
    page.goto(f"/partidas/{match_id}/manos/2")  # a hand corrected is previewed at once
    page.locator("#preview-table").wait_for()
    found = page.evaluate(PREVIEW_OVERFLOW)
    shot(f"{width}-preview")
    assert found["shown"], found
    assert found["over"] <= 0, found
