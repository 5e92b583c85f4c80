"""Accounts: registering, signing in and out, passwords, who you are (``/api/me``) and
which of the people you played with are online. Sessions and devices are the core's
(``riichi.server.auth``); this feature is their routes."""
