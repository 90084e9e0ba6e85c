"""The phone at the table: what a person does on the screens, by the labels they read."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator
from playwright.sync_api import Page
from playwright.sync_api import expect

#: axe-core, installed by ``npm ci`` in this folder (``make test`` does it).
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"

#: ``shot("name", of=page)`` saves a screenshot of the current step (see the ``shot`` fixture).
Shot = Callable[..., Path]


def points(value: int, signed: bool = False) -> str:
    """A score as the planilla prints it in Spanish: "5.570", "−60", "+900"."""
    text = f"{abs(value):,}".replace(",", ".")
    if value < 0:
        return "\u2212" + text
    return ("+" + text) if signed and value > 0 else text


class Table:
    """What the person holding the phone does, in Spanish, by the labels on the screen."""

    def __init__(self, page: Page, shot: Shot) -> None:
        self.page = page
        self._shot = shot

    def shot(self, name: str) -> Path:
        """A screenshot of this phone's current screen, in artifacts/e2e/."""
        return self._shot(name, of=self.page)

    # The new-match form

    def new_match(self, start: dict[str, int] | None = None) -> str:
        """From the home page: "Nueva partida", the defaults (uruguaya, 4 players in pairs,
        Nosotros / Ellos), optional starting scores, "Empezar". Returns the match page URL."""
        page = self.page
        page.goto("/")
        page.get_by_role("link", name="Nueva partida").tap()
        expect(page.get_by_role("heading", name="Nueva partida", level=1)).to_be_visible()
        if start:
            page.get_by_text("Seguir una planilla de papel").tap()
            for side, value in start.items():
                page.get_by_label(f"Puntaje inicial, {side}").fill(str(value))
        self.shot("new-match")
        page.get_by_role("button", name="Empezar").tap()
        expect(page).to_have_url(re.compile(r"/partidas/\d+$"))
        return page.url

    def new_match_of(
        self, variant: str, *, link: str = "Nueva partida", start: str = "Empezar"
    ) -> str:
        """From the home page: the new-match form, the variant chip labelled ``variant`` (its
        default layout and settings), then ``start``. The words default to Spanish."""
        page = self.page
        page.goto("/")
        page.get_by_role("link", name=link).tap()
        page.locator("fieldset.chips").get_by_label(variant, exact=True).check()
        self.shot("new-match")
        page.get_by_role("button", name=start).first.tap()
        expect(page).to_have_url(re.compile(r"/partidas/\d+$"))
        return page.url

    def switch_language(self, nav: str, code: str) -> None:
        """The language switch (the navigation labelled ``nav``), to ``code``: "IT"."""
        self.page.get_by_role("navigation", name=nav).get_by_role(
            "link", name=code, exact=True
        ).tap()
        expect(self.page.locator("html")).to_have_attribute("lang", code.lower())

    # The hand form

    def open_new_hand(self, link: str = "Anotar mano") -> None:
        self.page.get_by_role("link", name=link).first.tap()
        expect(self.page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Mano \d+$"))

    def side(self, name: str) -> Locator:
        """The hand form's section for one side (its fields are labelled the same per side)."""
        return self.page.get_by_role("region", name=name, exact=True)

    def fill_hand(
        self, closer: str, sides: dict[str, dict[str, int]], question: str = "¿Quién cerró?"
    ) -> None:
        """Who went out (the answer to ``question``), then each side's counts and points typed
        into their labelled fields ("Limpias", "Sucias", "Treses rojos", "Puntos en mesa",
        "Puntos en mano")."""
        page = self.page
        page.get_by_role("group", name=question).get_by_label(closer, exact=True).check()
        for name, fields in sides.items():
            section = self.side(name)
            for label, value in fields.items():
                self.reveal(section, self.page.get_by_label(label, exact=True))
                section.get_by_label(label, exact=True).fill(str(value))

    def reveal(self, section: Locator, field: Locator) -> None:
        """Tap open the disclosure a rarer input is behind ("Más tipos", "Mano especial",
        "Ajuste o penalidad"), as a person does, when it is closed. ``field`` is looked for
        inside the section's disclosures (a locator of the page: it is searched within)."""
        closed = section.locator("details:not([open])").filter(has=field)
        if closed.count():
            closed.first.locator(":scope > summary").tap()

    def choose(self, side: str, group: str, option: str) -> None:
        """One of a side's choices (the muerto, a special hand): ``option`` of ``group``."""
        section = self.side(side)
        self.reveal(section, self.page.get_by_role("group", name=group, include_hidden=True))
        section.get_by_role("group", name=group).get_by_label(option, exact=True).check()

    def tick(self, side: str, label: str) -> None:
        """One of a side's yes/no inputs (an unfinished meld)."""
        self.reveal(self.side(side), self.page.get_by_label(label, exact=True))
        self.side(side).get_by_label(label, exact=True).check()

    def save(self, button: str = "Guardar mano") -> None:
        self.page.get_by_role("button", name=button, exact=True).tap()
        expect(self.page).to_have_url(re.compile(r"/partidas/\d+$"))

    def record_hand(self, closer: str, sides: dict[str, dict[str, int]]) -> None:
        self.open_new_hand()
        self.fill_hand(closer, sides)
        self.shot("hand-form")
        self.save()

    # The planilla

    def score_side(self, name: str) -> Locator:
        return self.page.locator(".scoreboard").get_by_role("region", name=name, exact=True)

    def expect_totals(self, totals: dict[str, int]) -> None:
        for name, total in totals.items():
            expect(self.score_side(name).locator(".total")).to_have_text(points(total))

    def expect_minimums(self, minimums: dict[str, int]) -> None:
        for name, minimum in minimums.items():
            expect(self.score_side(name).locator(".minimum")).to_have_text(
                re.compile(rf"^\s*Mínimo para bajar\s+{minimum}\s*$")
            )

    def expect_row(self, number: int, scores: list[int], totals: list[int]) -> None:
        """Hand ``number``'s row of the planilla: each side's hand score and running total."""
        row = self.page.locator(f"#mano-{number} > summary")
        expect(row.locator(".delta")).to_have_text([points(s, signed=True) for s in scores])
        expect(row.locator(".running")).to_have_text([points(t) for t in totals])
