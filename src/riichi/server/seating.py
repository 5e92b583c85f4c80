"""A table from a lobby request, and a stored table back as a match: the rules,
clock, seats and names a request asks for (each refused with a `ProtocolError` that
says why), a new table's row with its secret seed and commitment, and a stored
table's match rebuilt from its action log.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import Any

from riichi.bots import BOT_LABEL, make_bot
from riichi.errors import excerpt
from riichi.game import Action, Match, commitment
from riichi.game.kyoku import Kyoku
from riichi.platform import Pool
from riichi.platform.accounts import reserved
from riichi.platform.tables import (
    HUMAN,
    Kind,
    Row,
    SeatSpec,
    kind_name,
    opening,
    token_hash,
)
from riichi.rules import Length, RuleSet, find_ruleset
from riichi.server.protocol import ProtocolError
from riichi.server.storage import NewTable, Store, StoredTable

NAME_LENGTH = 24


def fresh_table(
    rules: RuleSet,
    seats: list[SeatSpec],
    kind: Kind,
    now: float,
    seed: str | None = None,
    bot_seed: str | None = None,
    rows: Sequence[Row] = (),
    table_id: str | None = None,
    **fields: Any,
) -> NewTable:
    """A new table's row and what is written with it (``opening``: who sits where,
    ``rows`` of a desk, a money table's reserves): a fresh id (unless given: a money
    offer's) and salt, the
    commitment to its seed (a secret random one unless given) and the bots' own
    secret stream (unless given)."""
    seed = seed or secrets.token_hex(16)
    salt = secrets.token_hex(16)
    table_id = table_id or secrets.token_hex(8)
    bet = int(fields.get("bet", 0))
    return NewTable(
        id=table_id,
        rules=rules.to_dict(),
        seed=seed,
        salt=salt,
        commitment=commitment(seed, salt),
        bot_seed=bot_seed or secrets.token_hex(16),
        seed_public=fields.pop("seed_public", False),
        seats=[s.to_dict() for s in seats],
        created=now,
        kind=kind_name(kind),
        plan=opening(kind, table_id, seats, rules, bet, rows),
        **fields,
    )


def person_name(given: str | None, seat: int) -> str:
    """A person's shown name: printable, at most 24 characters, never passing for a bot."""
    name = " ".join((given or "").split())
    if not name:
        return f"player {seat + 1}"
    if len(name) > NAME_LENGTH or not name.isprintable():
        raise ProtocolError(f"a name is at most {NAME_LENGTH} printable characters")
    why = reserved(name)
    if why is not None:
        raise ProtocolError(f"the name {excerpt(name)} is {why}")
    return name


def seat_specs(
    kinds: list[str], names: list[str | None] | None = None
) -> tuple[list[SeatSpec], list[str | None]]:
    """Seats from kinds (``"human"`` or a bot name), and each person's fresh secret token."""
    specs: list[SeatSpec] = []
    tokens: list[str | None] = []
    for seat, kind in enumerate(kinds):
        if kind == HUMAN:
            given = names[seat] if names and seat < len(names) else None
            token = secrets.token_urlsafe(16)
            specs.append(SeatSpec(HUMAN, person_name(given, seat), token_hash(token)))
            tokens.append(token)
        else:
            make_bot(kind)  # raises ValueError for an unknown bot
            specs.append(SeatSpec(kind, f"{kind} {seat + 1} {BOT_LABEL}"))
            tokens.append(None)
    return specs, tokens


def public_info(stored: StoredTable, seats: list[SeatSpec], rules: RuleSet) -> dict[str, Any]:
    """The facts about a table that never change and hide nothing: no seed, no token."""
    return {
        "id": stored.id,
        "kind": stored.kind,
        "pool": stored.pool,
        "rules": rules.name,
        "length": rules.length.value,
        "ruleset": rules.to_dict(),
        "seats": [s.public() for s in seats],
        "created": stored.created,
        "commitment": stored.commitment,
        "seed_chosen": stored.seed_public,
        "bet": stored.bet,
    }


def load_match(stored: StoredTable, store: Store) -> tuple[Match, list[SeatSpec]]:
    """A stored table's match, rebuilt from (rules, seed, seats) and its action log."""
    seats = [SeatSpec(**s) for s in stored.seats]
    match = Match(RuleSet.from_dict(stored.rules), stored.seed, [s.name for s in seats])
    for seat, action in store.load_actions(stored.id):
        match.apply(seat, Action.from_dict(action))
    return match, seats


def without_last(match: Match) -> Match:
    """``match`` as it stood before its last action (replayed from its start)."""
    replay = match.restarted()
    for seat, action in match.actions[:-1]:
        replay.apply(seat, action)
    return replay


def ended_hand(match: Match) -> Kyoku | None:
    """The last hand of ``match`` to have ended, as it stood at its end, rebuilt from the
    match's own actions (a live table keeps it; a reloaded one does not)."""
    if not match.hand_ends:
        return None
    replay = Match(match.rules, match.seed, match.players)
    stop = match.hand_ends[-1] - 1
    for seat, action in match.actions[:stop]:
        replay.apply(seat, action)
    kyoku = replay.kyoku
    replay.apply(*match.actions[stop])
    return kyoku


async def accounts_named(store: Store, names: list[str]) -> dict[str, int]:
    """The accounts a request names (an invitation), by name; a name no account has
    is refused."""
    found = await asyncio.to_thread(store.accounts.named, names)
    missing = [n for n in names if n not in found]
    if missing:
        raise ProtocolError(f"no account is called {excerpt(missing[0])}")
    return found


def clock_of(body: dict[str, Any], default: str) -> Pool:
    """The clock a request names (``default`` when it names none)."""
    name = body.get("clock", default)
    if not isinstance(name, str) or name not in {p.value for p in Pool}:
        raise ProtocolError(f"clock is untimed, standard or relaxed, got {excerpt(name)}")
    return Pool(name)


def rules_of(body: dict[str, Any]) -> RuleSet:
    """The preset, length and switches a lobby request names."""
    try:
        name = body.get("rules", "online")
        if not isinstance(name, str):
            raise ValueError(f"rules is a preset name, got {excerpt(name)}")
        rules = find_ruleset(name)
        length = body.get("length")
        if length:
            if not isinstance(length, str) or length not in {x.value for x in Length}:
                raise ValueError(
                    f"length {excerpt(length)} is not one of {', '.join(x.value for x in Length)}"
                )
            rules = rules.replace(length=Length(length))
        switches = body.get("switches") or {}
        if not isinstance(switches, dict):
            raise ValueError(f"switches is an object, got {excerpt(switches)}")
        if switches:
            rules = RuleSet.from_dict({**rules.to_dict(), **switches})
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None
    return rules
