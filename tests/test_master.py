"""The master bot: expert, with a search over the tiles it has not seen where it
matters and expert's best options are close; its worlds hold only what the seat
could not see."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from riichi.bots import Agent, make_bot
from riichi.bots.master import LAST_MARGIN, MasterBot, choice
from riichi.bots.review import review_match
from riichi.bots.reviewers import reviewer_for
from riichi.bots.search import (
    World,
    answering,
    built_hand,
    option_values,
    passes_riichi,
    pending,
    play_out,
    resume,
    sample_world,
    unseen,
    worlds_for,
)
from riichi.game import ActionType, Match, Observation, observe
from riichi.game.kyoku import Kyoku, Phase, _waits_mask
from riichi.game.wall import Wall
from riichi.hand import shanten
from riichi.rules import Length, find_ruleset
from riichi.tiles import counts_of
from test_review import Drawer, expert_match, scrambled, seen_by


def expert_until(seed: int, steps: int, rules: str = "online") -> Match:
    """A match of four experts, ``steps`` actions in."""
    match = Match(find_ruleset(rules), seed, ["a", "b", "c", "d"])
    bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
    for _ in range(steps):
        seat = next(iter(match.legal_actions()))
        match.apply(seat, bots[seat].act(observe(match, seat)))
    return match


def first_turn(seed: int, when: Callable[[Observation], bool], after: int = 0) -> Match:
    """A match of four experts at the first decision after ``after`` actions at which
    the seat to decide sees ``when``."""
    match = expert_until(seed, after)
    bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
    while True:
        seat = next(iter(match.legal_actions()))
        obs = observe(match, seat)
        if when(obs):
            return match
        match.apply(seat, bots[seat].act(obs))


def own_turn(seed: int, after: int) -> Match:
    """The first turn after ``after`` actions at which a seat has just drawn."""
    return first_turn(
        seed, lambda obs: obs.drawn is not None and not obs.riichi[obs.current], after
    )


def test_the_master_is_a_labelled_agent() -> None:
    bot = make_bot("master", 1)
    assert isinstance(bot, Agent) and isinstance(bot, MasterBot)
    assert bot.name == "master (bot)"


def test_a_hand_taken_up_from_its_true_tiles_plays_on_as_the_hand_did() -> None:
    """The resumed hand is the engine's hand: given the true hidden tiles, the same
    actions give the same legal choices and the same result."""
    for seed, after in [(3, 30), (8, 95), (11, 160)]:
        match = own_turn(seed, after)
        k = match.kyoku
        seat = k.current
        plays_on_as_the_hand_did(match, observe(match, seat), seed)


def test_played_out_by_experts_from_its_true_tiles_a_hand_ends_as_it_did() -> None:
    """Played out by experts (the master's ``playout="expert"``), a hand taken up from
    its true hidden tiles is shown to each seat as the match shows it, so it ends with
    the same changes of score as the match played on by the same experts."""
    for seed, after in [(3, 30), (8, 95), (11, 160)]:
        match = own_turn(seed, after)
        obs = observe(match, match.kyoku.current)
        bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
        played = play_out(resume(obs, true_world(match.kyoku)), players=bots)
        before, hand = list(match.scores), len(match.results)
        while len(match.results) == hand:
            seat = next(iter(match.legal_actions()))
            match.apply(seat, bots[seat].act(observe(match, seat)))
        assert not match.over
        assert played == [a - b for a, b in zip(match.scores, before, strict=True)]
        assert any(played)  # somebody won, or paid for being not ready


def true_world(k: Kyoku) -> World:
    """The world as it truly lies."""
    return World(
        tuple(tuple(s.hand) for s in k.seats),
        tuple(k.live[k.draw_index :]),
        tuple(k.wall.rinshan),
        tuple(k.wall.dora),
        tuple(k.wall.ura),
    )


def plays_on_as_the_hand_did(match: Match, obs: Observation, seed: int) -> None:
    """Resumed from the true world where ``obs`` was seen, the same actions give the same
    legal choices as the match (a copy) and the hand the same result."""
    match = match.copy()
    copy = resume(obs, true_world(match.kyoku))
    pending(obs, copy)
    hand = len(match.results)
    bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
    while len(match.results) == hand:
        legal = match.legal_actions()
        assert copy.legal_actions() == legal
        s = next(iter(legal))
        action = bots[s].act(observe(match, s))
        match.apply(s, action)
        copy.apply(s, action)
    assert copy.phase is Phase.OVER and copy.result is not None
    assert copy.result.deltas == match.results[-1].deltas


def test_a_hand_taken_up_where_a_seat_may_call_plays_on_as_the_hand_did() -> None:
    """Where a seat may chi or pon a discard, the hand is taken up at the discarder's
    turn with the tile back in its hand, and let go again: the same seats are asked
    the same answers, and the hand goes on as it did. One of the discards is a
    riichi declaration, whose stick is paid only once nobody rons it."""
    declared = 0
    for seed in range(6):
        match = Match(find_ruleset("online"), seed, ["a", "b", "c", "d"])
        bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
        checked = 0
        while checked < 3:
            seat = next(iter(match.legal_actions()))
            obs = observe(match, seat)
            claim = answering(obs)
            if claim is not None and not match.kyoku.answers:  # the first seat asked
                plays_on_as_the_hand_did(match, obs, seed)
                checked += 1
                declared += claim[2]
            match.apply(seat, bots[seat].act(obs))
    assert declared >= 1


def check_worlds(obs: Observation, rng: random.Random, count: int) -> None:
    """Worlds drawn at ``obs`` hold exactly the tiles the seat has not seen, and every
    riichi hand ready and not furiten on its river."""
    seat = obs.seat
    assert seat is not None
    hidden = unseen(obs)
    for _ in range(count):
        world = sample_world(obs, rng)
        assert world.hands[seat] == obs.hand
        placed = [t for s, h in enumerate(world.hands) if s != seat for t in h]
        placed += world.live[: obs.live_left] + world.ura
        placed += world.dora[len(obs.dora_indicators) :]
        assert not Counter(placed) - Counter(hidden)  # nothing seen, nothing twice
        assert world.dora[: len(obs.dora_indicators)] == obs.dora_indicators
        for s in range(obs.rules.players):
            assert len(world.hands[s]) == obs.hand_sizes[s]
            if obs.riichi[s] and s != seat:
                counts = counts_of(world.hands[s])
                waits = _waits_mask(counts, len(obs.meld_tiles[s]))
                river = {t >> 2 for t, *_ in obs.discards[s]}
                assert waits and not any(waits >> k & 1 for k in river)


def test_a_world_holds_exactly_the_tiles_the_seat_has_not_seen() -> None:
    match = own_turn(0, 257)  # two seats in riichi
    obs = observe(match, match.kyoku.current)
    assert sum(obs.riichi) == 2
    check_worlds(obs, random.Random(1), 20)
    # and at every turn of a whole match, late hands and long rivers among them
    match = Match(find_ruleset("online").replace(length=Length.EAST), 4, ["a", "b", "c", "d"])
    bots = [make_bot("expert", f"4:{s}") for s in range(4)]
    rng = random.Random(2)
    while not match.over:
        seat = next(iter(match.legal_actions()))
        obs = observe(match, seat)
        if obs.drawn is not None:
            check_worlds(obs, rng, 2)
        match.apply(seat, bots[seat].act(obs))


def test_a_hand_drawn_as_built_lets_go_its_least_useful_tiles() -> None:
    """Thirteen tiles, then eight taken and the least useful let go each time: the
    hand ends nearer to ready than it began, whatever the suit holds."""
    manzu = list(range(36))  # every tile of one suit, in order: 1111m2222m...
    random.Random(3).shuffle(manzu)
    first = manzu[:13]
    built = built_hand(manzu, 13, 0, 8)
    assert len(built) == 13 and set(built) <= set(manzu[:21])
    assert shanten(counts_of(built)) <= shanten(counts_of(first))


def test_against_two_riichi_the_search_folds_a_hand_expert_pushes() -> None:
    """Seats 2 and 3 in riichi; seat 1 holds 13558m5678p99s with a pon of West and
    draws 1m. Expert keeps its small chance going with 8m; in the sampled worlds that
    deals in more than it wins, by more than the worlds' noise, and the master folds."""
    match = expert_until(0, 257)
    obs = observe(match, 1)
    assert obs.riichi == (False, False, True, True) and obs.drawn is not None
    expert = make_bot("expert", 0)
    push = expert.evaluate(obs)[0]  # type: ignore[attr-defined]
    assert push.win > 0 and push.action.type is ActionType.DISCARD
    master = MasterBot(0, rollouts=200)
    ordered = master.evaluate(obs)
    chosen = ordered[0]
    assert chosen.value == max(v.value for v in ordered if v.value is not None)
    assert chosen.win == 0  # an option expert itself values as folding
    assert master.searched is not None and push in master.searched.options
    searched = master.searched
    means = {o.action: m for o, m in zip(searched.options, searched.means, strict=True)}
    assert means[chosen.action] > means[push.action]
    # the first 200 worlds found the fold better, but not yet surely: it drew more
    assert searched.worlds == 400


def test_the_master_searches_where_a_hand_is_likely_ready_or_in_the_last_hand() -> None:
    """Early in East 1 with no one near ready, expert's choice stands unsearched;
    against a riichi, or in the match's last hand, the master searches."""
    master = MasterBot(0)
    quiet = own_turn(3, 4)
    obs = observe(quiet, quiet.kyoku.current)
    assert not any(obs.riichi) and obs.round_wind == 27 and obs.dealer == 0
    master.act(obs)
    assert not master.thinks(obs) and master.searched is None
    threatened = observe(expert_until(0, 257), 1)  # two seats in riichi
    assert master.thinks(threatened)
    last = observe(expert_until(235, 510), 1)  # South 4's first go-around: no threat
    assert last.round_wind == 28 and last.dealer == 3 and last.drawn is not None
    assert not any(last.riichi) and not master._scene(last).threats
    assert master.thinks(last)


def test_in_the_last_hand_the_master_plays_a_surer_first_place_over_points() -> None:
    """South 4: seat 1 leads on 40,000, seat 3 is on 35,000, and the last seat (6,900)
    is in riichi. Seat 1 holds 234m334p2345589s and draws 4z; expert lets the 4z go
    to keep its hand (a 16% chance at 2,570). Played out in the sampled worlds that
    wins more points on average than folding with the 3m, and keeps first less often:
    in the last hand places are all that count, and the master folds."""
    match = expert_until(235, 542)
    obs = observe(match, 1)
    assert (obs.round_wind, obs.dealer, obs.scores) == (28, 3, (6900, 40000, 17100, 35000))
    push = make_bot("expert", 0).evaluate(obs)[0]  # type: ignore[attr-defined]
    assert push.win > 0 and push.action.tile is not None and push.action.tile >> 2 == 30
    master = MasterBot(0, rollouts=300)
    chosen = master.evaluate(obs)[0]
    assert chosen.win == 0 and chosen.action.tile is not None and chosen.action.tile >> 2 == 2
    searched = master.searched
    assert searched is not None
    at = {o.action: i for i, o in enumerate(searched.options)}
    fold, kept = at[chosen.action], at[push.action]
    assert searched.points[kept] > searched.points[fold]  # the push: more points
    assert searched.means[fold] > searched.means[kept]  # the fold: the surer place
    assert searched.worlds == 300  # sure at the first batch: no more drawn


@pytest.mark.parametrize("playout", ["fast", "expert"])
def test_the_master_plays_only_legal_actions_and_the_same_way_for_a_seed(playout: str) -> None:
    """Whoever plays its worlds out: the fast policy, or experts."""
    rules = find_ruleset("daily-wall")  # one hand: its last, where every close turn is searched

    def played() -> list[tuple[int, object]]:
        """The hand's actions to its end, or to its fourth searched decision."""
        bots = [MasterBot(f"7:{s}", rollouts=4, batches=1, playout=playout) for s in range(4)]
        match, searched = Match(rules, 7, [b.name for b in bots]), 0
        while not match.over and searched < 4:
            seat = next(iter(match.legal_actions()))
            match.apply(seat, bots[seat].act(observe(match, seat)))
            searched += bots[seat].searched is not None
        assert searched == 4
        return list(match.actions)

    assert played() == played()


def test_a_playout_the_master_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="no playout 'greedy'"):
        MasterBot(playout="greedy")


def test_the_search_sees_only_what_the_seat_saw() -> None:
    """Move every tile seat 0 never saw anywhere else: the same public play, the same
    decisions, searched or not."""
    rules = find_ruleset("daily-wall")

    def one_hand(walls: list[Wall] | None, mine: list[object] | None) -> Match:
        match = Match(rules, 5, ["me", "b", "c", "d"], walls=walls)
        master, drawer = MasterBot(5, rollouts=6), Drawer()
        replay = iter(mine or ())
        searched = 0
        while not match.over:
            seat = next(iter(match.legal_actions()))
            obs: Observation = match.observe(seat)
            if seat == 0:
                action = master.act(obs)
                searched += master.searched is not None
                if mine is not None:
                    assert action == next(replay)
            else:
                action = drawer.act(obs)
            match.apply(seat, action)
        assert searched > 0
        return match

    first = one_hand(None, None)
    mine = [a for s, a in first.actions if s == 0]
    dealt = Wall.from_dict((first.record()["walls"] or [Wall.seeded(5, 0).to_dict()])[0])
    other = scrambled(dealt, seen_by(first, 0), random.Random(5))
    assert other.hands[1] != dealt.hands[1]
    one_hand([other], mine)


def test_the_master_reviews_on_experts_scale_with_its_search_first() -> None:
    """As a reviewer the master values on expert's scale: where it searched, its choice
    comes first and the options keep expert's units, so a loss is never negative."""
    match = expert_match("daily-wall", 3)
    by_expert = review_match(match, 0, reviewer_for("expert"))
    by_master = review_match(match, 0, reviewer_for("master"))
    assert by_master.reviewer.startswith("master ") and by_master.unit == "points"
    assert len(by_master.decisions) == len(by_expert.decisions) > 5
    assert all(d.loss is not None and d.loss >= 0 for d in by_master.decisions)


def test_in_the_last_hand_the_search_and_expert_are_weighed_together() -> None:
    """Before the last hand an option leaves expert's best only by beating it by two
    standard errors; in the last hand, by what the search and expert together value
    it above the best, when that is more than LAST_MARGIN, however wide the errors."""
    means, errors = [0.0, 900.0, 1200.0], [0.0, 800.0, 800.0]
    experts = [5000.0, 4700.0, 3700.0]
    assert choice(means, errors) == 0  # neither beats the best by two errors
    # together: the second 900 - 300 = 600 above, the third 1200 - 1300 = -100
    assert choice(means, errors, experts) == 1
    assert choice([0.0, 390.0, 0.0], errors, experts) == 0  # 90: not by the margin
    assert 390.0 - 300.0 < LAST_MARGIN < 410.0 - 300.0
    assert choice([0.0, 410.0, 0.0], errors, experts) == 1


def test_calls_are_searched_only_when_asked() -> None:
    """A chi or pon against the pass is expert's to decide unless the master is made
    with ``calls``; then the options are played out from the discard on."""
    match = Match(find_ruleset("online"), 0, ["a", "b", "c", "d"])
    bots = [make_bot("expert", f"0:{s}") for s in range(4)]
    searched = 0
    while searched < 3:
        seat = next(iter(match.legal_actions()))
        obs = observe(match, seat)
        if answering(obs) is not None:
            assert not MasterBot(0).thinks(obs)
            caller = MasterBot(0, calls=True, rollouts=8, batches=1)
            assert caller.thinks(obs)
            action = caller.act(obs)
            assert action in obs.legal
            if caller.searched is not None:
                assert caller.searched.worlds == 8
                searched += 1
        match.apply(seat, bots[seat].act(obs))


def test_a_riichi_passed_by_is_played_out_silent() -> None:
    """A seat that may declare riichi and lets the tile go silently has chosen to stay
    silent: played out so (``dama``), it never declares in any world, while the fast
    policy alone would declare at its next discard in some of them."""
    match = first_turn(5, lambda obs: any(a.type is ActionType.RIICHI for a in obs.legal))
    seat = match.kyoku.current
    obs = observe(match, seat)
    riichi = next(a for a in obs.legal if a.type is ActionType.RIICHI)
    assert riichi.tile is not None
    silent = next(a for a in obs.legal if a.type is ActionType.DISCARD and a.tile == riichi.tile)
    assert passes_riichi(obs, silent) and not passes_riichi(obs, riichi)
    declared = {True: 0, False: 0}
    for world in worlds_for(obs, 40, "dama"):
        for dama in (True, False):
            kyoku = resume(obs, world)
            kyoku.apply(seat, silent)
            play_out(kyoku, silent=seat if dama else None)
            declared[dama] += kyoku.seats[seat].riichi
    assert declared[True] == 0 and declared[False] > 0
    # the option values of the search play it so only when asked
    worlds = worlds_for(obs, 40, "dama")
    (quiet,) = option_values(obs, [(silent, False)], worlds, dama=True)
    (late,) = option_values(obs, [(silent, False)], worlds)
    assert quiet != late
