"""WTForms' own messages come in the request's language, their catalog read once."""

from __future__ import annotations

import pytest
from flask import Flask

from anotador.web.forms.accounts import SignInForm
from anotador.web.forms.hand import HandForm
from anotador.words import i18n


@pytest.mark.parametrize(
    ("language", "required"),
    [("es", "Este campo es obligatorio."), ("it", "Questo campo è obbligatorio.")],
)
def test_a_form_says_wtforms_messages_in_the_request_language(
    app: Flask, language: str, required: str
):
    with app.test_request_context(headers={"Accept-Language": language}):
        form = SignInForm(meta={"csrf": False})
        assert form.meta.get_translations(form).gettext("This field is required.") == required
        assert form.name.gettext("This field is required.") == required


def test_the_catalog_is_read_once_per_language(app: Flask):
    i18n.wtforms_catalog.cache_clear()
    for _ in range(3):
        with app.test_request_context(headers={"Accept-Language": "es"}):
            form = SignInForm(meta={"csrf": False})
            form.name.gettext("This field is required.")
    assert i18n.wtforms_catalog.cache_info().misses == 1
    assert isinstance(HandForm.Meta().get_translations(None), i18n.FormMessages)
