"""axe-core on the four screens of a match, in light and dark mode: nothing serious."""

import json
from typing import Any

import pytest
from phone import AXE
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BLOCKING = ("serious", "critical")


def axe_violations(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
            }));
        }"""
    )


@pytest.fixture
def axe_ready() -> None:
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing: run `npm ci --prefix tests/e2e` (make test does)")


@pytest.mark.usefixtures("axe_ready")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations(page: Page, table: Table, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    # axe-core comes as an init script, in every page before its own: the page's
    # Content-Security-Policy refuses an added inline <script> (add_script_tag's).
    page.add_init_script(path=AXE)
    match_url = table.new_match()
    table.record_hand(
        "Nosotros",
        {"Nosotros": {"Limpias": 1, "Puntos en mesa": 300}, "Ellos": {"Puntos en mano": 40}},
    )
    # Both links made: the share page with its copy and share buttons.
    page.goto(match_url + "/compartir")
    for _link in range(2):
        page.get_by_role("button", name="Crear el enlace").first.tap()
    expect(page.get_by_role("button", name="Copiar")).to_have_count(2)
    screens = {
        "share": match_url + "/compartir",
        "home": "/",
        "new-match": "/partidas/nueva",
        "match": match_url,
        "hand-form": match_url + "/manos/nueva",
        "edit-hand": match_url + "/manos/1",
    }
    found: dict[str, list[dict[str, Any]]] = {}
    for name, url in screens.items():
        page.goto(url)
        table.shot(f"{scheme}-{name}")
        violations = axe_violations(page)
        if violations:
            print(f"axe, {scheme}, {name}:\n{json.dumps(violations, indent=1, ensure_ascii=False)}")
        blocking = [v for v in violations if v["impact"] in BLOCKING]
        if blocking:
            found[name] = blocking
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
