"""side figures for the statistics

Each side keeps its figures over the match's hands (``Side.figures``: points, hands,
canastas, best hand... as JSON, with the match version they belong to), written with every
change like ``match.totals``, so a player's statistics are read rather than scored again.
This fills them for the stored matches, a batch at a time (a match the engine refuses keeps
none: the statistics skip it, as before).

Revision ID: b3f1c2d4e5a6
Revises: 7a1c0de5f2b3
Create Date: 2026-12-01 16:10:00.000000

"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b3f1c2d4e5a6"
down_revision = "7a1c0de5f2b3"
branch_labels = None
depends_on = None

BATCH = 500


def upgrade():
    with op.batch_alter_table("side", schema=None) as batch_op:
        batch_op.add_column(sa.Column("figures", sa.JSON(), nullable=True))
    fill_figures(op.get_bind())


def fill_figures(connection):
    # The app's own reading and figures: the same as a save would write.
    from anotador import rules
    from anotador.services.documents import document_of
    from anotador.services.documents import stored_figures

    meta = sa.MetaData()
    match = sa.Table("match", meta, autoload_with=connection)
    side = sa.Table("side", meta, autoload_with=connection)
    seat = sa.Table("seat", meta, autoload_with=connection)
    player = sa.Table("player", meta, autoload_with=connection)
    hand = sa.Table("hand", meta, autoload_with=connection)
    last = 0
    while True:
        rows = connection.execute(
            sa.select(match).where(match.c.id > last).order_by(match.c.id).limit(BATCH)
        ).all()
        if not rows:
            return
        ids = [row.id for row in rows]
        last = ids[-1]
        sides = defaultdict(dict)
        seated = connection.execute(
            sa.select(side.c.id, side.c.match_id, side.c.position, side.c.name, player.c.name)
            .outerjoin(seat, seat.c.side_id == side.c.id)
            .outerjoin(player, player.c.id == seat.c.player_id)
            .where(side.c.match_id.in_(ids))
            .order_by(side.c.match_id, side.c.position, seat.c.seat)
        )
        for side_id, match_id, position, name, player_name in seated:
            entry = sides[match_id].setdefault(position, (side_id, name, []))
            if player_name is not None:
                entry[2].append(player_name)
        hands = defaultdict(list)
        played = connection.execute(
            sa.select(hand.c.match_id, hand.c.inputs)
            .where(hand.c.match_id.in_(ids))
            .order_by(hand.c.match_id, hand.c.number)
        )
        for match_id, inputs in played:
            hands[match_id].append(inputs)
        updates = []
        for row in rows:
            ordered = [sides[row.id][position] for position in sorted(sides[row.id])]
            named = [{"name": name, "players": players} for _, name, players in ordered]
            game, _ = rules.read_match(document_of(row, named, hands[row.id]))
            if game is None:
                continue
            figures = stored_figures(game, rules.score_match(game), row.version)
            for (side_id, _, _), stored in zip(ordered, figures, strict=True):
                updates.append({"side_id": side_id, "figures": stored})
        if updates:
            statement = (
                side.update()
                .where(side.c.id == sa.bindparam("side_id"))
                .values(figures=sa.bindparam("figures"))
            )
            connection.execute(statement, updates)


def downgrade():
    with op.batch_alter_table("side", schema=None) as batch_op:
        batch_op.drop_column("figures")
