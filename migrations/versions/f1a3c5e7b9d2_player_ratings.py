"""player ratings

Every player's rating from the account's finished matches (anotador/ratings): the steps of
each counted match and each player's current rating. Derived data: `anotador ratings --rebuild`
fills them for the matches stored before this revision.

Revision ID: f1a3c5e7b9d2
Revises: e5f7a9b1c3d5
Create Date: 2026-12-03 16:17:47.268748

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f1a3c5e7b9d2"
down_revision = "e5f7a9b1c3d5"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_rating",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["account.id"],
            name=op.f("fk_player_rating_owner_id_account"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_player_rating_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_rating")),
    )
    with op.batch_alter_table("player_rating", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_rating_owner_id"), ["owner_id"], unique=False)

    op.create_table(
        "rating_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Boolean(), nullable=False),
        sa.Column("sides", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["match.id"],
            name=op.f("fk_rating_step_match_id_match"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["account.id"],
            name=op.f("fk_rating_step_owner_id_account"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_rating_step_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_step")),
        sa.UniqueConstraint(
            "match_id", "player_id", name=op.f("uq_rating_step_match_id_player_id")
        ),
    )
    with op.batch_alter_table("rating_step", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rating_step_owner_id_played_on_match_id",
            ["owner_id", "played_on", "match_id"],
            unique=False,
        )
        batch_op.create_index(
            "ix_rating_step_player_id_played_on_match_id",
            ["player_id", "played_on", "match_id"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("rating_step", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_step_player_id_played_on_match_id")
        batch_op.drop_index("ix_rating_step_owner_id_played_on_match_id")

    op.drop_table("rating_step")
    with op.batch_alter_table("player_rating", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_rating_owner_id"))

    op.drop_table("player_rating")
