"""Accounts: sign up (the first one with the setup code), sign in, sign out, the account
page (change the password, download the matches, delete the account)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask import current_app
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import session
from flask import url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import login_user
from flask_login import logout_user
from werkzeug.wrappers import Response

from anotador import services
from anotador.services.accounts import AccountRefused
from anotador.storage.models import User
from anotador.web import access
from anotador.web import device_cookies
from anotador.web.forms.accounts import ConfirmForm
from anotador.web.forms.accounts import DeleteAccountForm
from anotador.web.forms.accounts import PasswordForm
from anotador.web.forms.accounts import SignInForm
from anotador.web.forms.accounts import SignUpForm
from anotador.web.forms.match import FORM_EXPIRED
from anotador.web.views.main import safe_next

bp = Blueprint("accounts", __name__, url_prefix="/cuenta")


def start_session(user: User, message: str | None = None) -> Response:
    """Sign ``user`` in on a new session (a new CSRF token; the opened links stay), then go
    where the sign-in was asked for, saying ``message`` there."""
    target = safe_next(request.args.get("next"))
    opened = {kind: access.links_in(kind) for kind in access.LINK_LISTS}
    session.clear()
    session.update({kind: tokens for kind, tokens in opened.items() if tokens})
    login_user(access.Account.of(user, services.sign_ins.sign_in(user.id)), remember=True)
    if message:
        flash(message, "success")
    return redirect(target, 303)


def expired(form: Any) -> list[str]:
    return [str(FORM_EXPIRED)] if "csrf_token" in form.errors else []


@bp.route("/entrar", methods=["GET", "POST"])
def sign_in() -> Any:
    if access.signed_in() is not None:
        return redirect(safe_next(request.args.get("next")))
    if services.accounts.account_count() == 0:
        return redirect(url_for(".sign_up"))
    form = SignInForm()
    errors: list[str] = []
    status = 200
    if form.validate_on_submit():
        outcome = services.accounts.sign_in(
            form.name.data or "",
            form.password.data or "",
            request.remote_addr,
            device_cookies.presented(),
        )
        if outcome.user is not None:
            return device_cookies.remember(start_session(outcome.user), outcome.user.id)
        errors.append(_("Wrong name or password."))
        status = 401
        if outcome.wait:
            errors = [wait_message(outcome.wait)]
            status = 429
    elif request.method == "POST":
        errors, status = expired(form), 400
    return render_template("accounts/sign_in.html", form=form, errors=errors), status


def wait_message(seconds: int) -> str:
    if seconds >= 120:
        minutes = -(-seconds // 60)
        return ngettext(
            "Too many failed attempts. Try again in %(num)d minute.",
            "Too many failed attempts. Try again in %(num)d minutes.",
            minutes,
        )
    return ngettext(
        "Too many failed attempts. Try again in %(num)d second.",
        "Too many failed attempts. Try again in %(num)d seconds.",
        seconds,
    )


#: The sign-up form's fields: a refusal about anything else is said above the form.
SIGN_UP_FIELDS = ("name", "password", "confirm", "setup_code")


@bp.route("/crear", methods=["GET", "POST"])
def sign_up() -> Any:
    first = services.accounts.account_count() == 0
    open_sign_up = first or current_app.config["SIGN_UP_OPEN"]
    form = SignUpForm()
    errors: dict[str, list[str]] = {}
    general: list[str] = []
    status = 200
    if request.method == "POST" and open_sign_up:
        if form.validate_on_submit():
            try:
                user = create_from(form, first)
            except services.accounts.MustWait as refused:
                general, status = [wait_message(refused.seconds)], 429
            except AccountRefused as refused:
                errors.setdefault(refused.field, []).append(refused.message)
                status = 422
            else:
                response = start_session(user, _("Welcome, %(name)s.", name=user.name))
                return device_cookies.remember(response, user.id)
        else:
            errors = {name: list(found) for name, found in form.errors.items()}
            errors.pop("csrf_token", None)
            general = expired(form)
            status = 400 if general else 422
    elif request.method == "POST":
        status = 403
    for field in set(errors) - set(SIGN_UP_FIELDS):
        general.extend(errors.pop(field))
    page = render_template(
        "accounts/sign_up.html",
        form=form,
        first=first,
        open_sign_up=open_sign_up,
        errors=errors,
        general=general,
    )
    return page, status


def create_from(form: SignUpForm, first: bool) -> User:
    if form.password.data != form.confirm.data:
        raise AccountRefused("confirm", _("The two passwords are different."))
    return services.accounts.sign_up(
        form.name.data or "",
        form.password.data or "",
        request.remote_addr,
        setup_code=(form.setup_code.data or "") if first else None,
    )


@bp.post("/salir")
def sign_out() -> Response:
    form = ConfirmForm()
    if form.validate_on_submit():
        account = access.signed_in()
        if account is not None:  # its cookies, wherever copied, no longer sign anyone in
            services.sign_ins.sign_out(account.sign_in)
        # In this order: logout_user marks the remember cookie for clearing in the session.
        session.clear()
        logout_user()
        flash(_("Signed out."), "success")
    return redirect(url_for("matches.index"), 303)


@bp.post("/salir-de-los-demas")
@access.account_required
def sign_out_others() -> Response:
    """End every sign-in of the account but this browser's."""
    account = access.signed_in()
    assert account is not None
    if ConfirmForm().validate_on_submit():
        services.sign_ins.sign_out_others(account.id, account.sign_in)
        flash(_("Your other devices were signed out."), "success")
    else:
        flash(str(FORM_EXPIRED), "error")
    return redirect(url_for(".show"), 303)


@bp.get("")
@access.account_required
def show() -> Any:
    return render_account(PasswordForm(formdata=None), DeleteAccountForm(formdata=None))


def render_account(
    password: PasswordForm,
    delete: DeleteAccountForm,
    errors: dict[str, list[str]] | None = None,
    status: int = 200,
) -> Any:
    user = access.signed_in()
    assert user is not None
    page = render_template(
        "accounts/show.html",
        user=user,
        password_form=password,
        delete_form=delete,
        errors=errors or {},
        groups=services.groups.groups_of(user.id),
        other_devices=services.sign_ins.count_others(user.id, user.sign_in),
        invitations=services.groups.invitation_count(user.id),
    )
    return page, status


@bp.post("/clave")
@access.account_required
def change_password() -> Any:
    user = access.signed_in_user()
    form = PasswordForm()
    errors: dict[str, list[str]] = {}
    if not form.validate_on_submit():
        errors = {name: list(messages) for name, messages in form.errors.items()}
        errors.setdefault("new", []).extend(expired(form))
        return render_account(form, DeleteAccountForm(formdata=None), errors, 422)
    try:
        if form.new.data != form.confirm.data:
            raise AccountRefused("confirm", _("The two passwords are different."))
        services.accounts.change_password(user, form.current.data or "", form.new.data or "")
    except AccountRefused as refused:
        errors[refused.field] = [refused.message]
        return render_account(form, DeleteAccountForm(formdata=None), errors, 422)
    return start_session(user, _("Password changed. Your other devices were signed out."))


@bp.post("/borrar")
@access.account_required
def delete() -> Any:
    user = access.signed_in_user()
    form = DeleteAccountForm()
    errors: dict[str, list[str]] = {}
    if form.validate_on_submit():
        try:
            if not services.accounts.password_matches(user, form.password.data or ""):
                raise AccountRefused("password", _("That is not your password."))
            count = services.accounts.remove_account(user)
        except AccountRefused as refused:
            errors[refused.field] = [refused.message]
        else:
            logout_user()
            session.clear()
            flash(
                ngettext(
                    "Account deleted, with its %(num)d match.",
                    "Account deleted, with its %(num)d matches.",
                    count,
                ),
                "success",
            )
            return redirect(url_for("matches.index"), 303)
    else:
        errors = {name: list(messages) for name, messages in form.errors.items()}
        errors.setdefault("confirm", []).extend(expired(form))
    return render_account(PasswordForm(formdata=None), form, errors, 422)
