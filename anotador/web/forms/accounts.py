"""The forms of accounts, groups and sharing (CSRF on, as every form)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField
from wtforms import PasswordField
from wtforms import StringField
from wtforms.validators import InputRequired
from wtforms.validators import Length

from anotador.services.accounts import MAX_PASSWORD
from anotador.web.forms.match import Form
from anotador.web.forms.match import TextField


def password_field(label: Any, autocomplete: str) -> PasswordField:
    return PasswordField(
        label,
        [InputRequired(_l("Write the password.")), Length(max=MAX_PASSWORD)],
        render_kw={"autocomplete": autocomplete},
    )


def name_field(label: Any, autocomplete: str = "username") -> TextField:
    return TextField(
        label,
        [InputRequired(_l("Write the name."))],
        render_kw={"autocomplete": autocomplete, "autocapitalize": "none", "spellcheck": "false"},
    )


class SignInForm(Form):
    name = name_field(_l("Account name"))
    password = password_field(_l("Password"), "current-password")


class SignUpForm(Form):
    name = name_field(_l("Account name"))
    password = password_field(_l("Password"), "new-password")
    confirm = password_field(_l("The password again"), "new-password")
    # Only while the installation has no account (see services.accounts.setup_code).
    setup_code = StringField(
        _l("Setup code"),
        render_kw={"inputmode": "numeric", "autocomplete": "one-time-code"},
    )


class PasswordForm(Form):
    current = password_field(_l("Current password"), "current-password")
    new = password_field(_l("New password"), "new-password")
    confirm = password_field(_l("The new password again"), "new-password")


class DeleteAccountForm(Form):
    password = password_field(_l("Password"), "current-password")
    confirm = BooleanField(
        _l("Yes, delete my account and all my matches"),
        [InputRequired(_l("Tick the box to confirm."))],
    )


class GroupForm(Form):
    name = name_field(_l("Name of the group"), "off")


class MemberForm(Form):
    name = name_field(_l("Account name of the new member"), "off")


class ConfirmForm(Form):
    """A button that changes something: only its CSRF token."""
