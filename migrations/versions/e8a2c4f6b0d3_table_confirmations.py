"""table confirmations and rounds of every hand: a tournament table's result confirmed by the
other pair (or its director); a table's match that plays all its round's hands

A table's match that has ended waits for the pair that did not keep the score (EW, as on a
Bridgemate) to confirm it, or for the director to; ``confirmed_by`` says who ("ew" or
"director") and ``confirmed_at`` when. A confirmed table takes no change from its phones.
The tables of the rounds already closed were final already: they are confirmed by their
director at the migration (their close).

``match.play_every_hand`` (the match file's key): with ``hand_limit``, the target does not end
the match first (a round of N smazzate whose director set no target). The tables made before
keep the rule they were made with (false).

Revision ID: e8a2c4f6b0d3
Revises: e7b9d1f3a5c7
Create Date: 2026-12-06 23:20:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e8a2c4f6b0d3"
down_revision = "e7b9d1f3a5c7"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("confirmed_by", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
    # Not in a batch: on SQLite a batch may rebuild the table, and its triggers
    # (``c9e1f3a5b7d8``) name it; ADD COLUMN with a default needs no rebuild.
    op.add_column(
        "match",
        sa.Column("play_every_hand", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.execute(
        "UPDATE round_table SET confirmed_by = 'director', confirmed_at = CURRENT_TIMESTAMP"
        " WHERE ew_pair_id IS NOT NULL AND round_id IN"
        " (SELECT id FROM tournament_round WHERE status = 'closed')"
    )


def downgrade():
    op.drop_column("match", "play_every_hand")
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.drop_column("confirmed_at")
        batch_op.drop_column("confirmed_by")
