"""The sign-in throttle: repeated failures slow down, then lock for a while.

Failures are counted in the database (``SignInFailure``), per account and per address, so
every worker and every host of an installation counts the same ones. A key forgets its
failures :data:`LOCK_FOR` after the last one.
"""

from __future__ import annotations

import datetime
import math

import sqlalchemy as sa

from anotador.extensions import db
from anotador.models import SignInFailure
from anotador.models import utc_now

#: Failures before each further attempt must wait (2, 4, 8 ... seconds, at most a minute).
SLOW_AFTER = 3
MAX_WAIT = 60
#: Failures that lock the key until LOCK_FOR after the last one. An address is shared by a
#: household or a club, so it gets more.
LOCK_AFTER = {"account": 10, "address": 30}
LOCK_FOR = datetime.timedelta(minutes=15)


def account_key(name_key: str) -> str:
    return f"account:{name_key}"


def address_key(address: str | None) -> str:
    return f"address:{address or '-'}"


def wait_seconds(keys: list[str], now: datetime.datetime | None = None) -> int:
    """How long the next attempt for these keys must wait (0: it may go now)."""
    now = now or utc_now()
    rows = db.session.scalars(sa.select(SignInFailure).where(SignInFailure.key.in_(keys)))
    return max((wait_for(row, now) for row in rows), default=0)


def wait_for(row: SignInFailure, now: datetime.datetime) -> int:
    last = as_utc(row.last_failure)
    if now - last >= LOCK_FOR:
        return 0
    kind = row.key.split(":", 1)[0]
    if row.failures >= LOCK_AFTER.get(kind, LOCK_AFTER["account"]):
        until = last + LOCK_FOR
    elif row.failures >= SLOW_AFTER:
        until = last + datetime.timedelta(
            seconds=min(2 ** (row.failures - SLOW_AFTER + 1), MAX_WAIT)
        )
    else:
        return 0
    return max(0, math.ceil((until - now).total_seconds()))


def record_failure(keys: list[str], now: datetime.datetime | None = None) -> None:
    """Count a failed attempt for each key (commits)."""
    now = now or utc_now()
    for key in keys:
        row = db.session.get(SignInFailure, key)
        if row is None:
            db.session.add(SignInFailure(key=key, failures=1, last_failure=now))
        elif now - as_utc(row.last_failure) >= LOCK_FOR:
            row.failures, row.last_failure = 1, now
        else:
            row.failures, row.last_failure = row.failures + 1, now
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # another worker counted the first failure meanwhile
        db.session.rollback()
        record_failure(keys, now)


def forget(key: str) -> None:
    """A successful sign-in clears its account's failures (not its address's)."""
    db.session.execute(sa.delete(SignInFailure).where(SignInFailure.key == key))
    db.session.commit()


def as_utc(moment: datetime.datetime) -> datetime.datetime:
    # SQLite hands back naive datetimes even for timezone-aware columns.
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)
