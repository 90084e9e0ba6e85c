"""table confirmations: a tournament table's result confirmed by the other pair (or its director)

A table's match that has ended waits for the pair that did not keep the score (EW, as on a
Bridgemate) to confirm it, or for the director to; ``confirmed_by`` says who ("ew" or
"director") and ``confirmed_at`` when. A confirmed table takes no change from its phones.
The tables of the rounds already closed were final already: they are confirmed by their
director at the migration (their close).

Revision ID: e8a2c4f6b0d3
Revises: d2f4a6c8e0b1
Create Date: 2026-12-06 23:20:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e8a2c4f6b0d3"
down_revision = "d2f4a6c8e0b1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirmed_by", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE round_table SET confirmed_by = 'director', confirmed_at = CURRENT_TIMESTAMP"
        " WHERE ew_pair_id IS NOT NULL AND round_id IN"
        " (SELECT id FROM tournament_round WHERE status = 'closed')"
    )


def downgrade():
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.drop_column("confirmed_at")
        batch_op.drop_column("confirmed_by")
