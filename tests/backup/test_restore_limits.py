"""Nothing an upload sends can break a restore: bounded reports, lines and reads; a restore
stopped midway is finished by running it again; CSV cells a spreadsheet would run are text."""

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask.testing import FlaskCliRunner
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from stored import MakeMatch
from werkzeug.datastructures import FileStorage
from werkzeug.datastructures import MultiDict
from werkzeug.test import encode_multipart

from anotador import backup
from anotador import rules
from anotador.backup import bulk
from anotador.storage.database import db
from anotador.storage.models import Hand
from anotador.storage.models import Match
from anotador.storage.models import Seat
from anotador.storage.models import Side

E01 = Path(__file__).parent.parent / "fixtures" / "examples" / "E01.json"
HEADER = json.dumps({"format": backup.BACKUP_FORMAT})
#: Short lines that are no match file, of every kind a parser sees differently.
TINY_INVALID = ["x", "{}", "1", "[]", "null", '"texto"', "{roto", '{"format": "otro"}', "[[]]"]


def match_line(title: str) -> str:
    """A valid match file on one line; a different title is a different match."""
    return json.dumps({**json.loads(E01.read_text()), "title": title})


def import_text(text: str, **options: Any) -> backup.ImportReport:
    return backup.import_stream(io.BytesIO(text.encode()), **options)


def clear_matches() -> None:
    for model in (Hand, Seat, Side, Match):
        db.session.execute(sa.delete(model))
    db.session.commit()


def match_count() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(Match)) or 0


def upload(client: FlaskClient, content: bytes, name: str = "copia.jsonl") -> Any:
    files = MultiDict({"copia": FileStorage(io.BytesIO(content), name)})
    boundary, body = encode_multipart(files)
    content_type = f"multipart/form-data; boundary={boundary}"
    return client.post("/historial/restaurar", data=body, content_type=content_type)


# The report keeps counts and the first problems, not one entry per line


def test_report_counts_every_invalid_line_and_keeps_the_first_few(app: Flask):
    invalid = [TINY_INVALID[n % len(TINY_INVALID)] for n in range(300)]
    lines = [HEADER, match_line("uno"), *invalid, match_line("dos")]
    with app.app_context():
        report = import_text("\n".join(lines) + "\n", keep=5)
    assert (report.created, report.skipped, report.invalid) == (2, 0, 300)
    assert [number for number, _ in report.problems] == [3, 4, 5, 6, 7]
    assert all(problems for _, problems in report.problems)
    assert report.lines == 303


def test_report_keeps_a_few_ids_however_many_matches(app: Flask):
    lines = [HEADER, *(match_line(f"partida {n}") for n in range(backup.KEEP_IDS + 5))]
    text = "\n".join(lines)
    with app.app_context():
        first = import_text(text, batch=4)
        assert first.created == backup.KEEP_IDS + 5
        assert len(first.created_ids) == backup.KEEP_IDS
        assert first.batches == 4
        again = import_text(text)
        assert (again.created, again.skipped) == (0, backup.KEEP_IDS + 5)
        assert again.skipped_ids == first.created_ids


def test_problems_kept_are_cut_short(app: Flask):
    document = json.loads(match_line("x"))
    document["k" * 100_000] = 1  # an unknown key: its path names it
    with app.app_context():
        report = import_text(json.dumps(document))
    ((_, problems),) = report.problems
    assert problems[0].code == "unknown_key"
    assert len(problems[0].path) <= backup.MAX_PROBLEM_TEXT


def test_lines_past_the_kept_ones_are_counted_without_parsing(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    parsed: list[int] = []
    real = rules.parse_json

    def counting(text: str | bytes) -> tuple[object, list[rules.Problem]]:
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(rules, "parse_json", counting)
    lines = [HEADER, *(["x", "{}", "[1]"] * 1000), match_line("válida")]
    with app.app_context():
        report = import_text("\n".join(lines), keep=10)
    assert (report.created, report.invalid) == (1, 3000)
    assert len(parsed) == 1 + 10 + 1  # the header, the kept invalid lines, the match


MATCH_SPELLINGS = [
    match_line("a"),
    match_line("b").replace("anotador-match/1", "anotador-match\\/1"),  # an escaped slash
    match_line("c").replace('"format"', '"\\u0066ormat"'),  # an escaped key
    match_line("dé"),  # written "d\\u00e9"
    json.dumps({**json.loads(match_line("e")), "format": "anotador-match/2"}),
    '{"format": "anotador-match/1"}',
    *TINY_INVALID,
    "",
    "   ",
]


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(lines=st.lists(st.sampled_from(MATCH_SPELLINGS), max_size=12))
def test_counting_without_parsing_never_changes_what_is_counted(app: Flask, lines: list[str]):
    """Whether a line is parsed (the report still keeps problems) or only looked at (it
    holds enough), the counts are the same."""
    text = "\n".join([HEADER, *lines])
    with app.app_context():
        kept = import_text(text, keep=1000)
        clear_matches()
        counted = import_text(text, keep=0)
        clear_matches()
    assert (kept.created, kept.invalid) == (counted.created, counted.invalid)
    assert counted.problems == []
    valid = sum(1 for line in lines if line in MATCH_SPELLINGS[:4])
    assert kept.created == valid


# A huge line or deep nesting is reported, never parsed or crashed on


def test_a_line_longer_than_the_limit_is_reported_without_parsing(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    longest: list[int] = []
    real = rules.parse_json

    def measuring(text: str | bytes) -> tuple[object, list[rules.Problem]]:
        longest.append(len(text))
        return real(text)

    monkeypatch.setattr(rules, "parse_json", measuring)
    huge = json.dumps({**json.loads(match_line("x")), "notes": "n" * (backup.MAX_LINE + 10)})
    lines = [HEADER, huge, match_line("ok"), huge]  # the last one without a newline
    with app.app_context():
        report = import_text("\n".join(lines))
    assert (report.created, report.invalid) == (1, 2)
    assert [number for number, _ in report.problems] == [2, 4]
    assert {problems[0].code for _, problems in report.problems} == {"line_too_long"}
    assert max(longest) <= backup.MAX_LINE
    assert next(report.problem_lines()) == (2, "$: Longer than 2 MB: not read.")


def test_a_huge_first_line_is_read_as_lines_too(app: Flask):
    text = "x" * (3 * backup.MAX_LINE) + "\n" + match_line("ok") + "\n"
    with app.app_context():
        report = import_text(text)
    assert (report.single, report.created, report.invalid) == (False, 1, 1)
    assert report.problems[0][1][0].code == "line_too_long"


def test_a_large_input_that_is_not_json_lines_is_read_as_lines(app: Flask):
    """One document is at most MAX_LINE long: a larger input is read line by line."""
    text = "{roto\n" + "\n".join(match_line(f"m{n}") for n in range(3)) + "\n"
    text += " " * backup.MAX_LINE + "\n"  # a blank line, but it makes the input too large
    with app.app_context():
        report = import_text(text)
    assert (report.single, report.created, report.invalid) == (False, 3, 1)
    assert report.problems[0][0] == 1


@pytest.mark.parametrize(
    "line",
    ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000,
     match_line("x")[:-1] + ', "notes": ' + "[" * 100_000 + "]" * 100_000 + "}"],
)  # fmt: skip
def test_deeply_nested_json_is_an_invalid_line(app: Flask, client: FlaskClient, line: str):
    text = "\n".join([HEADER, line, match_line("ok")]) + "\n"
    with app.app_context():
        report = import_text(text)
    assert (report.created, report.invalid) == (1, 1)
    assert report.problems[0][0] == 2
    response = upload(client, text.replace('"title": "ok"', '"title": "otra"').encode())
    assert response.status_code == 200
    assert "Línea 2" in response.get_data(as_text=True)


class BlockReader(io.RawIOBase):
    """A stream that refuses to be read whole or by lines, and records its reads."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)
        self.reads: list[int] = []

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "read whole"
        self.reads.append(size)
        return self.data.read(size)

    def readline(self, size: int | None = -1) -> bytes:
        raise AssertionError("read by lines without a limit")

    def __iter__(self) -> Iterator[bytes]:
        raise AssertionError("read by lines without a limit")


@pytest.mark.parametrize("kind", ["backup", "lines", "single", "list", "large"])
def test_the_input_is_read_a_block_at_a_time(app: Flask, kind: str):
    documents = [match_line(f"m{n}") for n in range(3)]
    text = {
        "backup": "\n".join([HEADER, *documents]),
        "lines": "\n".join(documents),
        "single": json.dumps(json.loads(documents[0]), indent=2),
        "list": "[" + ",\n".join(documents) + "]",
        "large": "{roto\n" + "\n".join(documents) + "\n" + " " * backup.MAX_LINE,
    }[kind]
    stream = BlockReader(text.encode())
    with app.app_context():
        report = backup.import_stream(stream)  # type: ignore[arg-type]
    assert report.created == (1 if kind == "single" else 3)
    assert max(stream.reads) <= backup.READ_BLOCK


def test_the_page_lists_the_first_invalid_lines_and_counts_the_rest(
    app: Flask, client: FlaskClient
):
    lines = [HEADER, match_line("ok"), *(["x"] * 120)]
    response = upload(client, "\n".join(lines).encode())
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "1 partida importada" in page
    assert "120 inválidas" in page
    assert "Línea 52" in page  # the 50th invalid line
    assert "Línea 53" not in page
    assert "… y 70 líneas inválidas más." in page
    assert "1 tanda guardada" in page
    assert "restaurar de nuevo el mismo archivo" in page


def test_the_page_says_a_line_was_too_long(client: FlaskClient):
    huge = "[" + "0," * backup.MAX_LINE + "0]"
    response = upload(client, "\n".join([HEADER, huge, match_line("ok")]).encode())
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Línea 2" in page
    assert "Tiene más de 2 MB: no se leyó." in page


def test_the_import_command_lists_the_first_invalid_lines(runner: FlaskCliRunner, tmp_path: Path):
    path = tmp_path / "copia.jsonl"
    path.write_text("\n".join([HEADER, match_line("ok"), *(["x"] * 80)]))
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 2
    assert result.stdout.strip() == "1 imported, 0 already present, 80 invalid"
    listed = [line for line in result.stderr.splitlines() if line.startswith("line ")]
    assert len(listed) == backup.KEEP_INVALID
    assert "... and 30 more invalid lines" in result.stderr


# A restore stopped midway: the batches committed stay, running it again finishes it


def backup_lines() -> str:
    """Seven matches, one of them twice (a backup of a database that held it twice)."""
    titles = ["a", "b", "c", "d", "b", "e", "f"]
    return "\n".join([HEADER, *(match_line(title) for title in titles)]) + "\n"


def titles_stored() -> list[str]:
    return sorted(db.session.scalars(sa.select(Match.title)))


class Died(BaseException):
    """The worker killed midway (not an error the import could catch)."""


def failing_on(call: int, error: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the ``call``-th insert of matches raise ``error``."""
    real = bulk.insert_matches
    calls = []

    def insert(new: list[bulk.NewMatch]) -> list[int]:
        calls.append(1)
        if len(calls) == call:
            raise error
        return real(new)

    monkeypatch.setattr(bulk, "insert_matches", insert)


def test_a_restore_killed_midway_is_finished_by_running_it_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    with app.app_context():
        failing_on(3, Died(), monkeypatch)
        with pytest.raises(Died):
            import_text(backup_lines(), batch=2)
        db.session.rollback()  # what the dead worker's connection does
        assert titles_stored() == ["a", "b", "c", "d"]  # two batches of two
        monkeypatch.undo()
        report = import_text(backup_lines(), batch=2)
        assert (report.created, report.skipped, report.invalid) == (3, 4, 0)
        assert titles_stored() == ["a", "b", "b", "c", "d", "e", "f"]
        again = import_text(backup_lines(), batch=2)
        assert (again.created, again.skipped) == (0, 7)
        assert match_count() == 7


def test_a_database_failure_midway_says_what_was_stored(
    app: Flask, monkeypatch: pytest.MonkeyPatch
):
    error = sa.exc.OperationalError("INSERT INTO match", {}, Exception("disk I/O error"))
    with app.app_context():
        failing_on(2, error, monkeypatch)
        report = import_text(backup_lines(), batch=3)
        assert (report.created, report.batches, report.stopped_at) == (3, 1, 5)
        assert titles_stored() == ["a", "b", "c"]
        monkeypatch.undo()
        report = import_text(backup_lines(), batch=3)
        assert (report.created, report.skipped, report.stopped_at) == (4, 3, None)
        assert titles_stored() == ["a", "b", "b", "c", "d", "e", "f"]


def test_the_page_of_a_restore_stopped_midway_says_to_run_it_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(backup.restore, "BATCH", 2)
    error = sa.exc.OperationalError("INSERT INTO match", {}, Exception("disk I/O error"))
    failing_on(3, error, monkeypatch)
    response = upload(client, backup_lines().encode())
    assert response.status_code == 503
    page = response.get_data(as_text=True)
    assert "La restauración se cortó en la línea 6" in page
    assert "4 partidas importadas" in page
    assert "2 tandas guardadas" in page
    monkeypatch.undo()
    again = upload(client, backup_lines().encode())
    assert again.status_code == 200
    page = again.get_data(as_text=True)
    assert "3 partidas importadas" in page
    assert "4 partidas ya estaban" in page
    with app.app_context():
        assert titles_stored() == ["a", "b", "b", "c", "d", "e", "f"]


# The history CSV: nothing a spreadsheet would run


@pytest.mark.parametrize(
    ("value", "cell"),
    [('=HYPERLINK("http://x.example","x")', '\'=HYPERLINK("http://x.example","x")'),
     ("+54 9 11", "'+54 9 11"), ("-Ana", "'-Ana"), ("@SUM(A1)", "'@SUM(A1)"),
     ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ana = Beto", "Ana = Beto"), ("", ""),
     (-85, -85), (0, 0), (1200, 1200)],
)  # fmt: skip
def test_csv_cells_a_spreadsheet_would_run_become_text(value: object, cell: object):
    assert backup.csv_cell(value) == cell


def test_history_csv_neutralises_formulas_and_keeps_numbers(
    client: FlaskClient, make_match: MakeMatch
):
    make_match(
        layout="4p",
        title="+1 partida",
        start_scores=[-500, 1200],
        sides=[
            {"name": '=HYPERLINK("http://x.example","x")', "players": ["@ana", "Beto"]},
            {"name": "-Ellos", "players": ["=1+1"]},
        ],
    )
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
