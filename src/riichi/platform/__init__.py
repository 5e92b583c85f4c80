"""The site's rules as plain logic, no I/O: clocks, accounts, matchmaking.

Everything here takes the time and the stored facts as arguments and returns
decisions (the next deadlines, an action on timeout, the tables to seat); the
server stores what it returns in one transaction with the event behind it.
"""

from riichi.platform.accounts import AccountError, check_name, check_password, name_key
from riichi.platform.clocks import (
    POLICIES,
    ClockPolicy,
    ClockState,
    Pool,
    timeout_action,
)
from riichi.platform.matchmaking import Waiting, seat_tables

__all__ = [
    "POLICIES",
    "AccountError",
    "ClockPolicy",
    "ClockState",
    "Pool",
    "Waiting",
    "check_name",
    "check_password",
    "name_key",
    "seat_tables",
    "timeout_action",
]
