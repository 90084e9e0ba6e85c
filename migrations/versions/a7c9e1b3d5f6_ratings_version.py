"""ratings version

A counter per account that every change to its ratings (and to its players' names) bumps:
the ratings pages keep what they draw under it. Every account with ratings starts at 1
(later first versions are drawn at random: ratings.store.touch).

Revision ID: a7c9e1b3d5f6
Revises: f3b5d7e9a1c4
Create Date: 2026-12-03 21:45:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a7c9e1b3d5f6"
down_revision = "f3b5d7e9a1c4"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "ratings_version",
        sa.Column("owner_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["account.id"],
            name=op.f("fk_ratings_version_owner_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("owner_id", name=op.f("pk_ratings_version")),
    )
    # An account with ratings has a version (0 means none): what was rated before this.
    op.execute(
        "INSERT INTO ratings_version (owner_id, version) SELECT DISTINCT owner_id, 1"
        " FROM player_rating WHERE owner_id IS NOT NULL"
    )


def downgrade():
    op.drop_table("ratings_version")
