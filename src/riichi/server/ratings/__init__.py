"""Ratings: the leaderboard, a player's page (rating history, figures, games) and the
comparison of two players; ``records.RecordStore`` reads what the end of a rated
match wrote and rebuilds every rating from the stored matches."""
