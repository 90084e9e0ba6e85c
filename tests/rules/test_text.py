"""The engine's rules for stored texts: one set, for match files, forms and searches."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anotador import rules
from anotador.rules.text import MAX_NAME
from anotador.rules.text import TextRefused
from anotador.rules.text import read_text


@pytest.mark.parametrize(
    ("raw", "single_line", "stored"),
    [
        ("  Ana  ", True, "Ana"),
        ("Ana \t María\n", True, "Ana María"),
        ("Jose\u0301", True, "José"),  # NFC: e + combining acute is é
        ("Zoë 🃏", True, "Zoë 🃏"),
        ("línea 1\nlínea 2\n", False, "línea 1\nlínea 2"),
        ("\u2028Ana\u2029", True, "Ana"),
    ],
)
def test_texts_are_stored_clean(raw: str, single_line: bool, stored: str):
    assert read_text(raw, maximum=100, single_line=single_line) == stored


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("Zoe\x00", "control_characters"),
        ("Zoe\x01", "control_characters"),
        ("\x1b[31mZoe", "control_characters"),
        ("Zoe\x7f", "control_characters"),
        ("Zoe\x9b", "control_characters"),
        ("Zoe\ud800", "control_characters"),
        ("Zoe\ufffe", "control_characters"),
        ("Zoe\U0010ffff", "control_characters"),
        ("Zoe\ufdd0", "control_characters"),
        ("   ", "empty_text"),
        ("x" * (MAX_NAME + 1), "text_too_long"),
    ],
)
def test_what_a_stored_text_may_not_hold(raw: str, code: str):
    with pytest.raises(TextRefused) as refused:
        read_text(raw, maximum=MAX_NAME, required=True)
    assert refused.value.code == code


def test_the_length_is_counted_once_cleaned():
    assert read_text("  " + "x" * MAX_NAME + "  ", maximum=MAX_NAME) == "x" * MAX_NAME


def test_a_match_file_name_follows_the_same_rules():
    document = {
        "format": rules.MATCH_FORMAT,
        "variant": "uruguaya",
        "sides": [{"name": "No\u0301s  otros", "players": [" Ana ", "Beto"]}, {"name": "Ellos"}],
        "hands": [],
    }
    game, problems = rules.read_match(document)
    assert game is not None, problems
    assert game.sides[0].name == "Nós otros"
    assert game.sides[0].players == ("Ana", "Beto")
    document["sides"][1]["name"] = "Ellos\x00"
    game, problems = rules.read_match(document)
    assert game is None
    assert [(p.path, p.code) for p in problems] == [("sides[1].name", "control_characters")]


@given(st.text(max_size=80))
def test_a_stored_text_reads_back_as_itself(raw: str):
    try:
        stored = read_text(raw, maximum=200, single_line=True)
    except TextRefused:
        return
    assert unicodedata.is_normalized("NFC", stored)
    assert all(map(rules.is_text_character, stored))
    assert stored == " ".join(stored.split())
    assert read_text(stored, maximum=200, single_line=True) == stored
