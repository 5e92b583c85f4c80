"""Chips (002): what a money table reserves and how it settles, each rule as a test; the
ledger's books over random sequences of accounts, buy-ins, games and settlements."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riichi.platform.chips import (
    BANK,
    HOUSE,
    START_CHIPS,
    ChipError,
    Transfer,
    balances,
    check_money_rules,
    escrow,
    feeding_penalty,
    odd_chips,
    proportional,
    reserve,
    settle,
    table_settlement,
)
from riichi.platform.tables import (
    Final,
    SeatFinal,
    SeatSpec,
    TableKind,
    drawn_seats,
    final_of,
    final_view,
    finishing,
    opening,
)
from riichi.platform.tournaments import payouts
from riichi.rules import Length, RuleSet, Settlement, find_ruleset
from riichi.server import Store
from riichi.server.money.ledger import ChipStore
from riichi.server.ratings.schema import STAT_COLUMNS
from riichi.server.storage import ChipsShort, NewTable, balance, post

WTA = find_ruleset("riichi-basic").replace(
    settlement=Settlement.WINNER_TAKES_ALL, length=Length.ONE_HAND
)
HOUSE_RULES = find_ruleset("riichi-basic").replace(settlement=Settlement.HOUSE)


# ----------------------------------------------------------------- winner takes all


def test_winner_takes_the_whole_pot() -> None:
    east = WTA.replace(length=Length.EAST)
    assert settle(east, 100, [2, 1, 4, 3], [20000, 50000, 10000, 20000], None) == [
        -100,
        300,
        -100,
        -100,
    ]


def test_the_feeder_pays_extra_and_the_other_losers_that_much_less() -> None:
    """002: the discarder of the winning tile pays the feeding penalty, the players who
    did not discard it pay less by the penalty divided among them."""
    assert feeding_penalty(WTA, 100) == 50
    won = settle(WTA, 100, [1, 2, 3, 4], [33000, 25000, 25000, 17000], feeder=3)
    assert won == [300, -75, -75, -150]
    assert sum(won) == 0


def test_no_feeding_penalty_on_a_tsumo_or_in_a_longer_game() -> None:
    assert settle(WTA, 100, [1, 2, 3, 4], [34000, 22000, 22000, 22000], None) == [
        300,
        -100,
        -100,
        -100,
    ]
    assert feeding_penalty(WTA.replace(length=Length.EAST), 100) == 0


def test_a_single_hand_table_reserves_the_bet_and_the_feeding_penalty() -> None:
    """002: the buy-in plus the feeding penalty is reserved; only the feeder loses it all."""
    assert reserve(WTA, 100) == 150
    won = settle(WTA, 100, [1, 2, 3, 4], [33000, 25000, 25000, 17000], feeder=3)
    assert min(won) == -reserve(WTA, 100)


def test_the_penalty_is_whole_chips_the_others_can_share() -> None:
    assert feeding_penalty(WTA, 33) == 16  # 50% of 33 is 16.5: 16, shared 8 and 8
    won = settle(WTA, 33, [1, 2, 3, 4], [33000, 25000, 25000, 17000], feeder=3)
    assert won == [99, -25, -25, -49]


def test_a_tie_for_first_shares_the_pot_equally_whatever_the_seats() -> None:
    """The match places a tie by seat; the money does not: equal scores share."""
    tied = settle(
        WTA.replace(length=Length.EAST), 100, [1, 2, 3, 4], [30000, 30000, 20000, 20000], None
    )
    assert tied == [100, 100, -100, -100]
    # the same tie with the seats the other way round pays the same
    swapped = settle(
        WTA.replace(length=Length.EAST), 100, [3, 4, 1, 2], [20000, 20000, 30000, 30000], None
    )
    assert swapped == [-100, -100, 100, 100]


def test_four_equal_scores_give_every_bet_back() -> None:
    """An exhaustive draw without noten payments leaves 25,000 each: nobody is paid."""
    assert settle(WTA, 1000, [1, 2, 3, 4], [25000] * 4, None) == [0, 0, 0, 0]
    assert settle(HOUSE_RULES, 1000, [1, 2, 3, 4], [25000] * 4, None) == [0, 0, 0, 0]


def test_three_tied_for_first_share_the_pot_and_the_odd_chip_is_the_houses() -> None:
    won = settle(WTA.replace(length=Length.EAST), 100, [1, 2, 3, 4], [30000] * 3 + [10000], None)
    assert won == [33, 33, 33, -100] and odd_chips(won) == 1
    paid = table_settlement(
        "t", ["a", "b", "c", "d"], WTA, 100, [1, 2, 3, 4], [30000] * 3 + [10000], None
    )
    assert [t for t in paid if t.target == HOUSE] == [Transfer(escrow("t"), HOUSE, 1)]


def test_the_feeding_penalty_goes_to_the_losers_who_did_not_feed_beside_a_tie() -> None:
    won = settle(WTA, 100, [1, 2, 3, 4], [33000, 33000, 17000, 17000], feeder=3)
    assert won == [100, 100, -50, -150]


def test_a_money_table_changes_only_the_listed_switches() -> None:
    """A creator may not choose switches that make ties likelier (no noten payment, no
    riichi stick) or move chips between places (the feeding penalty)."""
    check_money_rules(WTA.replace(red_fives=0, kuitan=False), 100)
    for switch, value in [("noten_payment", 0), ("riichi_stick", 0), ("feeding_penalty", 0)]:
        with pytest.raises(
            ChipError, match=f"keeps riichi-basic.s {switch}; it may change only settlement"
        ):
            check_money_rules(WTA.replace(**{switch: value}), 100)
    check_money_rules(find_ruleset("online").replace(noten_payment=0), 0)  # no bet: any


def test_seats_at_a_table_with_a_bet_are_drawn_from_the_seed() -> None:
    entrants = ["person", "cpu 1", "cpu 2", "cpu 3"]
    assert drawn_seats("a seed", entrants) == drawn_seats("a seed", entrants)
    assert sorted(drawn_seats("a seed", entrants)) == sorted(entrants)
    firsts = Counter(drawn_seats(f"seed {i}", entrants).index("person") for i in range(400))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 70  # ~100 each


# ----------------------------------------------------------------- house rules


def test_house_rules_split_the_pot_by_end_score_plus_the_placement_bonus() -> None:
    """002's example: 70,000 against three 10,000 takes 70% of the pot; last pays first,
    third pays second."""
    won = settle(HOUSE_RULES, 1000, [1, 2, 3, 4], [70000, 40000, 20000, 10000], None)
    pot_share = [2000, 1143, 571, 286]  # 4,000 by 70:40:20:10, the odd chip to the largest
    bonus = [200, 100, -100, -200]
    assert won == [s - 1000 + b for s, b in zip(pot_share, bonus, strict=True)]
    # 002's own example ties the other three: they share places 2 to 4's bonuses
    # (100 - 100 - 200 = -200) equally, and the chip that cannot be split is the house's
    won = settle(HOUSE_RULES, 1000, [1, 2, 3, 4], [70000, 10000, 10000, 10000], None)
    assert won == [2800 - 1000 + 200, *[400 - 1000 - 67] * 3]
    assert odd_chips(won) == 1


def test_house_rules_reserve_the_bet_and_the_larger_bonus() -> None:
    assert reserve(HOUSE_RULES, 1000) == 1200
    won = settle(HOUSE_RULES, 1000, [1, 2, 3, 4], [100000, 2000, 1000, 0], None)
    assert won[3] == -1200  # the full reserve, lost only by last with nothing left


def test_three_players_last_pays_first() -> None:
    sanma = find_ruleset("sanma-kansai").replace(settlement=Settlement.HOUSE)
    won = settle(sanma, 300, [1, 2, 3], [60000, 30000, 15000], None)
    # shares of 900 by 60:30:15 are 514.3, 257.1, 128.6
    assert won == [514 - 300 + 60, 257 - 300, 129 - 300 - 60]


def test_a_bet_needs_a_chip_settlement() -> None:
    with pytest.raises(ChipError, match="needs one of winner-takes-all, house"):
        check_money_rules(find_ruleset("online"), 100)
    check_money_rules(find_ruleset("online"), 0)
    with pytest.raises(ChipError):
        check_money_rules(WTA, -1)


def test_proportional_shares_are_whole_and_sum_to_the_total() -> None:
    assert proportional(100, [1, 1, 1]) == [34, 33, 33]
    assert proportional(10, [0, 0]) == [5, 5]
    assert sum(proportional(997, [13, 29, 31, 7])) == 997


@given(
    st.sampled_from([WTA, WTA.replace(length=Length.EAST), HOUSE_RULES]),
    st.integers(0, 5000),
    st.permutations([1, 2, 3, 4]),
    st.lists(st.integers(-30000, 120000), min_size=4, max_size=4),
    st.one_of(st.none(), st.integers(0, 3)),
)
def test_no_seat_loses_more_than_it_reserved_and_the_pot_is_shared_exactly(
    rules: Any, bet: int, places: list[int], scores: list[int], feeder: int | None
) -> None:
    won = settle(rules, bet, places, scores, feeder)
    # a tie's odd chips: fewer than the seats sharing, in the pot's split and the bonuses'
    assert 0 <= odd_chips(won) < 2 * 4
    assert all(w >= -reserve(rules, bet) for w in won)
    paid = table_settlement("t", ["a", "b", "c", "d"], rules, bet, places, scores, feeder)
    assert sum(t.amount for t in paid) == 4 * reserve(rules, bet)
    assert sum(t.amount for t in paid if t.target == HOUSE) == odd_chips(won)


# ----------------------------------------------------------------- the books


@pytest.mark.parametrize("settlement", ["winner-takes-all", "house"])
@pytest.mark.parametrize("seed", ["end-1", "end-2", "end-3"])
def test_the_chips_shown_at_the_end_are_what_the_settlement_pays(
    seed: str, settlement: str
) -> None:
    import random

    from game_helpers import play_random
    from riichi.game import Match

    rules = find_ruleset("riichi-basic").replace(
        settlement=Settlement(settlement), length=Length.ONE_HAND
    )
    match = Match(rules, seed, ["a", "b", "c", "d"])
    play_random(match, random.Random(seed))
    seats = [SeatSpec("human", name, account=i + 1) for i, name in enumerate("abcd")]
    plan = finishing(TableKind.PRIVATE, "t", seats, rules, 300, final_of(match, seats, 0.0), [])
    paid = {t.target: t.amount for t in plan.transfers}
    shown = final_view(match, 300)
    assert shown is not None
    held = reserve(rules, 300)
    assert [row["chips"] for row in shown] == [
        paid.get(f"account:{s + 1}", 0) - held for s in range(4)
    ]
    assert sum(row["chips"] for row in shown) == 0
    assert "uma" not in shown[0]  # points in bets, not uma and oka


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("tenhou", {"length": Length.EAST}),
        ("tenhou", {"length": Length.EAST, "round_final_points": True}),
        ("mahjongsoul", {"length": Length.EAST}),
        ("classic", {"length": Length.ONE_HAND}),
        ("sanma-kansai", {"length": Length.ONE_HAND}),
    ],
)
def test_final_points_are_the_score_less_the_return_plus_oka_and_uma(
    preset: str, changes: dict[str, Any]
) -> None:
    import random

    from game_helpers import play_random
    from riichi.game import Match

    rules = find_ruleset(preset).replace(**changes)
    match = Match(rules, "breakdown", ["a", "b", "c", "d"][: rules.players])
    play_random(match, random.Random(7))
    shown = final_view(match)
    assert match.standings is not None and shown is not None
    for x in match.standings:
        row = shown[x.seat]
        assert row["chips"] is None
        assert row["base"] + row["oka"] + row["uma"] == pytest.approx(x.points)
        assert row["uma"] == rules.uma[x.place - 1] / 1000
        assert row["oka"] == (rules.oka_points / 1000 if x.place == 1 else 0)
        exact = (x.score - rules.return_points) / 1000
        if not rules.round_final_points:
            assert row["base"] == pytest.approx(round(exact, 1))
        elif x.place > 1:  # the score rounded to whole thousands first
            assert row["base"] == int(row["base"]) and abs(row["base"] - exact) <= 0.5


def test_a_transfer_moves_a_positive_amount_between_two_accounts() -> None:
    with pytest.raises(ChipError):
        Transfer("a", "a", 5)
    with pytest.raises(ChipError):
        Transfer("a", "b", 0)
    assert balances([Transfer(BANK, "a", 5), Transfer("a", "b", 2)]) == {
        BANK: -5,
        "a": 3,
        "b": 2,
    }


Step = tuple[str, int, int]
steps = st.lists(
    st.tuples(
        st.sampled_from(["account", "table", "tournament", "finish", "void"]),
        st.integers(0, 5000),
        st.integers(0, 2**16),
    ),
    max_size=25,
)


def final(table_id: str, places: list[int], feeder: int | None) -> Final:
    """How a four-seat match ended, as the server stores it."""
    scores = [25000 + 5000 * (4 - p) for p in places]
    figures = dict.fromkeys(STAT_COLUMNS, 0)
    return Final(
        1.0,
        [{"seat": s, "place": places[s], "score": scores[s], "points": 0.0} for s in range(4)],
        [
            SeatFinal(
                "guest", "p", {**figures, "place": places[s], "score": scores[s], "points": 0.0}
            )
            for s in range(4)
        ],
        feeder=feeder,
    )


def money_table(
    table_id: str, account: int, rules: RuleSet, bet: int, created: float = 0.0
) -> NewTable:
    """A money table's row as the server makes it: the account in seat 0 against three
    roster computers, each seat's reserve held by its backer."""
    seats = [SeatSpec("human", "p", None, account), *[SeatSpec("expert", "c (bot)")] * 3]
    return NewTable(
        id=table_id,
        rules=rules.to_dict(),
        seed="s",
        salt="x",
        commitment="y",
        bot_seed="b",
        seed_public=False,
        seats=[s.to_dict() for s in seats],
        created=created,
        pool="standard",
        bet=bet,
        plan=opening(TableKind.PRIVATE, table_id, seats, rules, bet),
    )


@settings(max_examples=25, deadline=None)
@given(plan=steps)
def test_random_buy_ins_games_and_settlements_keep_the_books(
    tmp_path_factory: pytest.TempPathFactory, plan: list[Step]
) -> None:
    """Through the server's store: accounts opened, money tables opened (or refused for
    want of chips), finished with their settlement or voided, tournament pots paid in
    and out; after every step the books sum to zero, the bank has issued exactly the
    accounts' chips, nobody is below zero and no settled escrow holds a chip."""
    path: Path = tmp_path_factory.mktemp("books")
    store = Store(f"sqlite:///{path / 'books.db'}")
    chips = ChipStore(store.engine)
    people: list[int] = []
    live: list[tuple[str, RuleSet, int]] = []
    try:
        for made, (kind, amount, pick) in enumerate(plan):
            if kind == "account" or not people:
                people.append(store.accounts.create_account(f"p{made}", f"p{made}", "x", 0.0).id)
            who = f"account:{people[pick % len(people)]}"
            if kind == "table":
                rules = WTA if pick % 2 else HOUSE_RULES
                new = money_table(f"t{made}", int(who[8:]), rules, amount)
                before = chips.balances()
                try:
                    store.create_table(new)
                    live.append((new.id, rules, amount))
                except ChipsShort:
                    assert chips.balances() == before  # refused: nothing moved
            elif kind == "finish" and live:
                table_id, rules, bet = live.pop(pick % len(live))
                places = [1 + (pick + s) % 4 for s in range(4)]
                store.finish(table_id, final(table_id, places, pick % 4 if pick % 3 else None))
            elif kind == "void" and live:
                chips.void_table(live.pop(pick % len(live))[0], 0.0)
            elif kind == "tournament":
                ref = f"tour{made}"
                entered = [f"account:{p}" for p in people[: 1 + pick % len(people)]]
                with store.engine.begin() as conn:
                    paid_in = [p for p in entered if amount and balance(conn, p) >= amount]
                    for player in paid_in:
                        post(conn, ref, [Transfer(player, escrow(ref), amount)], 0.0)
                    shares = payouts(amount * len(paid_in), [60, 40], paid_in)
                    post(conn, ref, [Transfer(escrow(ref), p, a) for p, a in shares.items()], 0.0)
            books = chips.balances()
            assert sum(books.values()) == 0
            assert books.get(BANK, 0) == -START_CHIPS * len(people)
            assert chips.audit() == [], chips.audit()
        for table_id, rules, bet in live:  # what is still in play is held, to the chip
            assert chips.balance(escrow(table_id)) == 4 * reserve(rules, bet)
    finally:
        store.close()


# ----------------------------------------------------------------- through the server


def test_money_tables_refuse_what_they_cannot_hold_and_move_nothing(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from riichi.server import create_app
    from riichi.server.clock import FakeClock

    app = create_app(f"sqlite:///{tmp_path / 'm.db'}", clock=FakeClock())
    wta = {"rules": "riichi-basic", "switches": {"settlement": "winner-takes-all"}}
    bots = ["human", "expert", "expert", "expert"]  # the roster computer the house backs
    timed = {**wta, "seats": bots, "clock": "standard"}
    with TestClient(app) as client:
        guest = client.post("/api/tables", json={**timed, "bet": 100})
        assert guest.status_code == 400 and "signed-in" in guest.json()["error"]
        client.post("/api/register", json={"name": "payer", "password": "correct horse"})
        cases = [
            ({"rules": "online", "seats": bots, "clock": "standard", "bet": 100}, "needs one of"),
            ({**timed, "seats": ["human", "human", "expert", "expert"], "bet": 100}, "roster"),
            ({**timed, "bet": -5}, "whole number"),
            ({**timed, "bet": True}, "whole number"),
            ({**timed, "bet": 10_001}, "from 1 to 5000"),
        ]
        for body, message in cases:
            refused = client.post("/api/tables", json=body)
            assert refused.status_code == 400 and message in refused.json()["error"], body
        assert client.get("/api/chips").json()["balance"] == START_CHIPS
        assert app.state.server.desk(ChipStore).balances() == {
            BANK: -START_CHIPS,
            "account:1": START_CHIPS,
        }
        made = client.post("/api/tables", json={**timed, "bet": 1000})
        assert made.status_code == 201
        statement = client.get("/api/chips").json()
        assert statement["balance"] == START_CHIPS - 1000
        assert statement["statement"]["items"][0]["amount"] == -1000
        assert app.state.server.desk(ChipStore).balance(escrow(made.json()["id"])) == 4000
        # a single hand holds the bet and the feeding penalty: 7,500 of the 9,000 left
        single = {**timed, "length": "one-hand", "bet": 5000}
        assert client.post("/api/tables", json=single).status_code == 201
        short = client.post("/api/tables", json={**timed, "bet": 100})
        assert short.status_code == 400  # two money tables in play: the limit
        assert client.get("/api/chips").json()["balance"] == START_CHIPS - 1000 - 7500


def test_an_older_database_gives_its_accounts_their_starting_chips(tmp_path: Path) -> None:
    from server_helpers import older_database

    account = (
        "insert into accounts (name, name_key, password_hash, created) values (?, ?, ?, ?)",
        ("old", "old", "x", 1.0),
    )
    url = older_database(tmp_path / "old.db", "0004", account)
    store = Store(url)
    try:
        chips = ChipStore(store.engine)
        assert chips.balances() == {BANK: -START_CHIPS, "account:1": START_CHIPS}
        assert chips.audit() == []
    finally:
        store.close()


def test_a_money_table_whose_log_cannot_replay_is_voided_and_gives_back_its_escrow(
    tmp_path: Path,
) -> None:
    from sqlalchemy import insert
    from starlette.testclient import TestClient

    from riichi.server import create_app
    from riichi.server.clock import FakeClock
    from riichi.server.storage import actions

    url = f"sqlite:///{tmp_path / 'v.db'}"
    body = {
        "rules": "riichi-basic",
        "switches": {"settlement": "house"},
        "seats": ["human", "expert", "expert", "expert"],
        "clock": "relaxed",
        "bet": 500,
    }
    with TestClient(create_app(url, clock=FakeClock())) as client:
        client.post("/api/register", json={"name": "voided", "password": "correct horse"})
        table = client.post("/api/tables", json=body).json()
        assert client.get("/api/chips").json()["balance"] == START_CHIPS - 600
    store = Store(url)
    with store.engine.begin() as conn:  # a gap in the log: it can never be replayed
        conn.execute(insert(actions).values(table_id=table["id"], seq=99, seat=0, action="{}"))
    store.close()
    with TestClient(create_app(url, clock=FakeClock())) as client:
        client.post("/api/signin", json={"name": "voided", "password": "correct horse"})
        hub = client.app.state.server  # type: ignore[attr-defined]
        for _ in range(200):
            stored = hub.store.get_table(table["id"])
            if stored.status != "live":
                break
            time.sleep(0.02)
        assert stored.status == "void"
        assert client.get("/api/chips").json()["balance"] == START_CHIPS
        assert hub.desk(ChipStore).balance(escrow(table["id"])) == 0
