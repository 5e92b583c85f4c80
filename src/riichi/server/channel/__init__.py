"""The personal channel: a signed-in person's websocket (``/ws/me``) and the notices
sent down it (``notices.Notices``: a table's turn, an invitation, a league's round),
and who is online."""
