"""A new installation as a family meets it: the first account with the setup code, a match,
its table link on a second phone that scores, its spectator link on a third that only reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from phone import Table
from playwright.sync_api import Page
from playwright.sync_api import expect

from anotador.services.accounts import setup_code

pytestmark = pytest.mark.browser

HAND = {
    "Nosotros": {"Limpias": 2, "Sucias": 1, "Puntos en mesa": 400},
    "Ellos": {"Sucias": 1, "Puntos en mesa": 250, "Puntos en mano": 60},
}


def test_first_account_table_link_and_spectator(
    phones: Callable[..., Page], new_installation: Any, shot: Any
):
    server = new_installation
    owner, table_phone, spectator = (phones(server.url) for _ in range(3))
    owner.goto("/")
    owner.get_by_role("link", name="Crear una cuenta").tap()
    expect(owner.get_by_role("heading", name="Crear una cuenta")).to_be_visible()
    owner.get_by_label("Nombre de la cuenta").fill("Marta")
    owner.get_by_label("Contraseña", exact=True).fill("la clave de casa")
    owner.get_by_label("La contraseña otra vez").fill("la clave de casa")
    owner.get_by_label("Código de instalación").fill("111 111 111")
    owner.get_by_role("button", name="Crear la cuenta").tap()
    expect(owner.get_by_text("Ese no es el código de instalación")).to_be_visible()
    expect(owner.get_by_label("Nombre de la cuenta")).to_have_value("Marta")
    owner.get_by_label("Contraseña", exact=True).fill("la clave de casa")
    owner.get_by_label("La contraseña otra vez").fill("la clave de casa")
    owner.get_by_label("Código de instalación").fill(setup_code("browser-tests"))
    shot("sign-up", of=owner)
    owner.get_by_role("button", name="Crear la cuenta").tap()
    expect(owner.get_by_text("Bienvenido/a, Marta.")).to_be_visible()

    match_url = Table(owner, shot).new_match()
    owner.get_by_role("link", name="Compartir con la mesa o con espectadores").tap()
    for section in ("Enlace de mesa", "Enlace de espectador"):
        owner.locator(".share-link", has_text=section).get_by_role(
            "button", name="Crear el enlace"
        ).tap()
    links = owner.locator(".share-url")
    expect(links).to_have_count(2)
    # The links name this machine's network address (the test server listens on loopback).
    table_link, spectator_link = (urlsplit(links.nth(i).input_value()).path for i in (0, 1))
    assert table_link != spectator_link
    shot("share", of=owner)

    # The second phone scores through the table link, without an account.
    table_phone.goto(table_link)
    expect(table_phone).to_have_url(match_url)
    table = Table(table_phone, shot)
    table.record_hand("Nosotros", HAND)
    table.expect_totals({"Nosotros": 1800, "Ellos": 490})
    expect(table_phone.get_by_text("Abandonar partida")).to_have_count(0)

    # The third phone only reads.
    spectator.goto(spectator_link)
    expect(spectator).to_have_url(match_url)
    Table(spectator, shot).expect_totals({"Nosotros": 1800, "Ellos": 490})
    expect(spectator.get_by_role("link", name="Anotar mano")).to_have_count(0)
    expect(spectator.get_by_text("Deshacer última mano")).to_have_count(0)
    shot("spectator", of=spectator)
    spectator.goto(match_url + "/manos/nueva")
    expect(spectator.get_by_role("heading", name="Entrar")).to_be_visible()

    owner.goto(match_url)
    Table(owner, shot).expect_totals({"Nosotros": 1800, "Ellos": 490})
    assert not server.errors, server.errors
