"""Money tables between people (002), before they start: what an offer may be, who may
sit at it, and in which seat.

An offer is a money table waiting for its people. Whoever opens it sits first; each
who sits puts up the table's reserve (its maximum loss) into the escrow of the table
to be, in the transaction that seats it; whoever leaves before the start gets it
back in the transaction that unseats it. Full, the offer becomes a table of kind
``money`` under the same id, whose escrow the settlement pays out as at any money
table. No roster computer sits at one: the house backs a computer only against a
single person (``chips.check_house_table``), never where two people may pool what
they see. Two accounts from one address or one browser never sit at one offer, as
in the rated queue.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from riichi.platform.chips import MONEY, ChipError, MoneyLimits, check_money_rules
from riichi.platform.clocks import Pool
from riichi.rules import RuleSet


class OfferError(ChipError):
    """An offer or a seat refused, with the reason; nothing has changed."""


@dataclass(frozen=True, slots=True)
class Sitter:
    """Someone at an offer, or asking to sit: the account and the keyed hashes of where
    it came from."""

    account: int
    address: str | None = None
    device: str | None = None


def check_offer(rules: RuleSet, bet: int, pool: Pool, limits: MoneyLimits = MONEY) -> None:
    """Whether a money table between people may be offered with these rules."""
    if not 0 < bet <= limits.max_bet:
        raise OfferError(f"a bet is a whole number of chips from 1 to {limits.max_bet}")
    try:
        check_money_rules(rules, bet)
    except ChipError as exc:
        raise OfferError(str(exc)) from None
    if pool is Pool.UNTIMED:
        raise OfferError("a money table is played on a clock (standard or relaxed)")


def seat_for(
    players: int,
    seated: Sequence[tuple[int, Sitter]],
    who: Sitter,
    invited: Collection[int] | None,
    playing: int,
    limits: MoneyLimits = MONEY,
) -> int:
    """The seat ``who`` takes at an offer of ``players`` seats (the first free), where
    ``seated`` are (seat, sitter) and ``playing`` the money tables ``who`` sits at
    already (offers or in play). Raises ``OfferError`` with the reason it may not."""
    if any(s.account == who.account for _, s in seated):
        raise OfferError("you sit at this table already")
    if invited is not None and who.account not in invited:
        raise OfferError("this table is by invitation")
    for _, s in seated:
        if (who.address is not None and s.address == who.address) or (
            who.device is not None and s.device == who.device
        ):
            raise OfferError(
                "someone at this table came from your address or your browser: one of you"
                " plays here"
            )
    if playing >= limits.live_tables:
        raise OfferError(
            f"you sit at {playing} money tables already; the limit is {limits.live_tables}"
        )
    taken = {seat for seat, _ in seated}
    free = [seat for seat in range(players) if seat not in taken]
    if not free:
        raise OfferError("this table is full")
    return free[0]


__all__ = ["OfferError", "Sitter", "check_offer", "seat_for"]
