"""a table calls the director: ``round_table.called_at``

A tournament table's phone may call the director (``docs/tournaments.md``, "The live round"):
``called_at`` is when its open call was made, None when it has none (never called, or the
director marked the call answered). One column, so a table has at most one open call.

Revision ID: f4c6e8a0b2d4
Revises: e8a2c4f6b0d3
Create Date: 2026-12-07 08:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f4c6e8a0b2d4"
down_revision = "e8a2c4f6b0d3"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("called_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.drop_column("called_at")
