"""a round's clock, and a table's call answered

The director starts a round's clock (``docs/tournaments.md``, "The round clock"):
``tournament_round.clock_minutes`` is the minutes it was last started with and
``clock_ends_at`` when it runs out (None: not running). ``round_table.answered_at`` is when
the director marked the table's last call answered, so that its phones say the director is
coming.

Revision ID: c6f1d3a9e7b2
Revises: b8d0f2a4c6e9
Create Date: 2026-12-07 12:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c6f1d3a9e7b2"
down_revision = "b8d0f2a4c6e9"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournament_round", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock_minutes", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("clock_ends_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.drop_column("answered_at")
    with op.batch_alter_table("tournament_round", schema=None) as batch_op:
        batch_op.drop_column("clock_ends_at")
        batch_op.drop_column("clock_minutes")
