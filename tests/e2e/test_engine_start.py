"""The engine is started before it is needed (issue 25): the hand form, opened online on a
phone the service worker controls, starts it in the background once the service worker keeps
its files; its first start keeps a snapshot of the started interpreter, from which the hand
form opened offline starts."""

from __future__ import annotations

from typing import Any

import pytest
from phone import Table
from phone import points
from playwright.sync_api import BrowserContext
from playwright.sync_api import Page
from playwright.sync_api import expect
from test_offline_outbox import ENGINE_ANSWERS
from test_offline_outbox import ENGINE_CACHED
from test_offline_outbox import HANDS
from test_offline_outbox import installed

pytestmark = pytest.mark.browser

#: Which start the page's engine made (or is making): "scratch" or "snapshot". The hand form
#: started it on opening; this only waits for it.
STARTED = "() => window.anotadorEngine.start()"
#: True once the phone keeps a snapshot of the started engine (read without creating the
#: database: the engine's worker makes it).
SNAPSHOT_KEPT = """async () => {
  const names = (await indexedDB.databases()).map((database) => database.name);
  if (!names.includes("anotador-engine")) return false;
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open("anotador-engine");
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  try {
    if (!db.objectStoreNames.contains("snapshots")) return false;
    return await new Promise((resolve) => {
      const counting = db.transaction("snapshots").objectStore("snapshots").count();
      counting.onsuccess = () => resolve(counting.result > 0);
    });
  } finally {
    db.close();
  }
}"""


def until(page: Page, script: str) -> None:
    """Wait for ``script``'s promise to give true (``wait_for_function`` takes a promise as
    true at once: it does not wait for it)."""
    for _check in range(ENGINE_ANSWERS // 500):
        if page.evaluate(script):
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"never true: {script}")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """These phones run the service worker (conftest's phones block it)."""
    return {**browser_context_args, "service_workers": "allow"}


def test_the_hand_form_starts_the_engine_online_and_offline_from_its_snapshot(
    page: Page, context: BrowserContext, table: Table
):
    table.new_match()
    installed(page)
    table.open_new_hand()
    until(page, ENGINE_CACHED)
    # Nothing but the hand form starts it: once the service worker keeps its files.
    until(page, SNAPSHOT_KEPT)
    assert page.evaluate(STARTED) == "scratch"

    context.set_offline(True)
    page.reload()
    assert page.evaluate(STARTED) == "snapshot"
    closer, sides, totals, minimums = HANDS[0]
    table.fill_hand(closer, sides)
    preview = page.locator("#preview-table tbody tr")
    expect(preview.locator("td.big")).to_have_text(
        [points(total) for total in totals], timeout=ENGINE_ANSWERS
    )
    expect(preview.nth(0).locator("td").nth(2)).to_have_text(points(minimums[0]))
    context.set_offline(False)
