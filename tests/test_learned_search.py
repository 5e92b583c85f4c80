"""The learned player with the master's search on top (``learned-search``)."""

from __future__ import annotations

from riichi.bots import make_bot
from riichi.bots.learned import LearnedBot
from riichi.bots.learned_search import LearnedSearchBot
from riichi.game import Match, observe
from riichi.rules import find_ruleset


def test_the_search_sits_on_the_learned_choice_and_plays_the_same_for_a_seed() -> None:
    """One hand, its match's last (where every close turn is searched): where it does
    not search it plays what the learned player plays; where it does, the learned
    choice is the one the search weighs first; the same actions for the same seed."""
    rules = find_ruleset("daily-wall")

    def played() -> tuple[list[object], int]:
        bots = [LearnedSearchBot(f"3:{s}", rollouts=4, batches=1) for s in range(4)]
        plain = [LearnedBot(f"3:{s}") for s in range(4)]
        match, searched = Match(rules, 3, [b.name for b in bots]), 0
        while not match.over and searched < 4:
            seat = next(iter(match.legal_actions()))
            obs = observe(match, seat)
            action = bots[seat].act(obs)
            found = bots[seat].searched
            learned = plain[seat].act(obs)
            if found is None:
                assert action == learned
            else:
                searched += 1
                assert found.options[0].action == learned
            assert action in match.legal_actions()[seat]
            match.apply(seat, action)
        assert searched == 4
        return list(match.actions), searched

    assert played() == played()
    assert make_bot("learned-search").name == "learned-search (bot)"
