"""history: match content hash and keyset indexes

The hash lets an import skip matches already stored; stored matches get theirs the next
time they change or when an import backfills them. The composite indexes serve the
history list, newest first, with and without a status or variant filter.

Revision ID: d7475ef2389b
Revises: 6535c513ee05
Create Date: 2026-11-30 03:27:01.967259

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d7475ef2389b"
down_revision = "6535c513ee05"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("content_hash", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_match_content_hash"), ["content_hash"], unique=False)
        batch_op.create_index("ix_match_played_on_id", ["played_on", "id"], unique=False)
        batch_op.create_index(
            "ix_match_status_played_on_id", ["status", "played_on", "id"], unique=False
        )
        batch_op.create_index(
            "ix_match_variant_played_on_id", ["variant", "played_on", "id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index("ix_match_variant_played_on_id")
        batch_op.drop_index("ix_match_status_played_on_id")
        batch_op.drop_index("ix_match_played_on_id")
        batch_op.drop_index(batch_op.f("ix_match_content_hash"))
        batch_op.drop_column("content_hash")
