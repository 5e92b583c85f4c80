"""Who owns a live table when several server processes share one database.

Each live table has exactly one owning process, named by a lease: the owner, an
epoch and an expiry. The owner renews its leases every ``RENEW_EVERY`` seconds;
a lease not renewed for ``LEASE_SECONDS`` (the owner died, paused, or lost the
database) may be taken by another process, which raises the epoch and rebuilds
the table from its log. Every write of a table's action checks, in its own
transaction, that the epoch is still the one its writer holds (a fencing
token): a process that lost a lease can never write for that table again, so a
game has one history whatever the processes do.

The timings: a lease lasts 10 s and is renewed every 2.5 s, so three renewals
may fail in a row (a slow database, a long pause of the process) before it is
lost; another process looks for free tables every 2.5 s, so a dead owner's
tables are taken over within 12.5 s of its last renewal, ``TAKE_AT_ONCE`` at a
time so that several processes share them.
"""

from __future__ import annotations

from dataclasses import dataclass

LEASE_SECONDS = 10.0
RENEW_EVERY = 2.5
TAKE_AT_ONCE = 8  # tables one process takes over per look
TAKEOVER_BOUND = LEASE_SECONDS + RENEW_EVERY  # a dead owner's tables are taken by then


@dataclass(frozen=True, slots=True)
class Lease:
    table_id: str
    owner: str
    epoch: int
    expires: float

    def free(self, now: float) -> bool:
        """Whether another process may take the table now."""
        return self.expires <= now
