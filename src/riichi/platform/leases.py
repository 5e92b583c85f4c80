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
tables are free to take 12.5 s after its last renewal at the latest. Each look
takes them ``TAKE_AT_ONCE`` at a time, up to ``TAKE_ROUNDS`` batches and never
past its fair share (``share``) of the site's live tables among the processes
alive (each says so by a lease of its own), so that several processes share a
dead one's tables, and the tables of a site that starts.
"""

from __future__ import annotations

from dataclasses import dataclass

LEASE_SECONDS = 10.0
RENEW_EVERY = 2.5
TAKE_AT_ONCE = 8  # tables one process takes over in one batch
TAKE_ROUNDS = 16  # ... and batches per look (128 tables)
TAKEOVER_BOUND = LEASE_SECONDS + RENEW_EVERY  # a dead owner's tables are taken by then


def share(live: int, processes: int, held: int) -> int:
    """How many more tables a process holding ``held`` should take: up to its even
    share of the ``live`` ones among ``processes`` (itself included)."""
    even = -(-live // max(1, processes))
    return max(0, even - held)


@dataclass(frozen=True, slots=True)
class Lease:
    table_id: str
    owner: str
    epoch: int
    expires: float

    def free(self, now: float) -> bool:
        """Whether another process may take the table now."""
        return self.expires <= now
