"""names by their look, one first account, forgotten throttle keys

``account.name_skeleton`` (unique): what a name looks like (UTS #39's skeleton, hashed:
``anotador.storage.names``), so no two accounts get names a person cannot tell apart. Existing
accounts get theirs; when two of them already look alike, the older keeps it and the other
none. ``account.first_account`` (unique, True or NULL): the account that claimed the
installation, so two first sign-ups at once cannot both become its administrator; the
oldest administrator is it. ``sign_in_failure.last_failure`` is indexed: forgotten keys are
deleted along it.

Revision ID: e5f7a9b1c3d5
Revises: e5a7c9b1d3f2
Create Date: 2026-12-03 13:20:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5f7a9b1c3d5"
down_revision = "e5a7c9b1d3f2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("first_account", sa.Boolean(), nullable=True))
    fill(op.get_bind())
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.create_unique_constraint(batch_op.f("uq_account_name_skeleton"), ["name_skeleton"])
        batch_op.create_unique_constraint(batch_op.f("uq_account_first_account"), ["first_account"])
    op.create_index(op.f("ix_sign_in_failure_last_failure"), "sign_in_failure", ["last_failure"])


def fill(connection):
    # The app's own reading of a name's look: the same as a sign-up computes.
    from anotador.storage.names import skeleton_digest

    account = sa.table(
        "account",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("is_admin", sa.Boolean),
        sa.column("name_skeleton", sa.String),
        sa.column("first_account", sa.Boolean),
    )
    seen = set()
    for row in connection.execute(sa.select(account.c.id, account.c.name).order_by(account.c.id)):
        digest = skeleton_digest(row.name)
        if digest not in seen:
            seen.add(digest)
            connection.execute(
                account.update().where(account.c.id == row.id).values(name_skeleton=digest)
            )
    first = connection.scalar(
        sa.select(account.c.id).where(account.c.is_admin).order_by(account.c.id).limit(1)
    )
    if first is not None:
        connection.execute(account.update().where(account.c.id == first).values(first_account=True))


def downgrade():
    op.drop_index(op.f("ix_sign_in_failure_last_failure"), table_name="sign_in_failure")
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_account_first_account"), type_="unique")
        batch_op.drop_constraint(batch_op.f("uq_account_name_skeleton"), type_="unique")
        batch_op.drop_column("first_account")
        batch_op.drop_column("name_skeleton")
