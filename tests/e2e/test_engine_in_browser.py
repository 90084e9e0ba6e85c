"""The rules engine on the phone is the server's: anotador/rules run by Pyodide in Chromium
gives, for every match file, exactly what the server computes (``score_document``, which is
what ``anotador score`` prints), problems included."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import watch_csp
from hypothesis import HealthCheck
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from playwright.sync_api import Browser
from playwright.sync_api import Page

from anotador.rules.api import score_document

TESTS = Path(__file__).parents[1]
# The generators of the engine's property tests (tests/rules, on sys.path as pytest puts it).
sys.path.insert(0, str(TESTS / "rules"))
from test_properties import SETUPS  # noqa: E402
from test_properties import mutated_documents  # noqa: E402
from test_properties import valid_documents  # noqa: E402

pytestmark = pytest.mark.browser

#: How many times a page makes the snapshot and is closed at once.
CLOSED_AT_ONCE = 3
#: Generated matches per variant and layout, and broken ones in all.
PER_SETUP = 25
MUTATED = 300

#: The documents go as JSON text, as a phone's outbox keeps them: a JavaScript number would
#: round the huge integers the broken documents hold.
SCORE_ALL = """async (texts) => {
  const found = [];
  for (const text of texts) found.push(await window.anotadorEngine.score(text));
  return found;
}"""


#: Starts the page's engine; how it started: "scratch" or "snapshot" (the one this phone keeps).
STARTED = "() => window.anotadorEngine.start()"

#: The kept snapshot made one Pyodide refuses (its first bytes changed), as a snapshot of
#: another build of the same version would be.
SPOIL_SNAPSHOT = """async () => {
  const done = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await done(indexedDB.open("anotador-engine"));
  const [key] = await done(db.transaction("snapshots").objectStore("snapshots").getAllKeys());
  const kept = await done(db.transaction("snapshots").objectStore("snapshots").get(key));
  const bytes = new Uint8Array(await kept.snapshot.arrayBuffer());
  bytes[0] ^= 0xff;
  const spoiled = { version: kept.version, snapshot: new Blob([bytes]) };
  await done(db.transaction("snapshots", "readwrite").objectStore("snapshots").put(spoiled, key));
  db.close();
}"""


@pytest.fixture(scope="module")
def engine(browser: Browser, browser_context_args: dict[str, Any], base_url: str) -> Any:
    """One phone whose engine is loaded once for every test here (a load takes seconds)."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    violations = watch_csp(page)
    page.goto(base_url + "/")
    assert page.evaluate(STARTED) == "scratch"
    yield page
    context.close()
    assert not violations, violations


def another_page(engine: Page) -> Page:
    """A page opened later on the same phone: its own engine, started afresh."""
    page = engine.context.new_page()
    page.goto(engine.url)
    return page


def generated(strategy: st.SearchStrategy[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``count`` documents drawn from ``strategy``, the same ones on every run."""
    found: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(document: dict[str, Any]) -> None:
        found.append(copy.deepcopy(document))

    collect()
    return found


def example_files() -> list[dict[str, Any]]:
    files = sorted((TESTS / "fixtures" / "examples").glob("*.json"))
    return [json.loads(path.read_text()) for path in files if ".expected" not in path.name]


def on_the_server(document: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(score_document(json.dumps(document))))


def assert_same_as_the_server(page: Page, documents: list[dict[str, Any]]) -> None:
    in_the_browser = page.evaluate(SCORE_ALL, [json.dumps(document) for document in documents])

    assert len(in_the_browser) == len(documents)
    for document, found in zip(documents, in_the_browser, strict=True):
        assert found == on_the_server(document), json.dumps(document)


def test_every_worked_example_scores_the_same_in_the_browser(engine: Page):
    documents = example_files()

    assert len(documents) > 10
    assert_same_as_the_server(engine, documents)


def test_a_document_object_is_scored_too(engine: Page):
    document = example_files()[0]
    found = engine.evaluate("(d) => window.anotadorEngine.score(d)", document)

    assert found == on_the_server(document)
    assert found["result"]["totals"]


def test_a_later_page_starts_from_the_kept_snapshot_and_scores_the_same(engine: Page):
    """The first start kept the started interpreter; a later page restores it (a fraction of
    the start-up) and its engine is still the server's."""
    later = another_page(engine)

    assert later.evaluate(STARTED) == "snapshot"
    assert_same_as_the_server(later, example_files())
    later.close()


def test_a_snapshot_pyodide_refuses_is_made_again(engine: Page):
    spoiled = another_page(engine)
    spoiled.evaluate(SPOIL_SNAPSHOT)

    assert spoiled.evaluate(STARTED) == "scratch"
    assert_same_as_the_server(spoiled, example_files()[:3])
    spoiled.close()
    again = another_page(engine)
    assert again.evaluate(STARTED) == "snapshot"
    assert_same_as_the_server(again, example_files()[:3])
    again.close()


def test_a_snapshot_is_kept_whole_though_its_page_closes_at_once(engine: Page):
    """The start that makes the snapshot ends once the phone keeps all of it: a page closed
    right after (a hand saved, a tab shut) leaves one the next page restores. Here, as in an
    incognito tab, IndexedDB lives in memory, where a Blob still on its way from a page that
    closed was left unreadable (the next page then started from scratch)."""
    for _round in range(CLOSED_AT_ONCE):
        making = another_page(engine)
        making.evaluate(SPOIL_SNAPSHOT)
        assert making.evaluate(STARTED) == "scratch"
        making.close()
        later = another_page(engine)
        assert later.evaluate(STARTED) == "snapshot"
        later.close()


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "layout"), SETUPS, ids=[f"{v}-{lay}" for v, lay in SETUPS])
def test_generated_matches_score_the_same_in_the_browser(engine: Page, variant: str, layout: str):
    documents = generated(valid_documents((variant, layout)), PER_SETUP)

    assert len(documents) == PER_SETUP
    assert_same_as_the_server(engine, documents)


@pytest.mark.slow
def test_broken_matches_give_the_same_problems_in_the_browser(engine: Page):
    documents = generated(mutated_documents(), MUTATED)
    broken = [document for document in documents if on_the_server(document)["result"] is None]

    assert len(broken) > MUTATED // 2
    assert_same_as_the_server(engine, documents)
