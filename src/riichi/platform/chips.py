"""Virtual chips: a double-entry ledger, what a money table reserves, how it settles.

Every movement of chips is a ``Transfer`` from one ledger account to another:
the debit and the credit are one row, so no entry can unbalance the books, and
the sum over every account (players, escrows, the house and the bank that
issued the chips) is zero, always. A balance is the sum of an account's
transfers, never a stored number. The server writes the transfers of an event
in the transaction that stores the event (a table's creation, its last action,
a tournament's registration or end).

A money table (002): each player puts up a bet; the pot is the bets. Entering
reserves the maximum loss, "also equal to the greatest possible winnings", in
the table's escrow; at the end the escrow pays every player back its reserve
plus what it won, or minus what it lost, and is empty again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from riichi.errors import RiichiError
from riichi.rules import Length, RuleSet, Settlement, changed_switches, placement_bonuses

BANK = "bank"  # issues every chip there is: its balance is minus all the others'
HOUSE = "house"  # takes the fees, adds money to tournaments, backs roster computers
START_CHIPS = 10_000  # what a new account is given
MONEY_SETTLEMENTS = (Settlement.WINNER_TAKES_ALL, Settlement.HOUSE)
# The switches a money table may change from its preset: each plays the same for every
# seat, and bench/money_fairness.py measured each seat's expectation under them. The
# others stay the preset's: a switch that makes ties likelier (no noten payment, no
# riichi stick) or moves chips between places is not the creator's to choose.
MONEY_SWITCHES = ("settlement", "red_fives", "kuitan")


class ChipError(RiichiError):
    """A movement the ledger refuses: a bad amount, or more than a player holds."""


LEFT = ":left"  # the event of a reserve given back to a seat left before the start


def left_event(ref: str) -> str:
    """The ledger event of a money seat left before its table started."""
    return f"table:{ref}{LEFT}"


def account_ledger(account_id: int) -> str:
    return f"account:{account_id}"


def backer(player: str) -> str:
    """The ledger account that pays and is paid for a player key: an account's own,
    the house for a roster computer."""
    return player if player.startswith("account:") else HOUSE


def movement(event: str, other: str, amount: int) -> dict[str, str | None]:
    """What a line of an account's statement was, in words, and the page it concerns:
    ``event`` is what the ledger posted it under, ``other`` the account on the other
    side, ``amount`` signed from the account's side."""
    kind, _, ref = event.partition(":")
    paid = amount < 0
    what = event
    link = None
    if kind == "table" and ref.endswith(LEFT):
        what = "stake back: you left a money table before it started"
        link = "/money"
    elif kind == "table":
        what = (
            "stake held for a money table" if paid else "money table settled: stake back ± result"
        )
        link = f"/table/{ref}" if paid else f"/replay/{ref}"
    elif kind == "tournament":
        link = f"/tournament/{ref}"
        if other == HOUSE:
            what = "tournament fee" if paid else "tournament fee refunded"
        else:
            what = "tournament buy-in" if paid else "tournament prize or refund"
    elif other == BANK:
        what = "returned to the bank" if paid else "starting chips"
    return {"what": what, "link": link}


def shortfall(event: str, held: int, amount: int) -> str:
    """Why an account cannot pay for ``event``, in the player's words."""
    what = {"table": "this table's stake", "tournament": "this tournament's buy-in and fee"}
    needs = what.get(event.partition(":")[0], event)
    return f"you hold {held:,} chips; {needs} needs {amount:,}"


def escrow(ref: str) -> str:
    """The escrow of a table or a tournament, which holds what its players put up."""
    return f"escrow:{ref}"


@dataclass(frozen=True, slots=True)
class Transfer:
    """``amount`` chips from ``source`` to ``target``: one debit and one credit."""

    source: str
    target: str
    amount: int

    def __post_init__(self) -> None:
        if self.amount <= 0 or self.source == self.target:
            raise ChipError(f"a transfer moves a positive amount between two accounts: {self}")


def balances(transfers: Iterable[Transfer]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in transfers:
        out[t.source] = out.get(t.source, 0) - t.amount
        out[t.target] = out.get(t.target, 0) + t.amount
    return out


# ---------------------------------------------------------------- the money model


@dataclass(frozen=True, slots=True)
class MoneyLimits:
    """What the site lets one account stake, and where the audit starts to worry.

    The house is the counterparty of every money table's computers, so what an
    account may put up against it is bounded per table, per day and in play at
    once; chips can then only be won as fast as honest play against the roster
    computer wins them, and the audit flags any account that wins faster.
    """

    max_bet: int = 5_000  # one table's bet
    daily_stake: int = 30_000  # reserves put up against the house in one UTC day
    live_tables: int = 2  # money tables an account plays at once
    house_floor: int = -2_000_000  # the audit flags a house that has lost more
    suspicious_z: float = 3.5  # the audit flags winnings this many deviations above fair
    min_tables: int = 5  # ... over at least this many money tables


MONEY = MoneyLimits()


def check_house_table(
    kinds: Sequence[str],
    human: str,
    roster: str,
    seed_chosen: bool,
    timed: bool,
    bet: int,
    limits: MoneyLimits = MONEY,
) -> None:
    """Whether the house backs a money table: one person against the roster computer at
    its full strength, on a clock, on walls nobody chose. A chosen seed lets the whole
    game be simulated offline; a weaker bot is a sure win; an untimed table lets a
    losing player stall until the table is closed. Raises ``ChipError`` otherwise."""
    if not 0 < bet <= limits.max_bet:
        raise ChipError(f"a bet is a whole number of chips from 1 to {limits.max_bet}, got {bet}")
    if kinds.count(human) != 1 or kinds[0] != human:
        raise ChipError("a table with a bet is one signed-in player against roster computers")
    weaker = sorted({k for k in kinds if k not in (human, roster)})
    if weaker:
        raise ChipError(
            f"the house backs only the roster computer ({roster}) at a money table, "
            f"not {', '.join(weaker)}"
        )
    if seed_chosen:
        raise ChipError("a table with a bet deals walls nobody chose: leave out the seed")
    if not timed:
        raise ChipError("a table with a bet is played on a clock (standard or relaxed)")


def check_stake(
    staked_today: int, live_tables: int, reserve: int, limits: MoneyLimits = MONEY
) -> None:
    """Whether an account may put ``reserve`` more against the house now."""
    if live_tables >= limits.live_tables:
        raise ChipError(
            f"you play {live_tables} money tables already; the limit is {limits.live_tables}"
        )
    if staked_today + reserve > limits.daily_stake:
        raise ChipError(
            f"you have put up {staked_today} chips against the house today; the daily limit "
            f"is {limits.daily_stake}, so {reserve} more is refused"
        )


@dataclass(frozen=True, slots=True)
class Played:
    """One settled money table of an account: what it reserved and what it won."""

    reserved: int
    won: int
    players: int


def out_of_line(played: Sequence[Played], limits: MoneyLimits = MONEY) -> float | None:
    """How many standard deviations an account's winnings stand above what a player no
    stronger than its opponents would win (each table's spread taken as a
    winner-takes-all seat's, the widest a reserve allows); None below
    ``min_tables`` or when the account is not ahead."""
    if len(played) < limits.min_tables:
        return None
    won = sum(p.won for p in played)
    spread = math.sqrt(sum(p.reserved**2 * (p.players - 1) for p in played))
    if won <= 0 or spread == 0:
        return None
    return won / spread


# ---------------------------------------------------------------- money tables


def check_money_rules(rules: RuleSet, bet: int) -> None:
    """Whether a table with ``bet`` may be played by ``rules``: a chip settlement, and
    no switch changed from the preset but ``MONEY_SWITCHES``."""
    if bet < 0:
        raise ChipError(f"a bet is not negative, got {bet}")
    if not bet:
        return
    if rules.settlement not in MONEY_SETTLEMENTS:
        known = ", ".join(s.value for s in MONEY_SETTLEMENTS)
        raise ChipError(
            f"{rules.name} settles by {rules.settlement.value}; a table with a bet needs "
            f"one of {known}"
        )
    others = sorted(set(changed_switches(rules)) - set(MONEY_SWITCHES))
    if others:
        raise ChipError(
            f"a table with a bet keeps {rules.name}'s {', '.join(others)}; it may change "
            f"only {', '.join(MONEY_SWITCHES)}"
        )


def feeding_penalty(rules: RuleSet, bet: int) -> int:
    """The feeding penalty of a single-hand winner-takes-all table, whole chips that
    the other losers can share evenly."""
    if rules.settlement is not Settlement.WINNER_TAKES_ALL or rules.length is not Length.ONE_HAND:
        return 0
    others = rules.players - 2
    return bet * rules.feeding_penalty // 100 // others * others


def reserve(rules: RuleSet, bet: int) -> int:
    """The maximum loss, held from each player while the table plays (002): the bet,
    plus the feeding penalty in a single-hand game, or plus the larger placement bonus
    under house rules."""
    if rules.settlement is Settlement.HOUSE:
        return bet + bet * rules.placement_bonus[0] // 100
    return bet + feeding_penalty(rules, bet)


def settle(
    rules: RuleSet, bet: int, places: Sequence[int], scores: Sequence[int], feeder: int | None
) -> list[int]:
    """Each seat's winnings (negative: its loss) at a money table's end. ``places`` are
    1 (first) to 4 by seat, ``feeder`` the seat that dealt in the last winning tile.

    Seats with equal end scores share the money of the places they hold equally: the
    match places a tie by seat, and paying by that order would pay the seat nearer the
    first dealer for nothing it did. A chip that cannot be shared equally goes to the
    house, so the winnings sum to minus those odd chips (``odd_chips``), never more."""
    players = len(places)
    order = sorted(range(players), key=lambda s: places[s])
    groups = _tied(order, scores)
    if rules.settlement is Settlement.WINNER_TAKES_ALL:
        out = [-bet] * players
        first = groups[0]
        for seat in first:
            out[seat] += bet * players // len(first)
        penalty = feeding_penalty(rules, bet)
        losers = [s for s in order if s not in first and s != feeder]
        if penalty and feeder is not None and feeder not in first and losers:
            out[feeder] -= penalty
            for seat in losers:
                out[seat] += penalty // len(losers)
        return out
    if rules.settlement is Settlement.HOUSE:
        out = [share - bet for share in equal_shares(bet * players, [max(0, s) for s in scores])]
        bonus = [0] * players
        for gets, pays, percent in placement_bonuses(rules):
            bonus[gets] += bet * percent // 100
            bonus[pays] -= bet * percent // 100
        place = 0
        for group in groups:
            total = sum(bonus[place : place + len(group)])
            for seat in group:
                out[seat] += total // len(group)
            place += len(group)
        return out
    raise ChipError(f"{rules.settlement.value} is not a settlement of chips")


def odd_chips(won: Sequence[int]) -> int:
    """The chips a settlement could not share equally among tied seats: the house's."""
    return -sum(won)


def _tied(order: Sequence[int], scores: Sequence[int]) -> list[list[int]]:
    """Seats in place order, grouped where neighbours' end scores are equal."""
    groups: list[list[int]] = []
    for seat in order:
        if groups and scores[groups[-1][-1]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def _floor_shares(total: int, weights: Sequence[int]) -> tuple[list[int], list[int], int]:
    """Each share rounded down, the weights shared by (equal ones when none is above 0)
    and their sum."""
    if sum(weights) <= 0:
        weights = [1] * len(weights)
    whole = sum(weights)
    return [total * w // whole for w in weights], list(weights), whole


def equal_shares(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` split in proportion to ``weights`` in whole chips, equal weights getting
    equal shares: the chips left over go by largest remainder to whole groups of equal
    remainders while one fits, and what is still left is not given out (the caller's
    odd chips); equal shares when every weight is 0."""
    if not weights:
        return []
    shares, weights, whole = _floor_shares(total, weights)
    left = total - sum(shares)
    by_remainder: dict[int, list[int]] = {}
    for i, w in enumerate(weights):
        by_remainder.setdefault(total * w % whole, []).append(i)
    for remainder in sorted(by_remainder, reverse=True):
        group = by_remainder[remainder]
        if remainder == 0 or len(group) > left:
            break
        for i in group:
            shares[i] += 1
        left -= len(group)
    return shares


def proportional(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` split in proportion to ``weights`` in whole chips (largest remainders,
    ties to the earlier); equal shares when every weight is 0."""
    if not weights:
        return []
    shares, weights, whole = _floor_shares(total, weights)
    left = total - sum(shares)
    by_remainder = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % whole), i))
    for i in by_remainder[:left]:
        shares[i] += 1
    return shares


def table_settlement(
    ref: str,
    players: Sequence[str],
    rules: RuleSet,
    bet: int,
    places: Sequence[int],
    scores: Sequence[int],
    feeder: int | None,
) -> list[Transfer]:
    """The escrow of table ``ref`` paid out: each player's reserve back, with its
    winnings or less its loss (ledger accounts by seat), and the odd chips of a tie to
    the house."""
    held = reserve(rules, bet)
    won = settle(rules, bet, places, scores, feeder)
    paid = [
        Transfer(escrow(ref), player, held + w)
        for player, w in zip(players, won, strict=True)
        if held + w > 0
    ]
    odd = odd_chips(won)
    return [*paid, Transfer(escrow(ref), HOUSE, odd)] if odd else paid


def release(ref: str, held: dict[str, int]) -> list[Transfer]:
    """An escrow given back as it was put up: a game that will never settle."""
    return [Transfer(escrow(ref), who, amount) for who, amount in held.items() if amount > 0]
