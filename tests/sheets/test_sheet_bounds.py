"""Printed sheets within bounds: kept sheets evicted by age and total size, blank sheets of odd
targets never kept nor in the way of the usual ones, a drawing that failed remembered for its
state, and render slots no one requester can take whole (drawing stubbed: slow or failing)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from stored import create_account
from stored import create_stored_match
from stored import signed_in
from test_pdf import finished_match

from anotador.sheets import shelf
from anotador.storage import config

AppFactory = Callable[..., Flask]
FAKE = b"%PDF-1.7 stub"
BLANK = "/planillas/en-blanco?variante=uruguaya&disposicion=4p"
#: The 4p layout's own target (kept) and an odd one (not kept).
USUAL = f"{BLANK}&objetivo=5000"
ODD = f"{BLANK}&objetivo=123455"


class Drawing:
    """shelf.draw stubbed: records what it draws (and whether as unusual), waits for
    ``release`` on the requests ``holds`` picks, fails on those ``fails`` picks."""

    def __init__(self) -> None:
        self.drawn: list[tuple[dict[str, Any], bool]] = []
        self.release = threading.Event()
        self.started = threading.Event()
        self.holds: Callable[[dict[str, Any]], bool] = lambda wanted: False
        self.fails: Callable[[dict[str, Any]], bool] = lambda wanted: False

    def __call__(self, wanted: dict[str, Any], unusual: bool = False) -> bytes:
        self.drawn.append((wanted, unusual))
        if self.holds(wanted):
            self.started.set()
            assert self.release.wait(30)
        if self.fails(wanted):
            raise shelf.RenderFailed("took too long")
        return FAKE


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawing]:
    stub = Drawing()
    monkeypatch.setattr(shelf, "draw", stub)
    yield stub
    stub.release.set()


def in_background(get: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(get()))
    thread.start()
    return thread, answers


def kept_files(app: Flask) -> list[str]:
    return sorted(path.name for path in (Path(app.instance_path) / "sheets").glob("*.pdf"))


# Kept sheets: evicted by age and total size


def test_the_caps_on_kept_sheets_come_from_the_environment_with_safe_defaults():
    assert config.sheet_settings({}) == {
        "PDF_SHEETS_MAX_BYTES": 256 * 1024 * 1024,
        "PDF_SHEETS_MAX_AGE": 30 * 24 * 3600,
    }
    chosen = {"ANOTADOR_SHEETS_MB": "10", "ANOTADOR_SHEETS_DAYS": " 2 "}
    assert config.sheet_settings(chosen) == {
        "PDF_SHEETS_MAX_BYTES": 10 * 1024 * 1024,
        "PDF_SHEETS_MAX_AGE": 2 * 24 * 3600,
    }
    for wrong in ("-1", "1.5", "mucho", "９"):
        with pytest.raises(ValueError, match="ANOTADOR_SHEETS_MB"):
            config.sheet_settings({"ANOTADOR_SHEETS_MB": wrong})


def test_kept_sheets_beyond_the_total_size_go_oldest_first(app_factory: AppFactory):
    app = app_factory(PDF_SHEETS_MAX_BYTES=250)
    now = time.time()
    with app.app_context():
        for age, name in enumerate(["e", "d", "c", "b", "a"]):  # "a" is the oldest
            shelf.keep(name, b"x" * 100)
            os.utime(shelf.folder() / f"{name}.pdf", (now - age, now - age))
        shelf.keep("new", b"x" * 100)
        assert kept_files(app) == ["e.pdf", "new.pdf"]
        assert shelf.kept("new") == b"x" * 100


def test_kept_sheets_older_than_the_age_go(app_factory: AppFactory):
    app = app_factory(PDF_SHEETS_MAX_AGE=3600)
    with app.app_context():
        shelf.keep("old", FAKE)
        shelf.keep("recent", FAKE)
        long_ago = time.time() - 7200
        os.utime(shelf.folder() / "old.pdf", (long_ago, long_ago))
        shelf.prune()
        assert kept_files(app) == ["recent.pdf"]


# Blank sheets: only the usual ones kept; odd targets never in their way


def test_a_blank_sheet_of_an_odd_target_is_drawn_but_not_kept(
    app: Flask, client: FlaskClient, drawing: Drawing
):
    odd = client.get(ODD)
    assert (odd.status_code, odd.data) == (200, FAKE)
    assert kept_files(app) == []
    usual = client.get(USUAL)
    assert (usual.status_code, usual.data) == (200, FAKE)
    assert len(kept_files(app)) == 1
    default = client.get(BLANK)  # no target: the layout's own
    assert default.status_code == 200
    assert len(kept_files(app)) == 2
    assert [unusual for _, unusual in drawing.drawn] == [True, False, False]


def test_a_burst_of_odd_targets_does_not_starve_the_usual_blank_sheet(app: Flask, drawing: Drawing):
    drawing.holds = lambda wanted: wanted["target"] == 123455
    first, answers = in_background(lambda: app.test_client().get(ODD))
    assert drawing.started.wait(30)
    # The odd one holds its slot: more odd ones wait, the usual sheet is drawn at once.
    another_odd = app.test_client().get(f"{BLANK}&objetivo=777")
    assert another_odd.status_code == 503
    # Even from the same address as the burst.
    usual = app.test_client().get(USUAL)
    assert (usual.status_code, usual.data) == (200, FAKE)
    drawing.release.set()
    first.join(30)
    assert answers[0].status_code == 200


# A drawing that failed is remembered for that state


def test_a_sheet_that_could_not_be_drawn_is_not_tried_again(
    app: Flask, client: FlaskClient, drawing: Drawing
):
    drawing.fails = lambda wanted: True
    match_id = create_stored_match(app, finished_match())
    url = f"/partidas/{match_id}/planilla.pdf"
    first = client.get(url, headers={"Accept-Language": "es"})
    assert first.status_code == 503
    page = first.get_data(as_text=True)
    assert "Esta planilla no se puede generar" in page
    assert 'http-equiv="refresh"' not in page  # it does not ask again by itself
    assert f'href="/partidas/{match_id}"' in page
    assert f'href="/partidas/{match_id}/exportar"' in page
    again = client.get(url, headers={"Accept-Language": "es"})
    assert again.status_code == 503
    assert again.get_data(as_text=True) == page
    assert len(drawing.drawn) == 1
    # Another state of the sheet (here its language) is another key: tried afresh.
    english = client.get(url, headers={"Accept-Language": "en"})
    assert "This sheet cannot be drawn" in english.get_data(as_text=True)
    assert len(drawing.drawn) == 2


def test_a_failure_is_forgotten_after_a_while(app: Flask, client: FlaskClient, drawing: Drawing):
    drawing.fails = lambda wanted: True
    assert client.get(USUAL).status_code == 503
    with app.app_context():
        (failure,) = (shelf.folder() / "failed").iterdir()
        long_ago = time.time() - shelf.FAILED_SECONDS - 1
        os.utime(failure, (long_ago, long_ago))
        drawing.fails = lambda wanted: False
        assert client.get(USUAL).status_code == 200
        shelf.prune()
        assert not failure.exists()


# Render slots: one requester holds at most one; costly sheets have a slot of their own


def test_one_account_holds_at_most_one_slot_while_another_is_served(
    app_factory: AppFactory, drawing: Drawing
):
    app = app_factory(PDF_RENDER_SLOTS=2)
    create_account(app, "Otra")
    mine = [create_stored_match(app, finished_match()) for _ in range(2)]
    theirs = create_stored_match(app, finished_match(), owner="Otra")
    drawing.holds = lambda wanted: True
    owner = signed_in(app)
    first, answers = in_background(lambda: owner.get(f"/partidas/{mine[0]}/planilla.pdf"))
    assert drawing.started.wait(30)
    # A slot is free, but not for the account drawing already.
    second = signed_in(app).get(f"/partidas/{mine[1]}/planilla.pdf")
    assert second.status_code == 503
    assert "Preparando la planilla" in second.get_data(as_text=True)
    drawing.holds = lambda wanted: False
    other = signed_in(app, "Otra").get(f"/partidas/{theirs}/planilla.pdf")
    assert (other.status_code, other.data) == (200, FAKE)
    drawing.release.set()
    first.join(30)
    assert answers[0].status_code == 200


def test_a_huge_match_drawing_leaves_the_usual_slot_to_others(app: Flask, drawing: Drawing):
    create_account(app, "Otra")
    quiet = {"end": "stock_out", "sides": [{}, {}]}
    huge = create_stored_match(app, {**finished_match(), "hands": [quiet] * 500})
    theirs = create_stored_match(app, finished_match(), owner="Otra")
    drawing.holds = lambda wanted: (
        wanted["kind"] == "match" and len(wanted["document"]["hands"]) > 3
    )
    owner = signed_in(app)
    first, answers = in_background(lambda: owner.get(f"/partidas/{huge}/planilla.pdf"))
    assert drawing.started.wait(30)
    other = signed_in(app, "Otra").get(f"/partidas/{theirs}/planilla.pdf")
    assert (other.status_code, other.data) == (200, FAKE)
    drawing.release.set()
    first.join(30)
    assert answers[0].status_code == 200
    assert [unusual for _, unusual in drawing.drawn] == [True, False]


def test_a_drawing_that_takes_too_long_is_given_up_and_remembered(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    app = app_factory(PDF_RENDER_PROCESS=True)  # the real child process, given no time
    monkeypatch.setattr(shelf, "RENDER_TIMEOUT", 0.01)
    answer = app.test_client().get(USUAL, headers={"Accept-Language": "it"})
    assert answer.status_code == 503
    assert "Questo foglio non si può generare" in answer.get_data(as_text=True)
    assert f'href="{BLANK.split("?")[0]}"' in answer.get_data(as_text=True)
    with app.app_context():
        assert len(list((shelf.folder() / "failed").iterdir())) == 1


def test_an_unusual_sheet_is_drawn_at_a_lower_priority(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    commands: list[list[str]] = []
    real_run = subprocess.run

    def run(command: list[str], **options: Any) -> Any:
        commands.append(command)
        return real_run(command, **options)

    monkeypatch.setattr(subprocess, "run", run)
    app = app_factory(PDF_RENDER_PROCESS=True)
    answer = app.test_client().get(ODD)
    assert answer.status_code == 200
    assert answer.data.startswith(b"%PDF")
    assert commands[0][-1] == str(shelf.UNUSUAL_NICENESS)
