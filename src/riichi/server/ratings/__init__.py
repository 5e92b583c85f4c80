"""Ratings: the leaderboard, a player's page (rating history, figures, games) and the
comparison of two players; ``records.RecordStore`` reads what the end of a rated
match wrote and rebuilds every rating from the stored matches; ``match_end`` is what a match's end
writes of it (registered with storage when this package is imported)."""

from riichi.server.ratings import match_end as match_end  # registers its part
