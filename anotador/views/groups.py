"""Groups: a family or a club. Its members see its matches; its owner adds and removes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import render_template
from flask import url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from anotador import access
from anotador import services
from anotador.account_forms import ConfirmForm
from anotador.account_forms import GroupForm
from anotador.account_forms import MemberForm
from anotador.forms import FORM_EXPIRED
from anotador.models import Group
from anotador.services.accounts import AccountRefused

bp = Blueprint("groups", __name__, url_prefix="/grupos")


def current_id() -> int:
    identity = access.user_id()
    assert identity is not None  # account_required
    return identity


def group_or_404(group_id: int, *, owned: bool = False) -> Group:
    """A group of the signed-in account (one it owns, with ``owned``); else a 404."""
    group = services.groups.group_for(current_id(), group_id)
    if group is None or (owned and group.owner_id != current_id()):
        abort(404)
    return group


def form_errors(form: Any) -> list[str]:
    if "csrf_token" in form.errors:
        return [str(FORM_EXPIRED)]
    return [message for messages in form.errors.values() for message in messages]


@bp.route("", methods=["GET", "POST"])
@access.account_required
def index() -> Any:
    form = GroupForm()
    errors: list[str] = []
    if form.is_submitted():
        if form.validate():
            try:
                group = services.groups.create_group(current_id(), form.name.data or "")
            except AccountRefused as refused:
                errors.append(refused.message)
            else:
                flash(_("Group created. Add its members."), "success")
                return redirect(url_for(".show", group_id=group.id), 303)
        else:
            errors = form_errors(form)
    page = render_template(
        "groups/index.html",
        form=form,
        errors=errors,
        groups=services.groups.groups_of(current_id()),
    )
    return page, 422 if errors else 200


@bp.get("/<id:group_id>")
@access.account_required
def show(group_id: int) -> Any:
    return render_group(group_or_404(group_id), MemberForm(formdata=None))


def render_group(
    group: Group, form: MemberForm, errors: Sequence[str] = (), status: int = 200
) -> Any:
    page = render_template(
        "groups/show.html",
        group=group,
        form=form,
        errors=errors,
        owner=group.owner_id == current_id(),
        confirm=ConfirmForm(formdata=None),
    )
    return page, status


@bp.post("/<id:group_id>/miembros")
@access.account_required
def add_member(group_id: int) -> Any:
    group = group_or_404(group_id, owned=True)
    form = MemberForm()
    if not form.validate_on_submit():
        return render_group(group, form, form_errors(form), 422)
    try:
        user = services.groups.add_member(group, form.name.data or "")
    except AccountRefused as refused:
        return render_group(group, form, [refused.message], 422)
    flash(_("%(name)s is now in the group.", name=user.name), "success")
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.post("/<id:group_id>/miembros/<id:user_id>/quitar")
@access.account_required
def remove_member(group_id: int, user_id: int) -> Response:
    """The owner takes a member out; a member leaves (their own id)."""
    group = group_or_404(group_id)
    leaving = user_id == current_id()
    if not leaving and group.owner_id != current_id():
        abort(404)
    if not any(membership.user_id == user_id for membership in group.memberships):
        abort(404)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
    elif not services.groups.remove_member(group, user_id):
        flash(_("The owner of a group cannot leave it: delete it instead."), "error")
    elif leaving:
        flash(_("You left the group."), "success")
        return redirect(url_for(".index"), 303)
    else:
        flash(_("Member removed."), "success")
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.post("/<id:group_id>/borrar")
@access.account_required
def delete(group_id: int) -> Response:
    group = group_or_404(group_id, owned=True)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
        return redirect(url_for(".show", group_id=group.id), 303)
    services.groups.delete_group(group)
    flash(_("Group deleted. Its matches stay with their owners."), "success")
    return redirect(url_for(".index"), 303)
