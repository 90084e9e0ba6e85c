"""a player's membership number: ``player.membership``

A player may carry the membership number of a federation or club (a "tessera",
``docs/tournaments.md``), printed beside the name on the standings and in the exports.
Unique per account (a club gives each member one number); NULL for a player without one.

Revision ID: b8d0f2a4c6e9
Revises: f4c6e8a0b2d4
Create Date: 2026-12-07 12:20:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b8d0f2a4c6e9"
down_revision = "f4c6e8a0b2d4"
branch_labels = None
depends_on = None


def upgrade():
    # No batch: on SQLite a batch that adds a constraint rebuilds the table, and the rebuilt
    # table would lose the matches_version triggers (c9e1f3a5b7d8); a column and a unique
    # index are added in place on both databases.
    op.add_column("player", sa.Column("membership", sa.String(length=20), nullable=True))
    op.create_index(
        "ix_player_owner_id_membership", "player", ["owner_id", "membership"], unique=True
    )


def downgrade():
    op.drop_index("ix_player_owner_id_membership", table_name="player")
    op.drop_column("player", "membership")
