"""Reading untrusted JSON values of a tournament file: each check returns the value or None
and notes a located problem."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from anotador.rules.paths import join
from anotador.rules.problems import MESSAGES as TEXT_MESSAGES
from anotador.rules.reading import is_int
from anotador.rules.text import TextRefused
from anotador.tournaments.limits import read_name
from anotador.tournaments.problems import Problem

ROOT = "$"


class Checker:
    """Collects the problems of one tournament file while its values are read."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, code: str, **params: object) -> None:
        self.problems.append(Problem(path, code, params))

    def mapping(
        self, value: object, path: str, allowed: Iterable[str], required: Iterable[str] = ()
    ) -> dict[str, Any] | None:
        """An object: every key it may hold is in ``allowed``, the ``required`` ones present."""
        if not isinstance(value, dict):
            self.add(path, "type", expected="an object")
            return None
        allowed = tuple(allowed)
        for key in value:
            if key not in allowed:
                self.add(join(path, str(key)), "unknown_key")
        for key in required:
            if key not in value:
                self.add(join(path, key), "missing")
        return value

    def integer(self, value: object, path: str, low: int, high: int) -> int | None:
        if not is_int(value):
            self.add(path, "type", expected="a whole number")
            return None
        assert isinstance(value, int)
        if not low <= value <= high:
            self.add(path, "value", detail=f"must be from {low} to {high}")
            return None
        return value

    def text(self, value: object, path: str, required: bool = True) -> str | None:
        """A text; a ``required`` one must hold more than spaces."""
        if not isinstance(value, str):
            self.add(path, "type", expected="a text")
            return None
        if required and not value.strip():
            self.add(path, "value", detail="must not be empty")
            return None
        return value

    def name(self, value: object, path: str, required: bool = True) -> str | None:
        """A name (:func:`anotador.tournaments.limits.read_name`), kept as written."""
        text = self.text(value, path, required=False)
        if text is None:
            return None
        try:
            read_name(text, required=required)
        except TextRefused as refused:
            self.add(path, "value", detail=refusal(refused))
            return None
        return text

    def boolean(self, value: object, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.add(path, "type", expected="true or false")
            return None
        return value

    def array(self, value: object, path: str) -> list[Any] | None:
        if not isinstance(value, list):
            self.add(path, "type", expected="a list")
            return None
        return value


def refusal(refused: TextRefused) -> str:
    """A refused text's reason as a ``value`` problem's detail: "must not be empty"."""
    sentence = TEXT_MESSAGES[refused.code].format(**refused.params).rstrip(".")
    return sentence[:1].lower() + sentence[1:]
