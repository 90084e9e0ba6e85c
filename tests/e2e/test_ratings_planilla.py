"""Issue 29: the rating beside each name on the owner's planilla, during play, is small
enough that the widest table (three pairs, long names) still fits a 360 px phone, and
axe finds nothing serious in it."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import LiveServer
from phone import AXE
from playwright.sync_api import Page
from playwright.sync_api import expect
from stored import create_stored_match
from test_accessibility import BLOCKING
from test_accessibility import axe_violations
from test_phone_width import OVERFLOW
from test_phone_width import played_match

pytestmark = pytest.mark.browser


def test_the_ratings_beside_the_names_fit_the_phone(
    page: Page, shot: Any, live_server: LiveServer
) -> None:
    page.set_viewport_size({"width": 360, "height": 800})
    page.add_init_script(path=AXE)
    playing = played_match("uruguaya", "6p-3x2")
    # The same six players finish a match first: each has a rating (some below zero).
    finished = {
        **playing,
        "options": {"target": 5000},
        "start_scores": [4900, 4900, 4900],
        "hands": [{"end": "stock_out", "sides": [{"table_points": p} for p in (200, 100, 50)]}],
    }
    create_stored_match(live_server.app, finished)
    match_id = create_stored_match(live_server.app, playing)
    page.goto(f"/partidas/{match_id}")
    expect(page.locator(".seat-rating")).to_have_count(6)
    shot("rated-planilla")
    found = page.evaluate(OVERFLOW, 360)
    assert found["scrollWidth"] <= found["innerWidth"], found
    assert not [v for v in axe_violations(page) if v["impact"] in BLOCKING]
