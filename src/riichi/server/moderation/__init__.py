"""Moderation: what an operator does to keep the site fair and civil (suspend and
restore an account, void a rated game, refund or charge chips, close a table, rename
an account), each act written with the moderation log's row in one transaction
(``store.ModerationStore``); and players' reports of one another from a finished game,
queued for the operators' page."""
