"""tournaments: the one-time key of the form that created each one

A new tournament's form carries a one-time key (as a hand's form does); the tournament keeps
it, unique per account, so that the same form posted twice at once (a double tap, two tabs)
creates one tournament: the second insert meets the constraint and is answered with the
first. Tournaments made before (or restored, or by a script) have none: NULLs never clash.

Revision ID: e7b9d1f3a5c7
Revises: d2f4a6c8e0b1
Create Date: 2026-12-06 23:20:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e7b9d1f3a5c7"
down_revision = "d2f4a6c8e0b1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.add_column(sa.Column("request_key", sa.String(length=36), nullable=True))
        batch_op.create_unique_constraint(
            batch_op.f("uq_tournament_owner_id_request_key"), ["owner_id", "request_key"]
        )


def downgrade():
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_tournament_owner_id_request_key"), type_="unique")
        batch_op.drop_column("request_key")
