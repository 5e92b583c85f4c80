"""Leagues: seasons of teams (people and roster computers) over scheduled rounds, the
schedule planned off the request path (``desk.LeagueDesk``)."""
