"""The director's buttons that cannot simply be taken back (close a round, withdraw a pair,
finish the tournament), each behind its confirmation.

Without JavaScript the button's POST, without a ``confirmed`` field, answers a small page:
what will happen, the same request again with ``confirmed`` (its confirm button) and a way
back; nothing changes. With JavaScript, ``static/js/confirm.js`` asks with the browser's own
dialog (the form's ``data-confirm``) and sends ``confirmed`` at once.
"""

from __future__ import annotations

from typing import Any

from flask import abort
from flask import request
from flask import url_for

from anotador.tournaments.web.words import QUESTIONS
from anotador.tournaments.web.words import render
from anotador.web import inputs


def asked(kind: str, back: str, **names: Any) -> Any | None:
    """None when the request carries ``confirmed``; else the confirmation page (nothing
    changed). ``back``: where its way back leads."""
    try:
        confirmed = inputs.choice(request.form.get("confirmed"), ("1",))
    except inputs.BadInput as bad:
        abort(400, str(bad))
    if confirmed is not None:
        return None
    title, what, button = QUESTIONS[kind]
    assert request.endpoint is not None
    fields = [
        (key, value)
        for key, value in request.form.items(multi=True)
        if key not in ("csrf_token", "confirmed")
    ]
    return render(
        "tournaments/confirm.html",
        title=str(title) % names,
        what=what,
        button=button,
        action=url_for(request.endpoint, **(request.view_args or {})),
        fields=fields,
        back=back,
    )
