"""The history CSV: a cell a spreadsheet would run as a formula is written as text."""

import csv
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient

from anotador import backup
from anotador import operations


@pytest.mark.parametrize(
    ("value", "cell"),
    [('=HYPERLINK("http://x.example","x")', '\'=HYPERLINK("http://x.example","x")'),
     ("+54 9 11", "'+54 9 11"), ("-Ana", "'-Ana"), ("@SUM(A1)", "'@SUM(A1)"),
     ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ana = Beto", "Ana = Beto"), ("", ""),
     (-85, -85), (0, 0), (1200, 1200)],
)  # fmt: skip
def test_csv_cells_a_spreadsheet_would_run_become_text(value: object, cell: object):
    assert backup.csv_cell(value) == cell


def test_history_csv_neutralises_formulas_and_keeps_numbers(app: Flask, client: FlaskClient):
    document = {
        "format": "anotador-match/1",
        "variant": "uruguaya",
        "layout": "4p",
        "title": "+1 partida",
        "start_scores": [-500, 1200],
        "sides": [
            {"name": '=HYPERLINK("http://x.example","x")', "players": ["@ana", "Beto"]},
            {"name": "-Ellos", "players": ["=1+1"]},
        ],
        "hands": [],
    }
    with app.app_context():
        match, problems = operations.create_match(document)
        assert match is not None, problems
    response = client.get("/historial/historial.csv")
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    (row,) = rows
    assert row["side_1_name"] == '\'=HYPERLINK("http://x.example","x")'
    assert row["side_1_players"] == "'@ana / Beto"
    assert row["side_2_name"] == "'-Ellos"
    assert row["side_2_players"] == "'=1+1"
    assert row["title"] == "'+1 partida"
    assert (row["side_1_total"], row["side_2_total"]) == ("-500", "1200")
    assert row["hands"] == "0"
