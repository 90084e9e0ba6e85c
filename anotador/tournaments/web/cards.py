"""A round's table cards (PDF, four to a page): each table's number, its two pairs, the QR
code of its table link (the phones at the table score through it), the variant and the
round's hands. Drawn by the app's PDF machinery (:func:`anotador.sheets.render.render_pages`)."""

from __future__ import annotations

from typing import Any

from flask import url_for

from anotador.commands.addresses import qr_svg
from anotador.sheets.render import render_pages
from anotador.tournaments.web.models import Round


def card_rows(round_row: Round) -> list[dict[str, Any]]:
    """The cards of a started round's tables, by table number (a bye has none)."""
    cards = []
    for table in sorted(round_row.tables, key=lambda t: t.number or 0):
        match = table.match
        if table.ew_pair is None or match is None or not match.table_token:
            continue
        link = url_for("sharing.open_link", token=match.table_token, _external=True)
        cards.append(
            {"number": table.number, "ns": table.ns_pair, "ew": table.ew_pair, "link": link}
        )
    return cards


def table_cards(round_row: Round, lang: str) -> bytes:
    cards = card_rows(round_row)
    qr = {card["link"]: qr_svg(card["link"]) for card in cards}
    context = {"tournament": round_row.tournament, "round": round_row, "cards": cards, "qr": qr}
    return render_pages("tournaments/cards.html", context, lang=lang)
