"""The phone's own engine without a connection (issue 11): Debian's Chromium opens a match's
hand form offline, from the service worker's cache, a hand is typed, and the clock stops when
the preview shows the engine's totals.

- cold: the first opening of the form offline (Pyodide starts: fetched from the cache,
  compiled, the rules unpacked);
- reopened: the form opened offline again (the browser's code caches are warm; Pyodide
  starts again, as every page load does);
- warm: one more change on the open form (the engine is running: only the scoring).

Each figure is the median of a few rounds with its spread (min–max). No target is set by the
issue; it asks for the figures.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.offline_cache import CHROMIUM
from benchmarks.offline_cache import ENGINE_CACHED
from benchmarks.offline_cache import served_match

ROUNDS = 3
#: The preview's total for Nosotros once the typed hand is scored (2 clean, 1 dirty, 400).
PREVIEWED = "#preview-table:not([hidden]) tbody tr:first-child td.big"


def type_hand(page: Any, table_points: int) -> None:
    page.locator('input[name="closer"][value="0"]').check()
    page.fill('input[name="s0_clean"]', "2")
    page.fill('input[name="s0_dirty"]', "1")
    page.fill('input[name="s0_table_points"]', str(table_points))


def seconds_to_preview(page: Any, form: str) -> float:
    start = time.perf_counter()
    page.goto(form)
    type_hand(page, 400)
    page.wait_for_selector(PREVIEWED, timeout=180_000)
    return time.perf_counter() - start


def seconds_to_update(page: Any) -> float:
    before = page.locator(PREVIEWED).text_content()
    start = time.perf_counter()
    page.fill('input[name="s0_table_points"]', "500")
    page.wait_for_function(
        "([selector, before]) => {"
        " const cell = document.querySelector(selector);"
        " return cell !== null && cell.textContent !== before; }",
        arg=[PREVIEWED, before],
        timeout=60_000,
    )
    return time.perf_counter() - start


def measure(url: str, match_id: int, jar: list[dict[str, Any]]) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    form = f"/partidas/{match_id}/manos/nueva"
    found: dict[str, list[float]] = {"cold": [], "reopened": [], "warm": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        for _round in range(ROUNDS):
            context = browser.new_context(base_url=url)
            context.add_cookies(jar)
            page = context.new_page()
            for _visit in range(2):  # the engine's files are fetched on a later visit only
                page.goto(form)
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            page.wait_for_function(ENGINE_CACHED, polling=500, timeout=180_000)
            context.set_offline(True)
            found["cold"].append(seconds_to_preview(page, form))
            found["warm"].append(seconds_to_update(page))
            found["reopened"].append(seconds_to_preview(page, form))
            context.close()
        browser.close()
    return found


def run() -> list[str]:
    if not CHROMIUM.exists():
        return ["offline engine: skipped (no /usr/bin/chromium)"]
    with served_match() as (url, match_id, jar):
        found = measure(url, match_id, jar)
    return [
        f"offline engine, hand form opened offline to its preview, {name}: "
        f"{statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f}; "
        f"{len(times)} rounds; no target)"
        for name, times in found.items()
    ]
