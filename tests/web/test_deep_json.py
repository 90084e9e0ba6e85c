"""JSON nested too deep is refused with a message wherever JSON comes in (the outbox's
request body, an imported match file, a restore, ``anotador score``): a 400 or a problem,
never a RecursionError, and nothing stored."""

from __future__ import annotations

import io
import json

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from stored import match_document

from anotador import backup
from anotador import rules
from anotador.commands.main import main
from anotador.rules.matchfile import MAX_DEPTH
from anotador.rules.matchfile import nests_within
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.web import inputs

ARRAYS = b"[" * 50_000
OBJECTS = b'{"a":' * 50_000
#: Deeper than the engine reads, yet shallow enough for Python's own parser.
JUST_TOO_DEEP = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
HOSTILE = [
    ARRAYS,
    ARRAYS + b"]" * 50_000,
    OBJECTS,
    OBJECTS + b"1" + b"}" * 50_000,
    JUST_TOO_DEEP,
]


def nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


def test_nesting_is_measured_in_levels_of_lists_and_objects():
    assert nests_within(1, 1)
    assert nests_within([], 1)
    assert not nests_within([[]], 1)
    assert nests_within({"a": [1, {"b": 2}]}, 3)
    assert not nests_within({"a": [1, {"b": {}}]}, 3)
    assert nests_within(nested(MAX_DEPTH), MAX_DEPTH)
    assert not nests_within(nested(MAX_DEPTH + 1), MAX_DEPTH)


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_the_engines_reader_refuses_deep_json_with_a_problem(text: bytes):
    value, problems = rules.parse_json(text)
    assert value is None
    assert [problem.code for problem in problems] in (["too_deep"], ["invalid_json"])


def test_a_match_file_is_far_from_the_bound():
    document = match_document("uruguaya", hands=[{"end": "closed", "closer": 0, "sides": [{}, {}]}])
    value, problems = rules.parse_json(json.dumps([document]))
    assert (value, problems) == ([document], [])


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_deep_json_to_the_outbox_is_a_400_with_a_message(
    app: Flask, client: FlaskClient, make_match, text: bytes
):
    match_id = make_match()
    answer = client.post(
        f"/partidas/{match_id}/manos/pendientes", data=text, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.get_json()["status"] == "refused"
    assert answer.get_json()["message"].startswith("No se pudo leer la mano enviada.")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Hand)) == 0


def test_a_deep_hand_in_the_outbox_says_why_in_the_users_language(client: FlaskClient, make_match):
    match_id = make_match()
    body = {"request_key": "0" * 32, "number": 1, "hand": {"sides": nested(MAX_DEPTH)}}
    answer = client.post(
        f"/partidas/{match_id}/manos/pendientes",
        json=body,
        headers={"Accept-Language": "en"},
    )
    assert answer.status_code == 400
    message = answer.get_json()["message"]
    assert message == (
        f"The hand sent could not be read. Lists and objects are nested more than "
        f"{MAX_DEPTH} levels deep."
    )


def test_the_shared_request_parser_reads_json_and_refuses_the_rest(app: Flask):
    with app.test_request_context():
        assert inputs.json_value(b'{"a": [1]}', "no") == {"a": [1]}
        for text in (b"", b"{roto", ARRAYS, OBJECTS):
            with pytest.raises(inputs.BadInput):
                inputs.json_value(text, "no")


@pytest.mark.parametrize("text", [ARRAYS, OBJECTS, JUST_TOO_DEEP], ids=range(3))
def test_a_deep_match_file_import_is_refused_with_its_message(
    app: Flask, client: FlaskClient, text: bytes
):
    response = client.post(
        "/partidas/importar",
        data={"file": (io.BytesIO(text), "partida.json")},
        headers={"Accept-Language": "en"},
    )
    assert 400 <= response.status_code < 500
    assert "nested more than" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 0


def test_a_restore_counts_deep_lines_as_invalid(app: Flask):
    good = json.dumps(match_document("uruguaya"))
    header = json.dumps({"format": backup.BACKUP_FORMAT})
    lines = [header, ARRAYS.decode(), OBJECTS.decode(), JUST_TOO_DEEP.decode(), good]
    with app.app_context():
        report = backup.import_stream(io.BytesIO("\n".join(lines).encode()))
    assert (report.created, report.invalid) == (1, 3)
    assert {problems[0].code for _, problems in report.problems} == {"too_deep"}


def test_anotador_score_refuses_deep_json(tmp_path):
    path = tmp_path / "deep.json"
    path.write_bytes(OBJECTS)
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 2
    assert "nested more than" in result.stderr
