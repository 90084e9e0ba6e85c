"""matches, sides, seats, players and hands

Revision ID: 6535c513ee05
Revises:
Create Date: 2026-11-30 03:21:39.611453

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "6535c513ee05"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=20), nullable=False),
        sa.Column("layout", sa.String(length=10), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("start_scores", sa.JSON(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("hand_count", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "status IN ('ongoing', 'finished', 'abandoned')", name=op.f("ck_match_status")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
    )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_status"), ["status"], unique=False)
        batch_op.create_index("ix_match_updated_at", ["updated_at"], unique=False)

    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("name_key", name=op.f("uq_player_name_key")),
    )
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("inputs", sa.JSON(), nullable=False),
        sa.Column("request_key", sa.String(length=36), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_hand_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_hand_match_id_number")),
        sa.UniqueConstraint("match_id", "request_key", name=op.f("uq_hand_match_id_request_key")),
    )
    op.create_table(
        "side",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_side_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_side")),
        sa.UniqueConstraint("match_id", "position", name=op.f("uq_side_match_id_position")),
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("side_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_seat_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["side_id"], ["side.id"], name=op.f("fk_seat_side_id_side"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat")),
        sa.UniqueConstraint("side_id", "seat", name=op.f("uq_seat_side_id_seat")),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_player_id"), ["player_id"], unique=False)


def downgrade():
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_player_id"))

    op.drop_table("seat")
    op.drop_table("side")
    op.drop_table("hand")
    op.drop_table("player")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index("ix_match_updated_at")
        batch_op.drop_index(batch_op.f("ix_match_status"))

    op.drop_table("match")
