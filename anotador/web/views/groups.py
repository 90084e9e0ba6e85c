"""Groups: a family or a club. Its members see its matches; its owner invites members and
removes them; an invited account accepts or declines."""

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

from anotador import services
from anotador.services.accounts import AccountRefused
from anotador.storage.models import Group
from anotador.web import access
from anotador.web.forms.accounts import ConfirmForm
from anotador.web.forms.accounts import GroupForm
from anotador.web.forms.accounts import MemberForm
from anotador.web.forms.match import FORM_EXPIRED

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
                flash(_("Group created. Invite its members."), "success")
                return redirect(url_for(".show", group_id=group.id), 303)
        else:
            errors = form_errors(form)
    page = render_template(
        "groups/index.html",
        form=form,
        errors=errors,
        groups=services.groups.groups_of(current_id()),
        invitations=services.groups.invitations_of(current_id()),
        confirm=ConfirmForm(formdata=None),
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
        invited=services.groups.invited_to(group.id),
        confirm=ConfirmForm(formdata=None),
    )
    return page, status


@bp.post("/<id:group_id>/invitaciones")
@access.account_required
def invite(group_id: int) -> Any:
    group = group_or_404(group_id, owned=True)
    form = MemberForm()
    if not form.validate_on_submit():
        return render_group(group, form, form_errors(form), 422)
    try:
        user = services.groups.invite(group, current_id(), form.name.data or "")
    except AccountRefused as refused:
        return render_group(group, form, [refused.message], 422)
    flash(_("%(name)s is invited: they join once they accept.", name=user.name), "success")
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.post("/<id:group_id>/invitaciones/<id:invitee_id>/quitar")
@access.account_required
def withdraw(group_id: int, invitee_id: int) -> Response:
    group = group_or_404(group_id, owned=True)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
    elif not services.groups.withdraw(group, invitee_id):
        abort(404)
    else:
        flash(_("Invitation withdrawn."), "success")
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.post("/<id:group_id>/aceptar")
@access.account_required
def accept(group_id: int) -> Response:
    """The invited account joins the group."""
    if services.groups.invitation_of(current_id(), group_id) is None:
        abort(404)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
        return redirect(url_for(".index"), 303)
    try:
        group = services.groups.accept(current_id(), group_id)
    except AccountRefused as refused:
        flash(refused.message, "error")
        return redirect(url_for(".index"), 303)
    if group is None:
        abort(404)
    flash(_("You joined the group."), "success")
    return redirect(url_for(".show", group_id=group.id), 303)


@bp.post("/<id:group_id>/rechazar")
@access.account_required
def decline(group_id: int) -> Response:
    """The invited account says no: the group shows nowhere."""
    if services.groups.invitation_of(current_id(), group_id) is None:
        abort(404)
    if not ConfirmForm().validate_on_submit():
        flash(str(FORM_EXPIRED), "error")
    elif services.groups.decline(current_id(), group_id):
        flash(_("Invitation declined."), "success")
    return redirect(url_for(".index"), 303)


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
