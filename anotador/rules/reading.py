"""Reading untrusted JSON-like values: every shape error becomes a located Problem."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from typing import TypeVar

from anotador.rules.paths import join
from anotador.rules.problems import Problem
from anotador.rules.text import MAX_TEXT
from anotador.rules.text import TextRefused
from anotador.rules.text import read_text
from anotador.rules.variant import MAX_COUNT
from anotador.rules.variant import MAX_POINTS
from anotador.rules.variant import InputField

T = TypeVar("T")


def is_int(value: object) -> bool:
    """JSON integers only: Python's bool is an int, a JSON 5.0 is not."""
    return isinstance(value, int) and not isinstance(value, bool)


def same_choice(value: object, choices: Iterable[object]) -> bool:
    """``value`` is one of ``choices`` with the same type (so false is not 0)."""
    return any(type(value) is type(choice) and value == choice for choice in choices)


class Reader:
    """Collects problems while checking values; each check returns the value or None."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, path: str, code: str, **params: object) -> None:
        self.problems.append(Problem(path, code, params))

    def mapping(self, value: object, path: str, allowed: Iterable[str]) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.error(path or "$", "wrong_type", expected="an object")
            return None
        allowed = set(allowed)
        for key in value:
            if key not in allowed:
                self.error(join(path, str(key)), "unknown_key")
        return value

    def integer(
        self,
        value: object,
        path: str,
        minimum: int | None = None,
        maximum: int | None = None,
        multiple_of_5: bool = False,
    ) -> int | None:
        if not is_int(value):
            self.error(path, "wrong_type", expected="a whole number")
            return None
        assert isinstance(value, int)
        if minimum is not None and value < minimum:
            self.error(path, "below_minimum", minimum=minimum)
        elif maximum is not None and value > maximum:
            self.error(path, "above_maximum", maximum=maximum)
        elif multiple_of_5 and value % 5:
            self.error(path, "not_multiple_of_5")
        else:
            return value
        return None

    def boolean(self, value: object, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.error(path, "wrong_type", expected="true or false")
            return None
        return value

    def text(
        self,
        value: object,
        path: str,
        required: bool = False,
        maximum: int = MAX_TEXT,
        single_line: bool = False,
    ) -> str | None:
        """The text as it is stored (:func:`anotador.rules.text.read_text`)."""
        if not isinstance(value, str):
            self.error(path, "wrong_type", expected="a text")
            return None
        try:
            return read_text(value, maximum=maximum, required=required, single_line=single_line)
        except TextRefused as refused:
            self.error(path, refused.code, **refused.params)
            return None

    def choice(self, value: object, path: str, choices: tuple[T, ...]) -> T | None:
        for choice in choices:
            if same_choice(value, (choice,)):
                return choice
        shown = ", ".join("null" if c is None else str(c) for c in choices)
        self.error(path, "not_in_choices", choices=shown)
        return None

    def field(self, spec: InputField, value: object, path: str) -> Any:
        """A per-side or per-hand input of a variant, by its kind."""
        if spec.kind == "count":
            return self.integer(value, path, 0, MAX_COUNT)
        if spec.kind == "points":
            return self.integer(value, path, 0, MAX_POINTS, multiple_of_5=True)
        if spec.kind == "signed_points":
            return self.integer(value, path, -MAX_POINTS, MAX_POINTS, multiple_of_5=True)
        if spec.kind == "flag":
            return self.boolean(value, path)
        if spec.kind == "text":
            return self.text(value, path)
        choices = (*spec.choices, None) if spec.nullable else spec.choices
        return self.choice(value, path, choices)
