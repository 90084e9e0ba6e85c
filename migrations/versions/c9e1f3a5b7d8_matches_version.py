"""matches version

A counter per account and per group that the database bumps, in the same transaction, on
every write to a match it holds (as owner or group), to a seat of one, to one of its
players and to an account's memberships. What is derived from the matches and players an
account sees (a player's statistics, the players' registry) is kept under its counter and
its groups': triggers, not the app's write paths, keep it, so no
path (a bulk update, a cascade, a change made outside the app) can leave it behind.

On PostgreSQL the triggers are deferred to the commit: a transaction then takes the
counters' row locks last, after the matches it writes, and two saves of one account's
matches wait for each other only for the commit's instant.

Every first version is drawn at random: the keys of what was kept for another database (or
for one made again at the same address) are never met.

Revision ID: c9e1f3a5b7d8
Revises: a7c9e1b3d5f6
Create Date: 2026-12-04 02:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c9e1f3a5b7d8"
down_revision = "a7c9e1b3d5f6"
branch_labels = None
depends_on = None

#: First versions are drawn from 1 to 2**30 (a version is a 32-bit integer).
FIRST = {
    "sqlite": "abs(random() % 1073741824) + 1",
    "postgresql": "floor(random() * 1073741824)::integer + 1",
}
#: The holders of a match row ``{row}`` (NEW or OLD): its owner and its group.
HOLDERS = "SELECT 'a' AS holder, {row}.owner_id AS holder_id UNION SELECT 'g', {row}.group_id"
#: The holders of the match of the sides ``{sides}`` (a list of ids).
SIDE_HOLDERS = (
    "SELECT 'a' AS holder, m.owner_id AS holder_id FROM side s JOIN match m ON m.id = s.match_id"
    " WHERE s.id IN ({sides})"
    " UNION SELECT 'g', m.group_id FROM side s JOIN match m ON m.id = s.match_id"
    " WHERE s.id IN ({sides})"
)


def bump(holders: str, dialect: str) -> str:
    """The statement that bumps (or starts) the counter of every holder of ``holders``."""
    return (
        "INSERT INTO matches_version (holder, holder_id, version)"
        f" SELECT holder, holder_id, {FIRST[dialect]} FROM ({holders}) AS held"
        " WHERE holder_id IS NOT NULL ORDER BY holder, holder_id"
        " ON CONFLICT (holder, holder_id) DO UPDATE SET version = matches_version.version + 1"
    )


#: Each trigger: its table, then the holders its row's insert, update and delete bump
#: (None: that write bumps nothing).
TRIGGERS = {
    "match": (
        HOLDERS.format(row="NEW"),
        f"{HOLDERS.format(row='OLD')} UNION {HOLDERS.format(row='NEW')}",
        HOLDERS.format(row="OLD"),
    ),
    "seat": (
        SIDE_HOLDERS.format(sides="NEW.side_id"),
        SIDE_HOLDERS.format(sides="OLD.side_id, NEW.side_id"),
        SIDE_HOLDERS.format(sides="OLD.side_id"),
    ),
    "player": (
        "SELECT 'a' AS holder, NEW.owner_id AS holder_id",
        "SELECT 'a' AS holder, OLD.owner_id AS holder_id UNION SELECT 'a', NEW.owner_id",
        "SELECT 'a' AS holder, OLD.owner_id AS holder_id",
    ),
    "membership": (
        "SELECT 'a' AS holder, NEW.user_id AS holder_id",
        "SELECT 'a' AS holder, OLD.user_id AS holder_id UNION SELECT 'a', NEW.user_id",
        "SELECT 'a' AS holder, OLD.user_id AS holder_id",
    ),
    "account": (None, None, "SELECT 'a' AS holder, OLD.id AS holder_id"),
}
OPERATIONS = ("INSERT", "UPDATE", "DELETE")


def upgrade():
    op.create_table(
        "matches_version",
        sa.Column("holder", sa.String(length=1), nullable=False),
        sa.Column("holder_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("holder", "holder_id", name=op.f("pk_matches_version")),
    )
    dialect = op.get_bind().dialect.name
    for holder, table in (("a", "account"), ("g", "account_group")):
        op.execute(
            "INSERT INTO matches_version (holder, holder_id, version)"
            f" SELECT '{holder}', id, {FIRST[dialect]} FROM {table}"
        )
    if dialect == "postgresql":
        create_postgresql_triggers()
    else:
        create_sqlite_triggers()


def create_sqlite_triggers():
    for table, holders in TRIGGERS.items():
        for operation, held in zip(OPERATIONS, holders, strict=True):
            if held is not None:
                op.execute(
                    f"CREATE TRIGGER {table}_{operation.lower()}_matches_version"
                    f" AFTER {operation} ON {table} BEGIN {bump(held, 'sqlite')}; END"
                )


def create_postgresql_triggers():
    for table, holders in TRIGGERS.items():
        branches = " ".join(
            f"{'IF' if not index else 'ELSIF'} TG_OP = '{operation}' THEN"
            f" {bump(held, 'postgresql')};"
            for index, (operation, held) in enumerate(
                (operation, held)
                for operation, held in zip(OPERATIONS, holders, strict=True)
                if held is not None
            )
        )
        operations = " OR ".join(
            operation for operation, held in zip(OPERATIONS, holders, strict=True) if held
        )
        op.execute(
            f"CREATE FUNCTION {table}_matches_version() RETURNS trigger LANGUAGE plpgsql AS $$"
            f" BEGIN {branches} END IF; RETURN NULL; END $$"
        )
        op.execute(
            f"CREATE CONSTRAINT TRIGGER {table}_matches_version AFTER {operations} ON {table}"
            " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
            f" EXECUTE FUNCTION {table}_matches_version()"
        )


def downgrade():
    dialect = op.get_bind().dialect.name
    for table, holders in TRIGGERS.items():
        if dialect == "postgresql":
            op.execute(f"DROP TRIGGER {table}_matches_version ON {table}")
            op.execute(f"DROP FUNCTION {table}_matches_version()")
            continue
        for operation, held in zip(OPERATIONS, holders, strict=True):
            if held is not None:
                op.execute(f"DROP TRIGGER {table}_{operation.lower()}_matches_version")
    op.drop_table("matches_version")
