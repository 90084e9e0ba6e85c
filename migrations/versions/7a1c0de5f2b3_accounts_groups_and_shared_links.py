"""accounts, groups and shared links

Every match and player gets an owner. Rows from before accounts keep ``owner_id`` empty: the
installation's first administrator takes them when that account is made
(``services.accounts.create_account``), so an upgrade loses nothing and needs no account
to exist yet.

Revision ID: 7a1c0de5f2b3
Revises: 1e79c10ea954
Create Date: 2026-12-01 12:55:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7a1c0de5f2b3"
down_revision = "1e79c10ea954"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=180), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("session_token", sa.String(length=43), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account")),
        sa.UniqueConstraint("name_key", name=op.f("uq_account_name_key")),
    )
    op.create_table(
        "account_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["account.id"],
            name=op.f("fk_account_group_owner_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_group")),
    )
    op.create_index(op.f("ix_account_group_owner_id"), "account_group", ["owner_id"])
    op.create_table(
        "membership",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["account_group.id"],
            name=op.f("fk_membership_group_id_account_group"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["account.id"],
            name=op.f("fk_membership_user_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_membership")),
        sa.UniqueConstraint("group_id", "user_id", name=op.f("uq_membership_group_id_user_id")),
    )
    op.create_index(op.f("ix_membership_user_id"), "membership", ["user_id"])
    op.create_table(
        "sign_in_failure",
        sa.Column("key", sa.String(length=190), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_sign_in_failure")),
    )
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch_op.drop_constraint("uq_player_name_key", type_="unique")
        batch_op.create_unique_constraint(
            batch_op.f("uq_player_owner_id_name_key"), ["owner_id", "name_key"]
        )
        batch_op.create_index(batch_op.f("ix_player_owner_id"), ["owner_id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_player_owner_id_account"),
            "account",
            ["owner_id"],
            ["id"],
            ondelete="CASCADE",
        )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("table_token", sa.String(length=43), nullable=True))
        batch_op.add_column(sa.Column("spectator_token", sa.String(length=43), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_match_table_token"), ["table_token"])
        batch_op.create_unique_constraint(
            batch_op.f("uq_match_spectator_token"), ["spectator_token"]
        )
        batch_op.create_index(batch_op.f("ix_match_group_id"), ["group_id"])
        batch_op.create_index("ix_match_owner_id_played_on_id", ["owner_id", "played_on", "id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_match_owner_id_account"),
            "account",
            ["owner_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_match_group_id_account_group"),
            "account_group",
            ["group_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_match_group_id_account_group"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("fk_match_owner_id_account"), type_="foreignkey")
        batch_op.drop_index("ix_match_owner_id_played_on_id")
        batch_op.drop_index(batch_op.f("ix_match_group_id"))
        batch_op.drop_constraint(batch_op.f("uq_match_spectator_token"), type_="unique")
        batch_op.drop_constraint(batch_op.f("uq_match_table_token"), type_="unique")
        batch_op.drop_column("spectator_token")
        batch_op.drop_column("table_token")
        batch_op.drop_column("group_id")
        batch_op.drop_column("owner_id")
    # Before accounts one name was one player: when two accounts have a player of the same
    # name, the downgrade stops at this constraint rather than merge two people.
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_player_owner_id_account"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_player_owner_id"))
        batch_op.drop_constraint(batch_op.f("uq_player_owner_id_name_key"), type_="unique")
        batch_op.create_unique_constraint("uq_player_name_key", ["name_key"])
        batch_op.drop_column("owner_id")
    op.drop_table("sign_in_failure")
    op.drop_index(op.f("ix_membership_user_id"), table_name="membership")
    op.drop_table("membership")
    op.drop_index(op.f("ix_account_group_owner_id"), table_name="account_group")
    op.drop_table("account_group")
    op.drop_table("account")
