"""player name key long enough for folded names

Revision ID: 1e79c10ea954
Revises: d7475ef2389b
Create Date: 2026-11-30 04:36:37.323820

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "1e79c10ea954"
down_revision = "d7475ef2389b"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.alter_column(
            "name_key",
            existing_type=sa.VARCHAR(length=60),
            type_=sa.String(length=180),
            existing_nullable=False,
        )


def downgrade():
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.alter_column(
            "name_key",
            existing_type=sa.String(length=180),
            type_=sa.VARCHAR(length=60),
            existing_nullable=False,
        )
