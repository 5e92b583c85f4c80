"""The ratings' part of a match's end, written in the transaction of its last action:
each seat's figures (a ``game_stats`` row) and, for a rated match, each player's new
rating with its row of history (``rate_match``, also what a recompute replays)."""

from __future__ import annotations

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from riichi.platform.ratings import Rating, rate
from riichi.platform.tables import GUEST, FinishPlan
from riichi.server.ratings.schema import game_stats, rating_history, ratings
from riichi.server.storage import StorageError, at_finish

FIGURES = [column.name for column in game_stats.columns]  # what a game_stats row holds


@at_finish
def write_figures_and_ratings(
    conn: Connection, table_id: str, plan: FinishPlan, finished: float
) -> None:
    for stats in plan.stats:
        conn.execute(insert(game_stats).values(**{k: stats[k] for k in FIGURES}))
    if plan.rating:
        rate_match(conn, table_id, finished, list(plan.rating))


def rate_match(
    conn: Connection, table_id: str, finished: float, seats: list[tuple[str, str, int]]
) -> None:
    """Apply one rated match to its players' ratings and record each change (a guest,
    who has no account, is rated as nobody)."""
    seats = [seat for seat in seats if seat[0] != GUEST]
    if len(seats) < 2:
        return
    keys = [player for player, _, _ in seats]
    if len(set(keys)) != len(keys):
        raise StorageError(f"table {table_id}: one player in two seats of a rated match")
    found = {
        row.player: Rating(row.mu, row.sigma, row.games)
        for row in conn.execute(select(ratings).where(ratings.c.player.in_(keys))).all()
    }
    after = rate([found.get(k, Rating()) for k in keys], [place for _, _, place in seats])
    for (player, name, place), new in zip(seats, after, strict=True):
        values = {
            "name": name,
            "computer": player.startswith("computer:"),
            "mu": new.mu,
            "sigma": new.sigma,
            "games": new.games,
            "shown": new.shown,
        }
        if player in found:
            conn.execute(update(ratings).where(ratings.c.player == player).values(**values))
        else:
            conn.execute(insert(ratings).values(player=player, **values))
        conn.execute(
            insert(rating_history).values(
                player=player,
                table_id=table_id,
                finished=finished,
                place=place,
                mu=new.mu,
                sigma=new.sigma,
                shown=new.shown,
            )
        )
