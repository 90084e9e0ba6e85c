"""Whatever the file holds, both commands answer one JSON document with status 0 or 1: any
value put anywhere in a valid file never ends in a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from tournament_cases import run

EXAMPLE = json.loads((Path(__file__).resolve().parent / "worked_example.json").read_text("utf-8"))

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**7), 10**7)
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.sampled_from(["A", "B", "E", "fibur-3", "burraco", "4p", "danese", "\ud800"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` (keys of objects, positions of lists)."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += places(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += places(child, (*path, index))
    return found


PLACES = places(EXAMPLE)[1:]


def put(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(document))
    holder = copy
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return copy


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLACES), JSON, st.sampled_from(["standings", "pair"]))
def test_any_value_anywhere_gets_an_answer(path: tuple[Any, ...], value: Any, command: str):
    result = run(command, json.dumps(put(EXAMPLE, path, value)))

    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1)
    answer = json.loads(result.stdout)
    if result.exit_code == 1:
        assert answer["problems"]
        assert all(p["path"].startswith("$") for p in answer["problems"])
