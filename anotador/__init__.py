"""Anotador de Canasta: a scorekeeping companion for tabletop Canasta."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None, **kwargs: Any) -> Flask:
    """Build the web app (see :func:`anotador.web.app.create_app`).

    Flask is imported here, not at package import, so that ``anotador score`` and the rules
    engine never load the web stack.
    """
    from anotador.web.app import create_app as factory

    return factory(test_config, **kwargs)
