"""Phone first: at 390 px nothing scrolls sideways and every control is a 44 px tap target."""

from typing import Any

import pytest
from phone import Table
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

WIDTH = 390
TAP = 44

# Visible controls smaller than TAP×TAP (links inside running text are exempt, as in WCAG).
SMALL_TARGETS = """(tap) => {
  const small = [];
  const controls = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, label.chip');
  for (const el of controls) {
    if (getComputedStyle(el).visibility === 'hidden' || el.closest('[hidden]')) continue;
    if (el.getAttribute('aria-hidden') === 'true') continue;
    if (el.classList.contains('visually-hidden') || el.closest('.visually-hidden')) continue;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.labels && el.labels.length) {
      // The label is the target: measure it instead.
      continue;
    }
    if (el.matches('a') && el.closest('p, li') && !el.matches('.button, .match-card')) {
      const block = el.closest('p, li');
      if (block.textContent.trim() !== el.textContent.trim()) continue;
    }
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width < tap - 0.5 || r.height < tap - 0.5) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.name || '').trim();
      const size = `${Math.round(r.width)}×${Math.round(r.height)}`;
      small.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" ${size}`);
    }
  }
  return small;
}"""

OVERFLOW = """(width) => {
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 0.5 && r.width > 0) {
      const id = el.id ? '#' + el.id : '';
      wide.push(`${el.tagName.toLowerCase()}${id}.${[...el.classList].join('.')} ${r.right}`);
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 8)};
}"""


def screens(table: Table) -> dict[str, str]:
    match_url = table.new_match()
    table.record_hand(
        "Ellos",
        {"Nosotros": {"Puntos en mesa": 90}, "Ellos": {"Limpias": 1, "Puntos en mesa": 1230}},
    )
    return {
        "home": "/",
        "new-match": "/partidas/nueva",
        "match": match_url,
        "hand-form": match_url + "/manos/nueva",
    }


def test_no_screen_scrolls_sideways_at_390px(page: Page, table: Table) -> None:
    problems: dict[str, Any] = {}
    for name, url in screens(table).items():
        page.goto(url)
        found = page.evaluate(OVERFLOW, WIDTH)
        if found["scrollWidth"] > WIDTH:
            problems[name] = found
    assert not problems, problems


def test_every_control_is_a_44px_tap_target(page: Page, table: Table) -> None:
    problems: dict[str, list[str]] = {}
    for name, url in screens(table).items():
        page.goto(url)
        # Open every fold (calculator, adjustments, settings) so their controls are measured.
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        small = page.evaluate(SMALL_TARGETS, TAP)
        if small:
            problems[name] = small
    assert not problems, problems
