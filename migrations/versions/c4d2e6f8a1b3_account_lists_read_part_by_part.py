"""account lists read part by part

An account's lists (the history, the home page's) read its own matches and its groups'
separately, each along an index in the list's order, and merge the few rows: read with one
OR, SQLite sorted every match the account sees for each page. The group's single-column
index is replaced by the ordered ones that begin with it.

Revision ID: c4d2e6f8a1b3
Revises: b3f1c2d4e5a6
Create Date: 2026-12-03 07:50:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "c4d2e6f8a1b3"
down_revision = "b3f1c2d4e5a6"
branch_labels = None
depends_on = None

INDEXES = {
    "ix_match_group_id_played_on_id": ["group_id", "played_on", "id"],
    "ix_match_owner_id_updated_at_id": ["owner_id", "updated_at", "id"],
    "ix_match_group_id_updated_at_id": ["group_id", "updated_at", "id"],
    "ix_match_owner_id_status_updated_at_id": ["owner_id", "status", "updated_at", "id"],
    "ix_match_group_id_status_updated_at_id": ["group_id", "status", "updated_at", "id"],
}


def upgrade():
    for name, columns in INDEXES.items():
        op.create_index(name, "match", columns)
    op.drop_index("ix_match_group_id", table_name="match")


def downgrade():
    op.create_index("ix_match_group_id", "match", ["group_id"])
    for name in INDEXES:
        op.drop_index(name, table_name="match")
