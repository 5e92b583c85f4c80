"""A red five is not a plain five: letting it go, riichi on it and a call that uses it
are choices of their own, valued apart wherever the bots and the reviewer weigh
discards, and told apart when a review compares what was played with its options."""

from __future__ import annotations

from game_helpers import arranged_wall
from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.review import review_match
from riichi.bots.reviewers import ExpertReviewer, same
from riichi.game import Action, ActionType, Match, observe
from riichi.rules import find_ruleset
from riichi.tiles import P5, S5, is_red, parse_tiles
from test_bots import discard_kind, start
from test_conformance import CORPUS, needs_corpus

RED_5P, PLAIN_5P = parse_tiles("0p")[0], parse_tiles("5p")[0]


def fives(options: list[Valued], kind: int, wanted: ActionType) -> dict[bool, Valued]:
    """The options of ``wanted`` on ``kind``, by red (True) or plain."""
    return {
        is_red(o.action.tile, 3): o
        for o in options
        if o.action.type is wanted and o.action.tile is not None and o.action.tile >> 2 == kind
    }


# 0p 5p 6p 7p: either five may go and the hand stays ready (on 1s-4s); the red one
# is a han the hand keeps otherwise
READY_ON_EITHER_FIVE = ["456m789s23s0p567p1z", "", "", ""]


def test_letting_the_red_five_go_is_an_option_of_its_own_worth_less() -> None:
    m = start(READY_ON_EITHER_FIVE, ["1z"])
    options = ExpertBot(0).evaluate(observe(m, 0))
    by_red = fives(options, P5, ActionType.DISCARD)
    assert set(by_red) == {True, False}  # both copies weighed
    red, plain = by_red[True], by_red[False]
    assert red.value is not None and plain.value is not None
    assert red.value < plain.value  # the red five is a han the hand keeps otherwise
    assert ExpertBot(0).act(observe(m, 0)).tile != RED_5P


def test_riichi_on_the_red_five_is_weighed_apart_from_riichi_on_the_plain_one() -> None:
    # 0p 4p 5p: letting either five go is ready on 3p-6p; keeping the red is a han more
    m = start(["123456m789s045p1z", "", "", ""], ["1z"])
    options = ExpertBot(0).evaluate(observe(m, 0))
    by_red = fives(options, P5, ActionType.RIICHI)
    assert set(by_red) == {True, False}
    assert by_red[True].value is not None and by_red[False].value is not None
    assert by_red[True].value < by_red[False].value
    assert options.index(by_red[False]) < options.index(by_red[True])


def test_a_pon_with_the_red_five_and_one_without_are_two_choices() -> None:
    # seat 1 holds 0p 5p 5p; the dealer lets the last 5p go
    m = start(["5p1m2m3m4m6m7m8m9m1s2s3s4s", "055p123m456s789s1z", "", ""], ["7z"])
    discard_kind(m, P5)
    obs = observe(m, 1)
    pons = [a for a in obs.legal if a.type is ActionType.PON]
    assert len(pons) == 2 and {any(is_red(t, 3) for t in a.tiles) for a in pons} == {True, False}
    with_red = next(a for a in pons if any(is_red(t, 3) for t in a.tiles))
    without = next(a for a in pons if a is not with_red)
    assert not same(with_red, without, 3)  # the reviewer tells them apart
    weighed = [v.action for v in ExpertBot(0).evaluate(obs)]
    assert with_red in weighed and without in weighed


def test_the_reviewer_compares_red_and_plain_only_where_the_rules_have_red_fives() -> None:
    red, plain = Action(ActionType.DISCARD, RED_5P), Action(ActionType.DISCARD, PLAIN_5P)
    assert not same(red, plain, 3)
    assert same(red, plain, 0)  # without red fives copy 0 is a plain five
    other_plain = Action(ActionType.DISCARD, parse_tiles("5p", {PLAIN_5P})[0])
    assert same(plain, other_plain, 3)  # which plain copy changes nothing


def test_a_review_tells_a_riichi_on_the_red_five_from_one_on_the_plain_five() -> None:
    """Riichi on the red five where expert declares on the plain one: before, the
    review counted it as expert's own choice, with nothing lost."""
    m = start(READY_ON_EITHER_FIVE, ["1z"])
    red = next(a for a in m.legal_actions()[0] if a.type is ActionType.RIICHI and a.tile == RED_5P)
    m.apply(0, red)
    decision = review_match(m, 0, ExpertReviewer()).decisions[0]
    assert decision.played == red
    best = decision.best.action
    assert best.type is ActionType.RIICHI and best.tile is not None and best.tile >> 2 == P5
    assert not is_red(best.tile, 3)
    assert not decision.top and not decision.agrees
    mine = next(o for o in decision.options if o.action == red)
    assert decision.best.value is not None and mine.value is not None
    assert decision.loss == decision.best.value - mine.value > 1000  # a han's worth


def test_three_players_weigh_the_red_fives_apart_too() -> None:
    sanma = find_ruleset("tenhou-sanma")
    hands = ["999m789p23p0s567s1z", "", ""]
    m = Match(sanma, 0, walls=[arranged_wall(hands, ["1z"], players=3, replacements=8)] * 10)
    options = ExpertBot(0).evaluate(observe(m, 0))
    by_red = fives(options, S5, ActionType.DISCARD)
    assert set(by_red) == {True, False}
    assert by_red[True].value is not None and by_red[False].value is not None
    assert by_red[True].value < by_red[False].value


@needs_corpus
def test_a_real_phoenix_game_where_the_red_five_went_is_valued_as_the_red_five() -> None:
    """E3-3 of a Phoenix game: holding 0m and 5m, the player let the red 5m go. The
    review values that discard as the red five's, apart from the plain five's."""
    from riichi.formats.replay import load_match

    path = CORPUS / "mjx" / "tenhou_xml" / "2020051716gm-00a9-0000-7f8226dd.mjlog"
    _, match = load_match(path.read_bytes(), str(path))
    review = review_match(match, 1, ExpertReviewer())
    decision = next(
        d
        for d in review.decisions
        if d.round == "E3-3" and d.played.tile is not None and d.played_text == "discard 0m"
    )
    assert "05" in decision.tiles  # the red five beside a plain one
    by_text = {o.text: o for o in decision.options}
    red, plain = by_text["discard 0m"], by_text["discard 5m"]
    assert red.value is not None and plain.value is not None and red.value <= plain.value
    assert decision.best.value is not None
    assert decision.loss == decision.best.value - red.value  # the red five's loss, not the plain's
    assert not decision.top


def test_what_a_discard_gives_reads_danger_as_expert_weighs_it() -> None:
    """The review's danger for each seat in riichi is expert's own reading of that
    seat's river (its counts of tiles seen, what it cannot ron): a tile the riichi let
    go itself is safe, and the chances are those expert's risk is made of."""
    from riichi.bots.review import what_gives
    from test_expert import seat_1_riichi
    from test_game_rules import tsumogiri

    hands = ["456p258m369s2346z", "234567m234p6799s", "", ""]
    quiet = [kind for kind in ("1m", "1p", "1s", "5z", "7z") for _ in range(4)]
    m = seat_1_riichi(hands, [*quiet, "8p", "5p", "3m", "9m"], 5)
    tsumogiri(m, 2)
    tsumogiri(m, 3)
    obs = observe(m, 0)
    gives = what_gives(obs)
    expert = ExpertBot("review")
    scene = expert._scene(obs)
    riichi = next(t for t in scene.threats if t.seat == 1)
    for kind, given in gives.items():
        chances = dict(given.danger)
        assert set(chances) == {1}  # only the seat in riichi: nobody else has called
        wanted = riichi.ready * expert.deal_in(obs, 1, kind, scene.out, scene.safe[1])
        assert chances[1] == wanted
    own = {tile >> 2 for tile, *_ in obs.discards[1]}
    assert all(dict(g.danger)[1] == 0 for k, g in gives.items() if k in own)
    assert any(dict(g.danger)[1] > 0 for g in gives.values())
