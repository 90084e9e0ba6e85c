"""The throttle of sign-ins, setup codes and sign-ups: attempts slow down, then lock a while.

Attempts are counted in the database (``SignInFailure``), per key, so every worker and every
host of an installation counts the same ones. An attempt is *claimed* before its password or
code is checked (:func:`claim`): one statement per key both checks the key's allowance and
counts the attempt, so attempts arriving at once can never pass more than the allowance, and
each is counted exactly once whatever the database (an upsert creates the key's row, an
atomic ``UPDATE ... WHERE <allowed>`` counts; an attempt refused is counted by a plain
``failures + 1``). A success gives back what it claimed (:func:`forget`, :func:`give_back`).
A key forgets its attempts :data:`LOCK_FOR` after the last one let through.

Keys (OWASP's "device cookies", docs/architecture.md): a browser that signed in to an
account before presents its device cookie and has its own allowance for that account
(``device:<account id>:<nonce>``); any other client counts against the account's name
(``account:``) and its address (``address:``), so a stranger can lock out strangers, never
the owner's own devices. Sign-ups count per address (``sign-up:``) and for the
installation (``sign-ups``); the first account's setup code for the installation
(``setup``), wherever it comes from.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
from collections.abc import Iterator
from collections.abc import Sequence
from typing import Any
from typing import cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from anotador.storage import write_turns
from anotador.storage.database import db
from anotador.storage.models import SignInFailure
from anotador.storage.models import utc_now

#: Attempts that never wait; then each further one waits 2, 4, 8 ... seconds, at most a minute.
SLOW_AFTER = 3
MAX_WAIT = 60
#: Forgotten this long after the last attempt; a locked key is locked this long.
LOCK_FOR = datetime.timedelta(minutes=15)
#: Tried again when the key's row vanished under a claim (another request deleted it as
#: forgotten at that moment).
CLAIM_TRIES = 3


@dataclasses.dataclass(frozen=True)
class Allowance:
    """What a kind of key allows: ``free`` attempts, then growing waits, and after
    ``lock_after`` attempts (if any) a lock of :data:`LOCK_FOR`."""

    free: int = SLOW_AFTER
    lock_after: int | None = None

    def pause(self, attempts: int) -> datetime.timedelta:
        """How long after the last of ``attempts`` counted attempts the next may go."""
        if attempts < self.free:
            return datetime.timedelta(0)
        if self.lock_after is not None and attempts >= self.lock_after:
            return LOCK_FOR
        return datetime.timedelta(seconds=min(2 ** (attempts - self.free + 1), MAX_WAIT))

    def spans(self) -> Iterator[tuple[int, int | None, datetime.timedelta]]:
        """The counts of attempts (from, before) that share a pause, until the lock."""
        start = 0
        while self.lock_after is None or start < self.lock_after:
            pause = self.pause(start)
            if pause >= datetime.timedelta(seconds=MAX_WAIT):
                yield start, self.lock_after, pause
                return
            end = start + 1
            while self.pause(end) == pause and end != self.lock_after:
                end += 1
            yield start, end, pause
            start = end


#: An address is shared by a household or a club, so it gets more than an account.
ALLOWANCES = {
    "account": Allowance(lock_after=10),
    "device": Allowance(lock_after=10),
    "address": Allowance(lock_after=30),
    # The setup code has 10⁹ values: from any number of addresses together, 10 at once (ten
    # phones claiming the first account at the same moment all get an answer), then 20 per
    # quarter of an hour at most.
    "setup": Allowance(free=10, lock_after=20),
    # A club signing up on one Wi-Fi: a few at once, then one a minute from there.
    "sign-up": Allowance(free=5),
    "sign-ups": Allowance(free=50),
}


def account_key(name_key: str) -> str:
    return f"account:{name_key}"


def address_key(address: str | None) -> str:
    return f"address:{address or '-'}"


def device_key(account_id: int, nonce: str) -> str:
    return f"device:{account_id}:{nonce}"


SETUP_KEY = "setup"


def sign_up_keys(address: str | None) -> list[str]:
    return [f"sign-up:{address or '-'}", "sign-ups"]


def allowance_of(key: str) -> Allowance:
    return ALLOWANCES[key.split(":", 1)[0]]


def claim(keys: Sequence[str], now: datetime.datetime | None = None) -> int:
    """Count one attempt on every key; answer 0 when every key let it through, else how many
    seconds to wait (commits). An attempt refused counts too, without moving the key's clock:
    twenty at once leave twenty counted, the lock comes after them as after twenty in a row,
    and it runs from the last attempt that was let through."""
    now = now or utc_now()
    created = refused = False
    with write_turns.turn():
        for key in sorted(set(keys)):  # one order: two requests never wait for each other
            let_through, new = claim_one(key, now)
            created = created or new
            refused = refused or not let_through
        db.session.commit()
        if created:
            prune(now)
    return max(wait_seconds(keys, now), 1) if refused else 0


def claim_one(key: str, now: datetime.datetime) -> tuple[bool, bool]:
    """Count an attempt on ``key``: whether it was let through, and whether the key's row is
    new."""
    created = False
    for _ in range(CLAIM_TRIES):
        inserted = cast(sa.CursorResult[Any], db.session.execute(new_row(key, now)))
        created = created or bool(inserted.rowcount)
        let_through = sa.case(
            (SignInFailure.last_failure <= now - LOCK_FOR, 1),
            else_=SignInFailure.failures + 1,
        )
        if counted(key, allowed(allowance_of(key), now), failures=let_through, last_failure=now):
            return True, created
        if counted(key, sa.true(), failures=SignInFailure.failures + 1):
            return False, created
        # The row was deleted under this claim (forgotten, or a success): make it again.
    return False, created


def counted(key: str, condition: sa.ColumnElement[bool], **values: Any) -> bool:
    """One atomic ``UPDATE`` of the key's row where ``condition`` holds: whether it did."""
    update = (
        sa.update(SignInFailure)
        .where(SignInFailure.key == key, condition)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(cast(sa.CursorResult[Any], db.session.execute(update)).rowcount)


def new_row(key: str, now: datetime.datetime) -> sa.Executable:
    """The key's row with no attempt, unless it is there already (an upsert on either
    database: SQLite ≥ 3.24 and PostgreSQL both have ``ON CONFLICT DO NOTHING``)."""
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    values = {"key": key, "failures": 0, "last_failure": now}
    return insert(SignInFailure).values(values).on_conflict_do_nothing(index_elements=["key"])


def allowed(allowance: Allowance, now: datetime.datetime) -> sa.ColumnElement[bool]:
    """The key may take an attempt ``now``: forgotten, or its pause since the last is over."""
    terms = [SignInFailure.last_failure <= now - LOCK_FOR]
    for start, end, pause in allowance.spans():
        span = [SignInFailure.failures >= start]
        if end is not None:
            span.append(SignInFailure.failures < end)
        if pause:
            span.append(SignInFailure.last_failure <= now - pause)
        terms.append(sa.and_(*span))
    return sa.or_(*terms)


def wait_seconds(keys: Sequence[str], now: datetime.datetime | None = None) -> int:
    """How long the next attempt for these keys must wait (0: it may go now)."""
    now = now or utc_now()
    rows = db.session.scalars(sa.select(SignInFailure).where(SignInFailure.key.in_(keys)))
    return max((wait_for(row, now) for row in rows), default=0)


def wait_for(row: SignInFailure, now: datetime.datetime) -> int:
    last = as_utc(row.last_failure)
    if now - last >= LOCK_FOR:
        return 0
    until = last + allowance_of(row.key).pause(row.failures)
    return max(0, math.ceil((until - now).total_seconds()))


def attempts(key: str) -> int:
    """The attempts counted for ``key`` now (0 for none)."""
    return db.session.scalar(sa.select(SignInFailure.failures).where(SignInFailure.key == key)) or 0


def forget(key: str) -> None:
    """A success clears its key's attempts: the account's, or the device's (commits)."""
    db.session.execute(sa.delete(SignInFailure).where(SignInFailure.key == key))
    db.session.commit()


def give_back(keys: Sequence[str]) -> None:
    """A success does not count against a shared key (an address, the installation): the
    attempt it claimed there is given back (commits)."""
    if keys:
        db.session.execute(
            sa.update(SignInFailure)
            .where(SignInFailure.key.in_(keys), SignInFailure.failures > 0)
            .values(failures=SignInFailure.failures - 1)
            .execution_options(synchronize_session=False)
        )
        db.session.commit()


def prune(now: datetime.datetime) -> None:
    """Delete the forgotten keys, when a new one was made: however many names or addresses a
    stranger tries, the table holds only the last :data:`LOCK_FOR`'s."""
    # Rows a claim holds are skipped, not waited for (PostgreSQL; SQLite writes in turns):
    # waiting, a prune and a claim could each hold a row the other wants.
    forgotten = (
        sa.select(SignInFailure.key)
        .where(SignInFailure.last_failure <= now - LOCK_FOR)
        .with_for_update(skip_locked=True)
    )
    try:
        db.session.execute(sa.delete(SignInFailure).where(SignInFailure.key.in_(forgotten)))
        db.session.commit()
    except sa.exc.DBAPIError:  # housekeeping only: the next new key prunes again
        db.session.rollback()


def as_utc(moment: datetime.datetime) -> datetime.datetime:
    # SQLite hands back naive datetimes even for timezone-aware columns.
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)
