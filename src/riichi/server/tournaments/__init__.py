"""Tournaments: made, registered for, filled with computers, started and run round by
round (``desk.TournamentDesk``; the rounds planned off the request path)."""
