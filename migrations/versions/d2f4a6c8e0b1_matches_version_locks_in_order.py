"""matches version: on PostgreSQL, the counters are locked in one order by every transaction

The triggers of ``c9e1f3a5b7d8`` bumped each row's holders at the commit, in the order of
the rows written. A transaction that writes matches of several owners (deleting a group
unshares them all) could lock an owner's counter after the group's while a save of that
owner's match, at the same instant, held the owner's and waited for the group's: a
deadlock, which PostgreSQL breaks by aborting one of them.

Now each row's trigger only notes its holders, at once, in a setting that lasts the
transaction (it is rolled back with a savepoint, as the row is). At the commit a deferred
trigger bumps every holder noted, locked in one order for every transaction: accounts
before groups, each by id. Two commits then wait for each other at most; they never wait
in a circle. SQLite, whose writes take turns, keeps its triggers.

Revision ID: d2f4a6c8e0b1
Revises: c9e1f3a5b7d8
Create Date: 2026-12-04 07:10:00.000000

"""

import importlib.util
from pathlib import Path

from alembic import op

# revision identifiers, used by Alembic.
revision = "d2f4a6c8e0b1"
down_revision = "c9e1f3a5b7d8"
branch_labels = None
depends_on = None


def previous_revision():
    """The module of ``c9e1f3a5b7d8``: its holders per table, and its triggers for a downgrade."""
    path = Path(__file__).with_name("c9e1f3a5b7d8_matches_version.py")
    spec = importlib.util.spec_from_file_location("matches_version_c9e1f3a5b7d8", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The setting, kept for the transaction, that lists the holders noted: ",a12,g3,".
NOTED = "anotador.matches_versions"

NOTE_HOLDERS = f"""
CREATE FUNCTION note_matches_versions(holders text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  noted text := coalesce(nullif(current_setting('{NOTED}', true), ''), ',');
  holder text;
BEGIN
  FOREACH holder IN ARRAY holders LOOP
    IF strpos(noted, ',' || holder || ',') = 0 THEN
      noted := noted || holder || ',';
    END IF;
  END LOOP;
  PERFORM set_config('{NOTED}', noted, true);
END $$
"""

#: Bumps what the transaction noted; ``{first}``: a first version drawn at random.
BUMP_NOTED = f"""
CREATE FUNCTION bump_matches_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  noted text := trim(both ',' from coalesce(current_setting('{NOTED}', true), ''));
BEGIN
  IF noted = '' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('{NOTED}', ',', true);
  -- ORDER BY comes before the locks: every transaction takes them in this one order.
  PERFORM 1 FROM matches_version v
    JOIN (SELECT left(token, 1) AS holder, substr(token, 2)::integer AS holder_id
          FROM unnest(string_to_array(noted, ',')) AS token) AS held
      ON held.holder = v.holder AND held.holder_id = v.holder_id
    ORDER BY v.holder, v.holder_id FOR UPDATE OF v;
  INSERT INTO matches_version (holder, holder_id, version)
    SELECT left(token, 1), substr(token, 2)::integer, {{first}}
    FROM unnest(string_to_array(noted, ',')) AS token ORDER BY 1, 2
    ON CONFLICT (holder, holder_id) DO UPDATE SET version = matches_version.version + 1;
  RETURN NULL;
END $$
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    previous = previous_revision()
    op.execute(NOTE_HOLDERS)
    op.execute(BUMP_NOTED.format(first=previous.FIRST["postgresql"]))
    for table, holders in previous.TRIGGERS.items():
        kept = [
            (operation, held)
            for operation, held in zip(previous.OPERATIONS, holders, strict=True)
            if held is not None
        ]
        branches = " ".join(
            f"{'IF' if not index else 'ELSIF'} TG_OP = '{operation}' THEN"
            " PERFORM note_matches_versions(ARRAY(SELECT holder || holder_id"
            f" FROM ({held}) AS held WHERE holder_id IS NOT NULL));"
            for index, (operation, held) in enumerate(kept)
        )
        operations = " OR ".join(operation for operation, _ in kept)
        op.execute(f"DROP TRIGGER {table}_matches_version ON {table}")
        op.execute(
            f"CREATE OR REPLACE FUNCTION {table}_matches_version() RETURNS trigger"
            f" LANGUAGE plpgsql AS $$ BEGIN {branches} END IF; RETURN NULL; END $$"
        )
        op.execute(
            f"CREATE TRIGGER {table}_matches_version AFTER {operations} ON {table}"
            f" FOR EACH ROW EXECUTE FUNCTION {table}_matches_version()"
        )
        op.execute(
            f"CREATE CONSTRAINT TRIGGER {table}_matches_version_bump AFTER {operations}"
            f" ON {table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
            " EXECUTE FUNCTION bump_matches_versions()"
        )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    previous = previous_revision()
    for table in previous.TRIGGERS:
        op.execute(f"DROP TRIGGER {table}_matches_version_bump ON {table}")
        op.execute(f"DROP TRIGGER {table}_matches_version ON {table}")
        op.execute(f"DROP FUNCTION {table}_matches_version()")
    op.execute("DROP FUNCTION bump_matches_versions()")
    op.execute("DROP FUNCTION note_matches_versions(text[])")
    previous.create_postgresql_triggers()
