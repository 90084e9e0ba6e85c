"""signed-in browsers and group invitations

A browser's sign-in is a row (``signed_in``) named in its session and remember cookies, so
signing out ends it on the server. Joining a group is an invitation the account accepts
(``invitation``); the memberships stored before stay, accepted.

Cookies made before this revision name no row: every browser signs in once more.

Revision ID: e5a7c9b1d3f2
Revises: d5e7f9a2b4c6
Create Date: 2026-12-03 12:50:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5a7c9b1d3f2"
down_revision = "d5e7f9a2b4c6"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "signed_in",
        sa.Column("id", sa.String(length=43), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["account.id"],
            name=op.f("fk_signed_in_user_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signed_in")),
    )
    op.create_index(op.f("ix_signed_in_user_id"), "signed_in", ["user_id"])
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("invited_by_id", sa.Integer(), nullable=False),
        sa.Column("declined", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["account_group.id"],
            name=op.f("fk_invitation_group_id_account_group"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["account.id"],
            name=op.f("fk_invitation_user_id_account"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["invited_by_id"],
            ["account.id"],
            name=op.f("fk_invitation_invited_by_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invitation")),
        sa.UniqueConstraint("group_id", "user_id", name=op.f("uq_invitation_group_id_user_id")),
    )
    op.create_index(op.f("ix_invitation_user_id"), "invitation", ["user_id"])
    op.create_index(op.f("ix_invitation_invited_by_id"), "invitation", ["invited_by_id"])


def downgrade():
    op.drop_index(op.f("ix_invitation_invited_by_id"), table_name="invitation")
    op.drop_index(op.f("ix_invitation_user_id"), table_name="invitation")
    op.drop_table("invitation")
    op.drop_index(op.f("ix_signed_in_user_id"), table_name="signed_in")
    op.drop_table("signed_in")
