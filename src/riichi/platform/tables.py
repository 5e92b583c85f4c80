"""A table's life as plain logic: its kind, who may open it and how, and what to
write when it opens and when its game ends.

Every table is of one ``TableKind``. For each kind, ``KINDS`` says what the site
allows: whether the lobby opens it and for whom, which clocks, whether it is
rated, whether it may carry a bet, whether spectators may always watch, and
the rules it is played by when the kind fixes them (a rated table: ``classic``,
East round). The server's lobby, queue and desks ask here before they open a
table, and storage carries out the plans made here, each in one transaction:

- ``opening``: the rows beside the table's own (who sits where, a Daily Wall
  attempt, a tournament's table), the reserves of a money table and the stakes
  to check against the money limits, and who leaves the rated queue;
- ``finishing``: every seat's figures, the ratings to update, the settlement of
  a money table and the rows to update (a Daily Wall attempt's hands).

So a new kind of table is one ``KINDS`` entry, what its plans add, and its page:
storage has no branch per kind.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, TypeVar

from riichi.bots import BOT_LABEL, ROSTER
from riichi.errors import RiichiError
from riichi.game import Match
from riichi.game.stats import hand_changes, seat_stats
from riichi.platform.chips import (
    HOUSE,
    ChipError,
    Transfer,
    account_ledger,
    check_house_table,
    check_money_rules,
    escrow,
    reserve,
    settle,
    table_settlement,
)
from riichi.platform.clocks import Pool
from riichi.rules import Length, RuleSet, Settlement, find_ruleset

T = TypeVar("T")
HUMAN = "human"  # a seat's kind when a person sits there (otherwise a bot's name)
GUEST = "guest"  # the player of a seat taken by link, without an account


class TableError(RiichiError):
    """A table the site does not open: a kind, seats, clock or bet it refuses."""


class TableKind(Enum):
    """The site's kinds of table (the rules of each: ``KINDS``)."""

    PRACTICE = "practice"
    PRIVATE = "private"
    RATED = "rated"
    DAILY = "daily"
    TOURNAMENT = "tournament"
    MONEY = "money"  # people against people for chips, seated from the money lobby
    LEAGUE = "league"  # a league season's table: its PT written with its end


Kind = TableKind | str  # a kind, or the name of one registered in KINDS by its name


@dataclass(frozen=True, slots=True)
class KindRules:
    """What the site allows a kind of table."""

    lobby: bool  # the lobby's form opens it (the others: the queue or a desk)
    guests: bool  # a guest (no account) may open one
    clocks: frozenset[Pool]
    rated: bool = False
    money: bool = False  # may carry a bet (the house backs the roster computer)
    always_watched: bool = False  # open to spectators whatever the opener says
    one_person_first: bool = False  # exactly one person, in the first seat
    preset: str | None = None  # the rules it is played by, when the kind fixes them
    length: Length | None = None
    hands_to: str | None = None  # the row (by table id) that keeps each hand's changes
    # its people sit one by one, each putting up its reserve as it sits, before the
    # table opens (full) from that offer
    seated_first: bool = False
    results_to: str | None = None  # the table that keeps each seat's place, score and PT
    # the coach may show the roster computer's view of the seat's decisions: only where
    # nobody else's game is at stake (one person against computers, nothing won)
    coach: bool = False


TIMED = frozenset({Pool.STANDARD, Pool.RELAXED})
ALL_CLOCKS = frozenset(Pool)

KINDS: dict[str, KindRules] = {
    TableKind.PRACTICE.value: KindRules(
        lobby=True,
        guests=True,
        clocks=frozenset({Pool.UNTIMED}),
        one_person_first=True,
        coach=True,
    ),
    TableKind.PRIVATE.value: KindRules(lobby=True, guests=True, clocks=ALL_CLOCKS, money=True),
    # 001's rated game: classic rules, an East round, on a clock, open to spectators
    TableKind.RATED.value: KindRules(
        lobby=False,
        guests=False,
        clocks=TIMED,
        rated=True,
        always_watched=True,
        preset="classic",
        length=Length.EAST,
    ),
    TableKind.DAILY.value: KindRules(
        lobby=False,
        guests=False,
        clocks=frozenset({Pool.UNTIMED}),
        preset="daily-wall",
        hands_to="daily_attempts",  # the day's hand-by-hand comparison
    ),
    TableKind.TOURNAMENT.value: KindRules(
        lobby=False, guests=False, clocks=ALL_CLOCKS, always_watched=True
    ),
    # 002 between people: no roster computer, which the house would back against
    # players who may share what they see; on a clock, so a leaver's seat plays on
    TableKind.MONEY.value: KindRules(
        lobby=False, guests=False, clocks=TIMED, money=True, seated_first=True
    ),
    # 003: a season's tables, scored in PT (the preset's final points: M-League's uma
    # and return for ``league``)
    TableKind.LEAGUE.value: KindRules(
        lobby=False,
        guests=False,
        clocks=ALL_CLOCKS,
        always_watched=True,
        results_to="league_games",
    ),
}


def kind_name(kind: Kind) -> str:
    return kind.value if isinstance(kind, TableKind) else kind


def kind_rules(kind: Kind) -> KindRules:
    """What the site allows a kind of table (a new kind is one more ``KINDS`` entry)."""
    try:
        return KINDS[kind_name(kind)]
    except KeyError:
        raise TableError(f"no kind of table is called {kind_name(kind)[:40]!r}") from None


def fixed_rules(kind: Kind) -> RuleSet:
    """The rules a kind that fixes them is played by."""
    rules = kind_rules(kind)
    if rules.preset is None:
        raise TableError(f"a {kind_name(kind)} table's rules are chosen by whoever opens it")
    found = find_ruleset(rules.preset)
    return found if rules.length is None else found.replace(length=rules.length)


def lobby_kind(text: object) -> str:
    """The kind a lobby request names, if the lobby opens it."""
    lobby = [name for name, rules in KINDS.items() if rules.lobby]
    if not isinstance(text, str) or text not in KINDS:
        raise TableError(f"kind is {' or '.join(lobby)}, got {str(text)[:40]!r}")
    if not KINDS[text].lobby:
        if KINDS[text].rated:
            raise TableError(f"{text} tables come from the queue: join it (POST /api/queue)")
        raise TableError(f"the lobby opens {' or '.join(lobby)} tables, not {text}")
    return text


def check_lobby_table(
    kind: Kind,
    signed_in: bool,
    seats: Sequence[str],
    pool: Pool,
    rules: RuleSet,
    bet: int,
    seed_chosen: bool,
) -> None:
    """Whether the lobby opens this table for this person (seats by kind: ``HUMAN``
    or a bot's name). Raises ``TableError`` with the reason."""
    allowed, name = kind_rules(kind), kind_name(kind)
    if not signed_in and not allowed.guests:
        raise TableError(f"sign in to open a {name} table")
    if pool not in allowed.clocks:
        clocks = " or ".join(sorted(p.value for p in allowed.clocks))
        raise TableError(f"a {name} table is {clocks}, not {pool.value}")
    if allowed.one_person_first and (seats.count(HUMAN) != 1 or seats[0] != HUMAN):
        raise TableError(f"a {name} table is you against bots, untimed")
    if not bet:
        return
    if not allowed.money:
        raise TableError(f"a {name} table carries no bet")
    if not signed_in:
        raise TableError("a table with a bet is for a signed-in player")
    try:
        check_money_rules(rules, bet)
        check_house_table(seats, HUMAN, ROSTER, seed_chosen, pool in TIMED, bet)
    except ChipError as exc:
        raise TableError(str(exc)) from None


# ---------------------------------------------------------------- seats


def token_hash(token: str) -> str:
    """What the store keeps of a seat link's token: never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: a person holding the token hashed in ``token_hash``, or a bot."""

    kind: str  # HUMAN or a bot name
    name: str
    token_hash: str | None = None
    account: int | None = None  # the signed-in account that sits here

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.is_bot, "account": self.account}

    def to_dict(self) -> dict[str, Any]:
        """As stored: the token only as its hash."""
        return {
            "kind": self.kind,
            "name": self.name,
            "token_hash": self.token_hash,
            "account": self.account,
        }

    def holds(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(
            self.token_hash, token_hash(token)
        )

    @property
    def ledger(self) -> str:
        """Who pays and is paid for the seat at a money table: its account, or the
        house for a roster computer."""
        return HOUSE if self.account is None else account_ledger(self.account)


def roster_seat(seat: int, kind: str = ROSTER, name: str | None = None) -> SeatSpec:
    """A roster computer's seat, labelled as a bot."""
    return SeatSpec(kind, name or f"{kind} {seat + 1} {BOT_LABEL}")


def desk_seats(keys: Sequence[str | None], names: Mapping[str, str]) -> list[SeatSpec]:
    """A desk's table by player key (a tournament's entrants, a season's members): an
    account's seat is that person's, any other key a roster computer under its name,
    and None a roster computer of its own."""
    return [
        roster_seat(s, ROSTER)
        if key is None
        else SeatSpec(HUMAN, names[key], None, int(key[8:]))
        if key.startswith("account:")
        else roster_seat(s, ROSTER, names[key])
        for s, key in enumerate(keys)
    ]


def drawn_seats(seed: str, entrants: Sequence[T]) -> list[T]:
    """The entrants of a table with a bet in the seats they draw, seat by seat: an order
    drawn from the table's secret seed (committed before the deal, shown after it), so
    neither the creator nor the lobby's order chooses who deals first or who wins a tie
    the match breaks by seat."""

    def lot(entrant: int) -> bytes:
        return hmac.new(seed.encode(), f"seat:{entrant}".encode(), hashlib.sha256).digest()

    return [entrants[i] for i in sorted(range(len(entrants)), key=lot)]


def player_key(spec: SeatSpec, seat: int) -> str:
    """Who a seat's figures and rating belong to: an account, a roster computer (one
    per kind and seat, so four computers at a table are four players), or a guest."""
    if spec.account is not None:
        return f"account:{spec.account}"
    if spec.is_bot:
        return f"computer:{spec.kind}:{seat + 1}"
    return GUEST


# ---------------------------------------------------------------- plans


@dataclass(frozen=True, slots=True)
class Row:
    """A row to insert beside a table's own; ``duplicate`` is the refusal when one with
    its key exists already (a second Daily Wall attempt of the day)."""

    table: str
    values: Mapping[str, Any]
    duplicate: str | None = None


@dataclass(frozen=True, slots=True)
class Update:
    """Columns to set in the rows of ``table`` that match ``where``."""

    table: str
    where: Mapping[str, Any]
    values: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class OpenPlan:
    """What storage writes with a new table's row, in the same transaction."""

    rows: tuple[Row, ...] = ()
    transfers: tuple[Transfer, ...] = ()  # reserves into the table's escrow
    stakes: tuple[tuple[int, int], ...] = ()  # (account, chips) within the money limits
    dequeue: tuple[int, ...] = ()  # accounts that leave the rated queue
    offer: str | None = None  # the money offer the table opens from, closed with it


def opening(
    kind: Kind,
    table_id: str,
    seats: Sequence[SeatSpec],
    rules: RuleSet,
    bet: int = 0,
    rows: Sequence[Row] = (),
) -> OpenPlan:
    """The plan of a table's opening: who sits where (``rows`` adds a desk's own, each
    given the table's id), each seat's reserve at a money table, and at a rated table
    its people leave the queue."""
    seated = [(s, spec.account) for s, spec in enumerate(seats) if spec.account is not None]
    allowed = kind_rules(kind)
    # a table seated first holds its reserves already, in the escrow of its own id
    held = reserve(rules, bet) if bet and not allowed.seated_first else 0
    return OpenPlan(
        rows=(
            *(
                Row("players", {"table_id": table_id, "seat": s, "account_id": account})
                for s, account in seated
            ),
            *(Row(r.table, {"table_id": table_id, **r.values}, r.duplicate) for r in rows),
        ),
        transfers=tuple(Transfer(spec.ledger, escrow(table_id), held) for spec in seats)
        if held
        else (),
        stakes=tuple((account, held) for _, account in seated) if held else (),
        dequeue=tuple(account for _, account in seated) if allowed.rated else (),
        offer=table_id if allowed.seated_first else None,
    )


@dataclass(frozen=True, slots=True)
class SeatFinal:
    """One seat's figures at the end of a match, and who sat there."""

    player: str  # account:<id>, computer:<kind>:<seat> or guest
    name: str
    stats: dict[str, Any]  # riichi.game.stats.SeatStats as a dict


@dataclass(frozen=True, slots=True)
class Final:
    """How a match ended: stored with its last action, in the same transaction as what
    its end changes (``finishing``)."""

    finished: float
    standings: list[dict[str, Any]]
    seats: list[SeatFinal]
    feeder: int | None = None  # who dealt in the last winning tile (feeding penalty)
    hands: list[dict[str, Any]] = field(default_factory=list)  # riichi.game.stats.hand_changes


def standings_of(match: Match) -> list[dict[str, Any]] | None:
    """The final standings as plain data, once the match is over."""
    return None if match.standings is None else [asdict(s) for s in match.standings]


def final_of(match: Match, seats: Sequence[SeatSpec], finished: float) -> Final:
    """What is stored when ``match`` ends: its standings and every seat's figures."""
    standings = standings_of(match)
    assert standings is not None, "only a finished match has a final"
    return Final(
        finished,
        standings,
        [
            SeatFinal(player_key(seats[s.seat], s.seat), seats[s.seat].name, s.to_dict())
            for s in seat_stats(match)
        ],
        feeder=feeder_of(match),
        hands=hand_changes(match),
    )


def final_view(match: Match, bet: int = 0) -> list[dict[str, Any]] | None:
    """What the end of a match shows beside each seat's final points, by seat: under uma
    and oka what the points are made of (the score less the return, the oka, the uma;
    ``base`` takes the rounding, so the three add up to the points), and at a money
    table the chips the seat won or lost, as its settlement pays them. None before the
    end."""
    standings = match.standings
    if standings is None:
        return None
    rules = match.rules
    by_seat = sorted(standings, key=lambda x: x.seat)
    chips = (
        settle(rules, bet, [x.place for x in by_seat], [x.score for x in by_seat], feeder_of(match))
        if bet
        else None
    )
    out: list[dict[str, Any]] = []
    for x in by_seat:
        row: dict[str, Any] = {"seat": x.seat, "chips": None if chips is None else chips[x.seat]}
        if rules.settlement is Settlement.UMA_OKA:
            uma = rules.uma[x.place - 1] / 1000
            oka = rules.oka_points / 1000 if x.place == 1 else 0.0
            row.update(base=round(x.points - uma - oka, 1), oka=oka, uma=uma)
        out.append(row)
    return out


def feeder_of(match: Match) -> int | None:
    """Who dealt in the match's last winning tile (a feeding penalty's payer), if anyone."""
    last = match.results[-1] if match.results else None
    rons = [] if last is None else [source for _, source, _ in last.wins if source is not None]
    return rons[0] if rons else None


@dataclass(frozen=True, slots=True)
class FinishPlan:
    """What storage writes with a match's last action, in the same transaction."""

    stats: tuple[dict[str, Any], ...]  # each seat's figures: a game_stats row
    rating: tuple[tuple[str, str, int], ...]  # (player, name, place) to rate; () unrated
    transfers: tuple[Transfer, ...]  # a money table's settlement
    updates: tuple[Update, ...]
    rows: tuple[Row, ...] = ()  # a desk's rows, each given the table's id


def finishing(
    kind: Kind,
    table_id: str,
    seats: Sequence[SeatSpec],
    rules: RuleSet,
    bet: int,
    final: Final,
    stat_names: Sequence[str] | None = None,
) -> FinishPlan:
    """The plan of a match's end: every seat's figures (the columns ``stat_names``;
    None: every figure), the ratings of a rated table, a money table's settlement, a
    Daily Wall attempt's hands."""
    allowed = kind_rules(kind)
    stats = tuple(
        {
            "table_id": table_id,
            "seat": seat,
            "player": entry.player,
            "rated": allowed.rated,
            "finished": final.finished,
            "place": entry.stats["place"],
            "score": entry.stats["score"],
            "points": entry.stats["points"],
            **{
                name: entry.stats[name]
                for name in (entry.stats if stat_names is None else stat_names)
            },
        }
        for seat, entry in enumerate(final.seats)
    )
    rating = (
        tuple((e.player, e.name, e.stats["place"]) for e in final.seats) if allowed.rated else ()
    )
    transfers: tuple[Transfer, ...] = ()
    if bet:
        by_seat = sorted(final.standings, key=lambda x: x["seat"])
        transfers = tuple(
            table_settlement(
                table_id,
                [spec.ledger for spec in seats],
                rules,
                bet,
                [x["place"] for x in by_seat],
                [x["score"] for x in by_seat],
                final.feeder,
            )
        )
    updates: tuple[Update, ...] = ()
    if allowed.hands_to is not None:
        hands = {"hands": json.dumps(final.hands)}
        updates = (Update(allowed.hands_to, {"table_id": table_id}, hands),)
    rows: tuple[Row, ...] = ()
    if allowed.results_to is not None:
        rows = tuple(
            Row(
                allowed.results_to,
                {
                    "table_id": table_id,
                    "seat": x["seat"],
                    "place": x["place"],
                    "score": x["score"],
                    "pt": x["points"],
                    "finished": final.finished,
                },
            )
            for x in final.standings
        )
    return FinishPlan(stats, rating, transfers, updates, rows)
