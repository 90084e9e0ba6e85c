"""a match points to its rematch

A finished match's table and spectator links lead to its rematch: the match keeps the id of
the rematch made from it, and the phones that opened its links follow there.

Revision ID: d5e7f9a2b4c6
Revises: c4d2e6f8a1b3
Create Date: 2026-12-03 12:50:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d5e7f9a2b4c6"
down_revision = "c4d2e6f8a1b3"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_match_rematch_id_match"),
            "match",
            ["rematch_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_match_rematch_id_match"), type_="foreignkey")
        batch_op.drop_column("rematch_id")
