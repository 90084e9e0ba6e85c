"""tournaments: their pairs, rounds, tables and the director's changes; a match's hand limit

A tournament's table is an ordinary match that ``round_table.match_id`` points to; a round of
a fixed number of hands gives its matches ``match.hand_limit`` (they end after those hands).

Revision ID: f3b5d7e9a1c4
Revises: f1a3c5e7b9d2
Create Date: 2026-12-03 16:16:43.560984

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f3b5d7e9a1c4"
down_revision = "f1a3c5e7b9d2"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.Column("variant", sa.String(length=20), nullable=False),
        sa.Column("layout", sa.String(length=10), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("hands_per_round", sa.Integer(), nullable=True),
        sa.Column("scale", sa.JSON(), nullable=False),
        sa.Column("system", sa.String(length=20), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("bye_vp", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("spectator_token", sa.String(length=43), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('registering', 'playing', 'finished')",
            name=op.f("ck_tournament_tournament_status"),
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["account.id"],
            name=op.f("fk_tournament_owner_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
        sa.UniqueConstraint("spectator_token", name=op.f("uq_tournament_spectator_token")),
    )
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_owner_id"), ["owner_id"], unique=False)

    op.create_table(
        "tournament_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("change", sa.String(length=40), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["account.id"],
            name=op.f("fk_tournament_change_account_id_account"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_change_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_change")),
    )
    with op.batch_alter_table("tournament_change", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_change_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_pair",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("first_player_id", sa.Integer(), nullable=False),
        sa.Column("second_player_id", sa.Integer(), nullable=False),
        sa.Column("club", sa.String(length=60), nullable=False),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_player_id"],
            ["player.id"],
            name=op.f("fk_tournament_pair_first_player_id_player"),
        ),
        sa.ForeignKeyConstraint(
            ["second_player_id"],
            ["player.id"],
            name=op.f("fk_tournament_pair_second_player_id_player"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_pair_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_pair")),
        sa.UniqueConstraint(
            "tournament_id", "position", name=op.f("uq_tournament_pair_tournament_id_position")
        ),
    )
    with op.batch_alter_table("tournament_pair", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_pair_first_player_id"), ["first_player_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_tournament_pair_second_player_id"), ["second_player_id"], unique=False
        )

    op.create_table(
        "tournament_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.CheckConstraint(
            "status IN ('drawn', 'playing', 'closed')",
            name=op.f("ck_tournament_round_round_status"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_round_tournament_id_tournament"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_round")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_tournament_round_tournament_id_number")
        ),
    )
    op.create_table(
        "round_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("ns_pair_id", sa.Integer(), nullable=False),
        sa.Column("ew_pair_id", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("mp_ns", sa.Integer(), nullable=True),
        sa.Column("mp_ew", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["ew_pair_id"],
            ["tournament_pair.id"],
            name=op.f("fk_round_table_ew_pair_id_tournament_pair"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["match.id"],
            name=op.f("fk_round_table_match_id_match"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["ns_pair_id"],
            ["tournament_pair.id"],
            name=op.f("fk_round_table_ns_pair_id_tournament_pair"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["tournament_round.id"],
            name=op.f("fk_round_table_round_id_tournament_round"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_table")),
    )
    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_round_table_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_round_table_round_id"), ["round_id"], unique=False)

    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hand_limit", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_column("hand_limit")

    with op.batch_alter_table("round_table", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_table_round_id"))
        batch_op.drop_index(batch_op.f("ix_round_table_match_id"))

    op.drop_table("round_table")
    op.drop_table("tournament_round")
    with op.batch_alter_table("tournament_pair", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_pair_second_player_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_pair_first_player_id"))

    op.drop_table("tournament_pair")
    with op.batch_alter_table("tournament_change", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_change_tournament_id"))

    op.drop_table("tournament_change")
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_owner_id"))

    op.drop_table("tournament")
